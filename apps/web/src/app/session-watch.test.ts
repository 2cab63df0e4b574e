import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError } from '@sunwatch/protocol';
import { api, entryRedirectPath, isAuthError, sessionEndReason, setNavigator } from './api';
import { clearSession, getSession, saveLogin } from './session';
import {
  SESSION_WATCH_FOCUS_GAP_MS,
  SESSION_WATCH_INTERVAL_MS,
  sessionWatchInterval,
  startSessionWatch,
  type SessionWatchDeps,
} from './session-watch';
import { authDat } from '../test/session-fixtures';

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
