import { beforeEach, describe, expect, it } from 'vitest';
import { SKINS, SKIN_STORAGE_KEY, applySkinVariables, getSkin, setSkin, skinTheme } from './theme';

describe('skins', () => {
  beforeEach(() => setSkin('blue'));

  it('lists blue (the default) first, then pink (classic), purple, orange, green', () => {
    expect(SKINS.map((s) => s.id)).toEqual(['blue', 'pink', 'purple', 'orange', 'green']);
  });

  it('remembers the choice in the browser and applies it as antd tokens and CSS variables', () => {
    setSkin('purple');
    expect(getSkin()).toBe('purple');
    expect(localStorage.getItem(SKIN_STORAGE_KEY)).toBe('purple');
    const root = document.documentElement;
    expect(root.dataset.skin).toBe('purple');
    expect(root.style.getPropertyValue('--sw-primary')).toBe('#722ed1');
    expect(skinTheme('purple').token.colorPrimary).toBe('#722ed1');
    expect(skinTheme('green').components.Menu.itemSelectedColor).toBe('#52c41a');
  });

  it('ignores an unknown skin', () => {
    setSkin('orange');
    setSkin('black' as never);
    expect(getSkin()).toBe('orange');
  });

  it('writes the variables on any root element', () => {
    const el = document.createElement('div');
    applySkinVariables('pink', el);
    expect(el.style.getPropertyValue('--sw-primary-bg')).toBe('#fff0f6');
  });
});
