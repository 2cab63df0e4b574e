import { describe, expect, it, vi } from 'vitest';
import { ApiCallError, permissionEntries } from '@sunwatch/protocol';
import type { AuthDat } from '@sunwatch/protocol';
import { loginErrorView, runLogin, safeRedirect } from './login-flow';
import type { LoginDeps } from './login-flow';

describe('safeRedirect', () => {
  it('keeps same-origin absolute paths', () => {
    expect(safeRedirect('/adminNew/device')).toBe('/adminNew/device');
    expect(safeRedirect('/generalNew/home?tab=2#x')).toBe('/generalNew/home?tab=2#x');
    expect(safeRedirect('/')).toBe('/');
  });

  it('rejects empty values and anything not starting with a single slash', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'adminNew',
      'http://evil.example/',
      'https://evil.example',
      'javascript:alert(1)',
      ' /home',
    ]) {
      expect(safeRedirect(bad)).toBeUndefined();
    }
  });

  it('rejects protocol-relative and backslash tricks', () => {
    for (const bad of [
      '//evil.example',
      '//evil.example/home',
      '/\\evil.example',
      '/\\/evil.example',
      '/home\\x',
      '/\thome',
      '/\n/evil.example',
    ]) {
      expect(safeRedirect(bad)).toBeUndefined();
    }
  });

  it('does not send the user back to the entry page', () => {
    expect(safeRedirect('/entry')).toBeUndefined();
    expect(safeRedirect('/entry?redirect=/home')).toBeUndefined();
  });
});

interface S {
  role: number;
}

function authDat(role: AuthDat['role'], extra: Partial<AuthDat> = {}): AuthDat {
  return { secret: 's', token: 't', expire: 604800, role, uid: 7, usr: 'anna', pprAuth: 'p', ...extra };
}

function fakeDeps(opts: {
  session?: S;
  login?: () => Promise<AuthDat>;
  calls?: Record<string, () => Promise<unknown>>;
}) {
  let session: S | undefined = opts.session;
  const calls: Array<[string, unknown]> = [];
  const deps = {
    api: {
      login: vi.fn(async () => (opts.login ? opts.login() : authDat(0))),
      call: vi.fn(async (name: string, params: unknown) => {
        calls.push([name, params]);
        const handler = opts.calls?.[name];
        if (handler) return handler();
        if (name === 'logoutVerifiction') throw new ApiCallError(12, 'ERR_NO_RECORD');
        return undefined;
      }),
    },
    getSession: () => session,
    getRememberToken: () => 'a'.repeat(64),
    clearSession: vi.fn(() => {
      session = undefined;
    }),
    saveLogin: vi.fn((dat: AuthDat) => {
      session = { role: dat.role };
    }),
    setPermissions: vi.fn(),
    homePathFor: (s: S) => `/home-of-${s.role}`,
  };
  return { deps: deps as unknown as LoginDeps<S> & typeof deps, calls };
}

describe('runLogin', () => {
  it('signs in, saves the session and goes home', async () => {
    const { deps, calls } = fakeDeps({});
    const out = await runLogin({ usr: 'anna', pwd: 'secret1', remember: true }, deps);
    expect(deps.api.login).toHaveBeenCalledWith('anna', 'secret1', { isRem: true });
    expect(deps.saveLogin).toHaveBeenCalledWith(expect.objectContaining({ token: 't' }), { remember: true });
    expect(calls.map((c) => c[0])).toEqual(['logoutVerifiction']);
    expect(out).toEqual({ kind: 'redirect', to: '/home-of-0' });
  });

  it('logs out an old session first, ignoring its errors', async () => {
    const { deps, calls } = fakeDeps({
      session: { role: 5 },
      calls: { logout: () => Promise.reject(new ApiCallError(10, 'ERR_NO_AUTH')) },
    });
    await runLogin({ usr: 'anna', pwd: 'secret1', remember: false }, deps);
    expect(calls[0]).toEqual(['logout', { rem: 'a'.repeat(64) }]);
    expect(deps.clearSession).toHaveBeenCalled();
    expect(deps.api.login).toHaveBeenCalledWith('anna', 'secret1', { isRem: false });
  });

  it('follows a safe redirect and ignores an unsafe one', async () => {
    const a = fakeDeps({});
    expect(
      await runLogin({ usr: 'u1', pwd: 'secret1', remember: false, redirect: '/generalNew/plant' }, a.deps),
    ).toEqual({
      kind: 'redirect',
      to: '/generalNew/plant',
    });
    const b = fakeDeps({});
    expect(await runLogin({ usr: 'u1', pwd: 'secret1', remember: false, redirect: '//evil.example' }, b.deps)).toEqual({
      kind: 'redirect',
      to: '/home-of-0',
    });
  });

  it('stops when the account is being logged off (logoutVerifiction answers 0)', async () => {
    const { deps } = fakeDeps({ calls: { logoutVerifiction: () => Promise.resolve(undefined) } });
    const out = await runLogin({ usr: 'anna', pwd: 'secret1', remember: true }, deps);
    expect(out).toEqual({ kind: 'loggingOff' });
    expect(deps.clearSession).toHaveBeenCalled();
    expect(deps.getSession()).toBeUndefined();
  });

  it('loads the permission lists of a role-2 account', async () => {
    const granted = new Set(['device_manag', 'device_list']);
    const { deps } = fakeDeps({
      login: async () => authDat(2),
      calls: { queryAccountInfo: async () => ({ permission: permissionEntries(granted) }) },
    });
    await runLogin({ usr: 'north_ops', pwd: 'secret1', remember: false }, deps);
    expect(deps.setPermissions).toHaveBeenCalledWith(
      expect.objectContaining({ modules: ['device_manag'], firstPages: ['device_list'] }),
    );
  });

  it('propagates a login error without saving anything', async () => {
    const { deps } = fakeDeps({
      login: () => Promise.reject(new ApiCallError(16, 'ERR_PASSWORD_VERIF_FAIL', 'Wrong password')),
    });
    await expect(runLogin({ usr: 'anna', pwd: 'bad-pwd', remember: false }, deps)).rejects.toMatchObject({ err: 16 });
    expect(deps.saveLogin).not.toHaveBeenCalled();
  });
});

describe('loginErrorView', () => {
  it("prefers the server's message", () => {
    expect(loginErrorView(new ApiCallError(13, 'ERR_OVER_LIMITED', 'Try again in 30 seconds'))).toEqual({
      code: 13,
      key: '13',
      text: 'Try again in 30 seconds',
    });
  });

  it('falls back to the catalogue key of the code', () => {
    expect(loginErrorView(new ApiCallError(261, 'ERR_NOT_FOUND_USR'))).toEqual({ code: 261, key: '261' });
  });

  it('treats anything else as a network failure (code 3)', () => {
    expect(loginErrorView(new TypeError('Failed to fetch'))).toEqual({ code: 3, key: '3' });
  });
});
