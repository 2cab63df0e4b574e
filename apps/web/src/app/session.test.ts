import { beforeEach, describe, expect, it } from 'vitest';
import { decryptValue } from './aes';
import { getCookie } from './cookies';
import {
  COOKIE,
  SESSION_STORAGE_KEY,
  clearSession,
  getRememberToken,
  getSession,
  saveLogin,
  setPermissions,
} from './session';
import { authDat, resetBrowserState } from '../test/session-fixtures';

beforeEach(() => resetBrowserState());

describe('session store', () => {
  it('saveLogin stores state, session storage and encrypted cookies with the login flag', () => {
    saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
    expect(getSession()).toMatchObject({ secret: 'sec-1', token: 'tok-1', role: 1, usr: 'sunmaker', pprAuth: 'ppr' });
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY)!).token).toBe('tok-1');
    const raw = getCookie(COOKIE.token)!;
    expect(raw).not.toContain('tok-1');
    expect(decryptValue(raw)).toBe('tok-1');
    expect(decryptValue(getCookie(COOKIE.role)!)).toBe('1');
    expect(getCookie(COOKIE.loginFlag)).toBe('1');
    expect(getRememberToken()).toBeUndefined();
  });

  it('keeps only the remember token (never a password) when asked', () => {
    const rem = 'c'.repeat(64);
    saveLogin(authDat({ rem }), { remember: true });
    expect(getRememberToken()).toBe(rem);
    // no cookie named after a password (the values are random ciphertext: "…PpwD…" is no password)
    const names = document.cookie.split(/;\s*/).map((c) => c.split('=')[0]!);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => /pwd|password/i.test(n))).toEqual([]);
    saveLogin(authDat(), { remember: false });
    expect(getRememberToken()).toBeUndefined();
  });

  it('clearSession forgets token, secret, role, permissions and cookies', () => {
    saveLogin(authDat({ role: 2, rem: 'd'.repeat(64) }), { remember: true });
    setPermissions({ modules: ['overview'], firstPages: [], secondPages: [], buttons: [] });
    clearSession();
    expect(getSession()).toBeUndefined();
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    for (const k of ['secret', 'token', 'role', 'pprAuth', 'loginFlag', 'remember'] as const) {
      expect(getCookie(COOKIE[k])).toBeUndefined();
    }
  });
});
