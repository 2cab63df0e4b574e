import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError, permissionLists, type AccountInfoDat, type ApiClient } from '@sunwatch/protocol';
import { api, entryRedirectPath, isAuthError, sessionEndReason, setNavigator } from './api';
import { SESSION_STORAGE_KEY, clearSession, getSession, saveLogin, setPermissions, subscribeSession } from './session';
import {
  SESSION_WATCH_FOCUS_GAP_MS,
  SESSION_WATCH_INTERVAL_MS,
  samePermissions,
  sessionWatchInterval,
  startSessionWatch,
  watchCheck,
  type SessionWatchDeps,
} from './session-watch';
import { authDat, permissionsOf, resetBrowserState } from '../test/session-fixtures';

/** A document whose visibility the test sets, with the listeners it registered. */
function fakeDoc(state: DocumentVisibilityState = 'visible') {
  const target = new EventTarget();
  return {
    visibilityState: state,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    set(s: DocumentVisibilityState) {
      this.visibilityState = s;
      target.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

function setup(over: Partial<SessionWatchDeps> = {}) {
  const doc = fakeDoc();
  const win = new EventTarget();
  const check = vi.fn(async () => undefined);
  const deps: SessionWatchDeps = {
    check,
    hasSession: () => true,
    intervalMs: 30_000,
    doc,
    win: win as unknown as Window,
    now: () => Date.now(),
    ...over,
  };
  const stop = startSessionWatch(deps);
  return { doc, win, check, stop };
}

describe('session watch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks once per interval while the tab is visible', async () => {
    const { check, stop } = setup();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000 * 3);
    expect(check).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(30_000 * 3);
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('makes no calls while hidden and checks at once when visible again', async () => {
    const { doc, check, stop } = setup();
    doc.set('hidden');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(check).not.toHaveBeenCalled();
    doc.set('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    // and the interval restarts from there
    await vi.advanceTimersByTimeAsync(30_000);
    expect(check).toHaveBeenCalledTimes(2);
    stop();
  });

  it('checks on focus, at most once per focus gap', async () => {
    const { win, check, stop } = setup();
    win.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    win.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SESSION_WATCH_FOCUS_GAP_MS);
    win.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(2);
    stop();
  });

  it('never overlaps calls and keeps polling after a failed one', async () => {
    let release: () => void = () => undefined;
    const check = vi
      .fn<() => Promise<unknown>>()
      .mockImplementationOnce(() => new Promise((r) => (release = () => r(undefined))))
      .mockRejectedValueOnce(new Error('network'))
      .mockResolvedValue(undefined);
    const { win, stop } = setup({ check, intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SESSION_WATCH_FOCUS_GAP_MS);
    win.dispatchEvent(new Event('focus')); // the first call still runs: no second one
    await vi.advanceTimersByTimeAsync(5_000);
    expect(check).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(check).toHaveBeenCalledTimes(2); // rejected
    await vi.advanceTimersByTimeAsync(1_000);
    expect(check).toHaveBeenCalledTimes(3);
    stop();
  });

  it('makes no call without a session', async () => {
    const { check, stop } = setup({ hasSession: () => false });
    await vi.advanceTimersByTimeAsync(90_000);
    expect(check).not.toHaveBeenCalled();
    stop();
  });

  it('the test hook can only shorten the interval', () => {
    expect(sessionWatchInterval(undefined)).toBe(SESSION_WATCH_INTERVAL_MS);
    expect(sessionWatchInterval(1_000)).toBe(1_000);
    expect(sessionWatchInterval(0)).toBe(SESSION_WATCH_INTERVAL_MS);
    expect(sessionWatchInterval(-5)).toBe(SESSION_WATCH_INTERVAL_MS);
    expect(sessionWatchInterval(10 * 60_000)).toBe(SESSION_WATCH_INTERVAL_MS);
    expect(sessionWatchInterval('500')).toBe(SESSION_WATCH_INTERVAL_MS);
    expect(sessionWatchInterval(Number.NaN)).toBe(SESSION_WATCH_INTERVAL_MS);
  });
});

describe('the one sign-out path of a dead session (api.ts)', () => {
  const navigate = vi.fn();
  beforeEach(() => {
    navigate.mockReset();
    setNavigator(navigate);
    saveLogin(authDat(), { remember: false });
    window.history.replaceState(null, '', '/generalNew/setting/browseAccount');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  const answer = (err: number) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ err, desc: 'X' }), { headers: { 'content-type': 'application/json' } })),
    );

  it.each([
    [10, 'expired'],
    [25, 'disabled'],
    [27, 'cancelled'],
  ] as const)('err %i clears the session and goes to /entry with reason %s', async (err, reason) => {
    answer(err);
    await expect(api.call('queryAccountInfo', {})).rejects.toBeInstanceOf(ApiCallError);
    expect(getSession()).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith(`/entry?redirect=${encodeURIComponent('/generalNew/setting/browseAccount')}&reason=${reason}`);
  });

  it('other errors keep the session', async () => {
    answer(11);
    await expect(api.call('queryAccountInfo', {})).rejects.toBeInstanceOf(ApiCallError);
    expect(getSession()).toBeDefined();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('the watch signs a disabled account out within one poll', async () => {
    vi.useFakeTimers();
    try {
      answer(10);
      const stop = startSessionWatch({
        check: () => api.call('queryAccountInfo', {}),
        hasSession: () => getSession() !== undefined,
        intervalMs: 30_000,
        doc: fakeDoc(),
        win: new EventTarget() as unknown as Window,
      });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(getSession()).toBeUndefined();
      expect(navigate).toHaveBeenCalledTimes(1);
      expect(navigate.mock.calls[0]![0]).toMatch(/^\/entry\?redirect=.+&reason=expired$/);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('entry paths and reasons', () => {
    expect(entryRedirectPath('/adminNew/device?pn=1')).toBe(`/entry?redirect=${encodeURIComponent('/adminNew/device?pn=1')}`);
    expect(entryRedirectPath('/', 'disabled')).toBe('/entry?reason=disabled');
    expect(entryRedirectPath('/entry?x=1', 'expired')).toBe('/entry?reason=expired');
    expect(entryRedirectPath('')).toBe('/entry');
    expect(sessionEndReason(new ApiCallError(25, 'ERR_USR_DISABLED'))).toBe('disabled');
    expect(sessionEndReason(new ApiCallError(12, 'ERR_NO_RECORD'))).toBeUndefined();
    expect(isAuthError(new ApiCallError(27, 'ERR_USR_CANCELLED'))).toBe(true);
    expect(isAuthError(new Error('x'))).toBe(false);
  });
});

describe("a sub-administrator's permissions follow a role edit (the watch's queryAccountInfo)", () => {
  const ACCOUNTS_AND_DEVICES = ['device_manag', 'device_list', 'account_manag', 'alarm_manag'];
  const DEVICES_ONLY = ['device_manag', 'device_list', 'alarm_manag'];

  /** The watch's deps: queryAccountInfo answers `granted`; the guard needs no call (lists are in the session). */
  function checkDeps(granted: () => string[], path: string) {
    let href = `http://localhost${path}`;
    const call = vi.fn(async (name: string) => {
      if (name !== 'queryAccountInfo') throw new ApiCallError(9, 'ERR_NOT_SUPPORTED');
      return { uid: 3, usr: 'north_ops', role: 2, permission: permissionsOf(...granted()) } as Partial<AccountInfoDat>;
    }) as unknown as ApiClient['call'];
    const guardCall = vi.fn(async () => {
      throw new ApiCallError(9, 'ERR_NOT_SUPPORTED');
    }) as unknown as ApiClient['call'];
    const navigate = vi.fn((to: string) => {
      href = `http://localhost${to}`;
    });
    return { call, guardCall, navigate, href: () => href };
  }

  function signInSubAdmin(granted: string[]) {
    saveLogin(authDat({ role: 2, usr: 'north_ops', uid: 3 }), { remember: false });
    setPermissions(permissionLists(permissionsOf(...granted)));
  }

  beforeEach(() => resetBrowserState());
  afterEach(() => resetBrowserState());

  it('a revoked module leaves the menus and sends its open page to /401', async () => {
    signInSubAdmin(ACCOUNTS_AND_DEVICES);
    expect(getSession()?.permissions?.modules).toContain('account_manag');
    const d = checkDeps(() => DEVICES_ONLY, '/adminNew/account?tab=users');
    const renders = vi.fn();
    const unsubscribe = subscribeSession(renders);
    await watchCheck(d);
    unsubscribe();
    expect(getSession()?.permissions?.modules).toEqual(['device_manag', 'alarm_manag']);
    // the store told its subscribers (menus, guards) and the tab's copy is current too
    expect(renders).toHaveBeenCalled();
    const stored = JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { permissions?: { modules: string[] } };
    expect(stored.permissions?.modules).toEqual(['device_manag', 'alarm_manag']);
    expect(d.navigate).toHaveBeenCalledTimes(1);
    expect(d.navigate).toHaveBeenCalledWith('/401');
  });

  it('a change that keeps the open page allowed updates the lists without navigating', async () => {
    signInSubAdmin(DEVICES_ONLY);
    const d = checkDeps(() => ACCOUNTS_AND_DEVICES, '/adminNew/device');
    await watchCheck(d);
    expect(getSession()?.permissions?.modules).toEqual(['device_manag', 'account_manag', 'alarm_manag']);
    expect(d.navigate).not.toHaveBeenCalled();
  });

  it('unchanged lists (in any order) neither touch the session nor navigate', async () => {
    signInSubAdmin(DEVICES_ONLY);
    const d = checkDeps(() => DEVICES_ONLY, '/adminNew/account');
    const renders = vi.fn();
    const unsubscribe = subscribeSession(renders);
    await watchCheck(d);
    unsubscribe();
    expect(renders).not.toHaveBeenCalled();
    expect(d.navigate).not.toHaveBeenCalled();
    const a = permissionLists(permissionsOf(...DEVICES_ONLY));
    expect(samePermissions(a, { ...a, modules: [...a.modules].reverse() })).toBe(true);
    expect(samePermissions(undefined, a)).toBe(false);
  });

  it('other roles keep no lists and are never redirected by the watch', async () => {
    saveLogin(authDat({ role: 1, usr: 'dealer_north' }), { remember: false });
    const d = checkDeps(() => [], '/adminNew/account');
    await watchCheck(d);
    expect(getSession()?.permissions).toBeUndefined();
    expect(d.navigate).not.toHaveBeenCalled();
  });

  it('the poll itself applies the edit within one interval', async () => {
    vi.useFakeTimers();
    try {
      signInSubAdmin(ACCOUNTS_AND_DEVICES);
      let granted = ACCOUNTS_AND_DEVICES;
      const d = checkDeps(() => granted, '/adminNew/account');
      const stop = startSessionWatch({
        check: () => watchCheck(d),
        hasSession: () => getSession() !== undefined,
        intervalMs: SESSION_WATCH_INTERVAL_MS,
        doc: fakeDoc(),
        win: new EventTarget() as unknown as Window,
      });
      await vi.advanceTimersByTimeAsync(SESSION_WATCH_INTERVAL_MS);
      expect(d.navigate).not.toHaveBeenCalled();
      granted = DEVICES_ONLY; // the administrator edits the role
      await vi.advanceTimersByTimeAsync(SESSION_WATCH_INTERVAL_MS);
      expect(getSession()?.permissions?.modules).not.toContain('account_manag');
      expect(d.navigate).toHaveBeenCalledWith('/401');
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
