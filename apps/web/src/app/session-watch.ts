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
 * The same call keeps a sub-administrator's (role 2) permission lists current: the server applies a
 * role edit from the next call, so the watch compares the record's `permission[]` with the session's
 * lists and, when they differ, stores the new ones (menus and guards re-render through the session
 * store) and re-runs the navigation guard on the current URL: a page the account may no longer open
 * goes to /401, as a fresh navigation would.
 *
 * Browser flows shorten the interval through `window.__SW_SESSION_WATCH_MS__` (set before the app
 * loads); the hook can only make the watch more frequent, never slower or off.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { permissionLists, type AccountInfoDat, type ApiClient, type PermissionLists } from '@sunwatch/protocol';
import { api, baseClient } from './api';
import { resolveNavigation } from './guard';
import { getSession, setPermissions } from './session';

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

/** The same grants, whatever the order the server lists them in. */
export function samePermissions(a: PermissionLists | undefined, b: PermissionLists): boolean {
  if (!a) return false;
  const key = (l: PermissionLists) =>
    JSON.stringify([l.modules, l.firstPages, l.secondPages, l.buttons].map((xs) => [...xs].sort()));
  return key(a) === key(b);
}

/**
 * Role 2: stores the permission lists of the caller's own record when they differ from the
 * session's. Returns whether they changed. Other roles carry no lists (their access is the role).
 */
export function refreshPermissions(info: Pick<AccountInfoDat, 'permission'>): boolean {
  const session = getSession();
  if (!session || session.role !== 2) return false;
  const lists = permissionLists(info.permission ?? []);
  if (samePermissions(session.permissions, lists)) return false;
  setPermissions(lists);
  return true;
}

export interface WatchCheckDeps {
  /** The signed call through the app's client (its err 10/25/27 handling signs the user out). */
  call: ApiClient['call'];
  /** The client the guard uses (it handles its own errors). */
  guardCall: ApiClient['call'];
  navigate: (to: string) => void;
  /** The current URL. */
  href: () => string;
}

/**
 * One check of the watch: the caller's own record; when a sub-administrator's permissions changed,
 * the guard decides again on the current URL and its redirect (e.g. /401) is followed.
 */
export async function watchCheck(deps: WatchCheckDeps): Promise<void> {
  const info = await deps.call('queryAccountInfo', {});
  if (!refreshPermissions(info)) return;
  const here = deps.href();
  const decision = await resolveNavigation(new URL(here), { call: deps.guardCall });
  // the user may have moved on while the guard ran
  if ('redirect' in decision && deps.href() === here) deps.navigate(decision.redirect);
}

/**
 * Mounts the watch for the lifetime of the signed-in shell (AreaLayout). When the shell goes away
 * without a session (signed out, disabled, expired), the cached server data goes too: the next
 * account to sign in in this tab must not see the previous one's.
 */
export function useSessionWatch(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // a ref: a new navigate function must not restart the watch (and its interval)
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    const stop = startSessionWatch({
      check: () =>
        watchCheck({
          call: api.call,
          guardCall: baseClient.call,
          navigate: (to) => void navigateRef.current(to, { replace: true }),
          href: () => window.location.href,
        }),
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
