/**
 * The session watch of the signed-in shell (issue 9): a disabled, closed or signed-out account must
 * leave the app within one poll even when its page is idle. While the tab is visible the watch
 * makes one light signed call (`queryAccountInfo`, the caller's own record) every
 * SESSION_WATCH_INTERVAL_MS, and one at once when the tab becomes visible again or the window gets
 * the focus. A hidden tab makes no calls (the next visibility change checks at once).
 *
 * The watch handles no error itself: its call goes through the app's API client (api.ts), whose
 * one sign-out path clears the session on err 10/25/27 and goes to /entry with the reason.
 *
 * Browser flows shorten the interval through `window.__SW_SESSION_WATCH_MS__` (set before the app
 * loads); the hook can only make the watch more frequent, never slower or off.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { getSession } from './session';

/** Production interval: 30 s (a disabled account is out within 30 s on an idle page). */
export const SESSION_WATCH_INTERVAL_MS = 30_000;
/** Shortest interval the test hook may set. */
export const SESSION_WATCH_MIN_MS = 200;
/** Focus and visibility often fire together: at most one immediate check per this gap. */
export const SESSION_WATCH_FOCUS_GAP_MS = 2_000;

export const SESSION_WATCH_HOOK = '__SW_SESSION_WATCH_MS__';

/** The interval: the production one unless the test hook asks for a shorter (valid) one. */
export function sessionWatchInterval(hook: unknown): number {
  return typeof hook === 'number' && Number.isFinite(hook) && hook >= SESSION_WATCH_MIN_MS && hook < SESSION_WATCH_INTERVAL_MS
    ? hook
    : SESSION_WATCH_INTERVAL_MS;
}

export interface SessionWatchDeps {
  /** The light signed call; its errors are handled by the API client. */
  check: () => Promise<unknown>;
  hasSession: () => boolean;
  intervalMs: number;
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  win: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  now?: () => number;
}

/** Starts the watch; returns its stop function. */
export function startSessionWatch(deps: SessionWatchDeps): () => void {
  const now = deps.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  let lastCheck = -Infinity;
  let stopped = false;

  const visible = () => deps.doc.visibilityState === 'visible';

  const run = async () => {
    if (stopped || inFlight || !deps.hasSession()) return;
    inFlight = true;
    lastCheck = now();
    try {
      await deps.check();
    } catch {
      // err 10/25/27 were handled by the API client; anything else (network) waits for the next poll
    } finally {
      inFlight = false;
    }
  };

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped || !visible()) return;
    timer = setTimeout(() => {
      timer = undefined;
      void run().finally(schedule);
    }, deps.intervalMs);
  };

  const checkNow = () => {
    if (!visible() || now() - lastCheck < SESSION_WATCH_FOCUS_GAP_MS) {
      schedule();
      return;
    }
    void run().finally(schedule);
  };

  const onVisibility = () => (visible() ? checkNow() : schedule());
  deps.doc.addEventListener('visibilitychange', onVisibility);
  deps.win.addEventListener('focus', checkNow);
  schedule();

  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    deps.doc.removeEventListener('visibilitychange', onVisibility);
    deps.win.removeEventListener('focus', checkNow);
  };
}

/**
 * Mounts the watch for the lifetime of the signed-in shell (AreaLayout). When the shell goes away
 * without a session (signed out, disabled, expired), the cached server data goes too: the next
 * account to sign in in this tab must not see the previous one's.
 */
export function useSessionWatch(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const stop = startSessionWatch({
      check: () => api.call('queryAccountInfo', {}),
      hasSession: () => getSession() !== undefined,
      intervalMs: sessionWatchInterval((window as unknown as Record<string, unknown>)[SESSION_WATCH_HOOK]),
      doc: document,
      win: window,
    });
    return () => {
      stop();
      if (!getSession()) queryClient.clear();
    };
  }, [queryClient]);
}
