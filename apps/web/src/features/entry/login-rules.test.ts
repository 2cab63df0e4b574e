import { describe, expect, it } from 'vitest';
import { checkLoginPwd, checkLoginUsr } from './login-rules';

describe('login rules (spec §5)', () => {
  it('requires a 2-32 character account', () => {
    expect(checkLoginUsr('')?.key).toBe('rules.username.required');
    expect(checkLoginUsr('   ')?.key).toBe('rules.username.required');
    expect(checkLoginUsr(undefined)?.key).toBe('rules.username.required');
    expect(checkLoginUsr('a')).toEqual({ key: 'rules.username.length', values: { min: 2, max: 32 } });
    expect(checkLoginUsr('x'.repeat(33))?.key).toBe('rules.username.length');
    expect(checkLoginUsr('ab')).toBeUndefined();
    expect(checkLoginUsr('张三')).toBeUndefined();
    expect(checkLoginUsr('x'.repeat(32))).toBeUndefined();
  });

  it('requires a 6-32 character password, trimmed', () => {
    expect(checkLoginPwd('')?.key).toBe('rules.password.required');
    expect(checkLoginPwd('      ')?.key).toBe('rules.password.required');
    expect(checkLoginPwd('  12345  ')).toEqual({ key: 'rules.password.length', values: { min: 6, max: 32 } });
    expect(checkLoginPwd('  123456  ')).toBeUndefined();
    expect(checkLoginPwd('x'.repeat(33))?.key).toBe('rules.password.length');
  });
});
