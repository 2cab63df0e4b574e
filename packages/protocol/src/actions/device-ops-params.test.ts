import { describe, expect, it } from 'vitest';
import { CTRL_PWD_MAX, CTRL_PWD_MIN, isValidCtrlPwd } from './device-ops-params.js';

describe('device-control password rule', () => {
  it('accepts 6 to 32 characters without white space', () => {
    expect(isValidCtrlPwd('a'.repeat(CTRL_PWD_MIN))).toBe(true);
    expect(isValidCtrlPwd('a'.repeat(CTRL_PWD_MAX))).toBe(true);
    expect(isValidCtrlPwd('Secret_42')).toBe(true);
    expect(isValidCtrlPwd('a'.repeat(CTRL_PWD_MIN - 1))).toBe(false);
    expect(isValidCtrlPwd('a'.repeat(CTRL_PWD_MAX + 1))).toBe(false);
    expect(isValidCtrlPwd('Secret 42')).toBe(false);
    expect(isValidCtrlPwd('Secret\t42')).toBe(false);
    expect(isValidCtrlPwd('')).toBe(false);
  });
});
