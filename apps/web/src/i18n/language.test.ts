import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LANG_STORAGE_KEY, detectLocale, setLanguage } from './index';

beforeEach(() => localStorage.clear());

describe('language choice (spec §1)', () => {
  it('a stored choice wins', () => {
    localStorage.setItem(LANG_STORAGE_KEY, 'pl_PL');
    expect(detectLocale('zh-CN')).toBe('pl_PL');
  });
  it('else Chinese for Chinese browsers, else English', () => {
    expect(detectLocale('zh-CN')).toBe('zh_CN');
    expect(detectLocale('zh-TW')).toBe('zh_CN');
    expect(detectLocale('de-DE')).toBe('en_US');
    expect(detectLocale('')).toBe('en_US');
  });
  it('setLanguage stores the choice and reloads', () => {
    const reload = vi.fn();
    setLanguage('uz_UZ', reload);
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('uz_UZ');
    expect(reload).toHaveBeenCalledOnce();
  });
});
