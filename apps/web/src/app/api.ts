/**
 * The one action-API client of the web app (architecture §3): typed from the protocol
 * catalogue, signed with the current session, sending the interface language as `i18n`.
 * An answer that ends the session — err 10 (authentication failed: token revoked, expired, or the
 * account disabled), 25 (account disabled), 27 (account closed) — clears the session and sends the
 * user to /entry?redirect=<current path>&reason=<why>, where the entry page says why. This is the one
 * sign-out path of a dead session: every call, and the session watch (session-watch.ts), go through it.
 */
import { ApiCallError, WEB_COMPANY_KEY, createApiClient, type ApiClient } from '@sunwatch/protocol';
import { currentLocale } from '../i18n';
import { clearSession, getSession } from './session';
import { nodeFetch } from './node-url';
import { noteAction } from './web-errors/install';

/** The client without the err-10 handling (the navigation guard handles it itself). */
export const baseClient: ApiClient = createApiClient({
  baseUrl: '/public/',
  companyKey: WEB_COMPANY_KEY,
  getSession: () => {
    const s = getSession();
    return s ? { secret: s.secret, token: s.token } : undefined;
  },
  getLocale: () => currentLocale(),
  // issue 12: calls go to the chosen server node (cookie sw_node)
  fetch: nodeFetch,
});

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/** The router registers its navigate function so that err 10 is a client-side redirect. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

/** Why a session ended, as the entry page's `reason` parameter. */
export type SessionEndReason = 'expired' | 'disabled' | 'cancelled';

/** The error codes that end the session, and the reason each shows. */
export const SESSION_END_CODES: Readonly<Record<number, SessionEndReason>> = { 10: 'expired', 25: 'disabled', 27: 'cancelled' };

export function isSessionEndReason(v: string | null | undefined): v is SessionEndReason {
  return v === 'expired' || v === 'disabled' || v === 'cancelled';
}

/** The path /entry should send the user back to after signing in again (with why the session ended). */
export function entryRedirectPath(wanted: string, reason?: SessionEndReason): string {
  const q: string[] = [];
  if (wanted && !wanted.startsWith('/entry') && wanted !== '/') q.push(`redirect=${encodeURIComponent(wanted)}`);
  if (reason) q.push(`reason=${reason}`);
  return q.length ? `/entry?${q.join('&')}` : '/entry';
}

/** The reason a call's error ends the session, or undefined when it does not. */
export function sessionEndReason(e: unknown): SessionEndReason | undefined {
  return e instanceof ApiCallError ? SESSION_END_CODES[e.err] : undefined;
}

export function isAuthError(e: unknown): boolean {
  return sessionEndReason(e) !== undefined;
}

function onAuthError(reason: SessionEndReason): void {
  clearSession();
  const here = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
  // already on the entry page (a late answer of the page just left): stay, keep its reason
  if (here.startsWith('/entry')) return;
  navigate(entryRedirectPath(here, reason));
}

/** Signs the user out (to /entry with the reason) when `e` says the session ended (err 10/25/27). */
export function endSessionOn(e: unknown): void {
  const reason = sessionEndReason(e);
  if (reason) onAuthError(reason);
}

export const api: ApiClient = {
  ...baseClient,
  async call(name, params) {
    try {
      const dat = await baseClient.call(name, params);
      noteAction(name, 0);
      return dat;
    } catch (e) {
      noteAction(name, e instanceof ApiCallError ? e.err : 3);
      endSessionOn(e);
      throw e;
    }
  },
};
