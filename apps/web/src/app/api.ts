/**
 * The one action-API client of the web app (architecture §3): typed from the protocol
 * catalogue, signed with the current session, sending the interface language as `i18n`.
 * An err 10 answer (authentication failed) clears the session and sends the user to
 * /entry?redirect=<current path>.
 */
import { ApiCallError, WEB_COMPANY_KEY, createApiClient, type ApiClient } from '@sunwatch/protocol';
import { currentLocale } from '../i18n';
import { clearSession, getSession } from './session';

/** The client without the err-10 handling (the navigation guard handles it itself). */
export const baseClient: ApiClient = createApiClient({
  baseUrl: '/public/',
  companyKey: WEB_COMPANY_KEY,
  getSession: () => {
    const s = getSession();
    return s ? { secret: s.secret, token: s.token } : undefined;
  },
  getLocale: () => currentLocale(),
});

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/** The router registers its navigate function so that err 10 is a client-side redirect. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

/** The path /entry should send the user back to after signing in again. */
export function entryRedirectPath(wanted: string): string {
  return wanted && !wanted.startsWith('/entry') && wanted !== '/' ? `/entry?redirect=${encodeURIComponent(wanted)}` : '/entry';
}

export function isAuthError(e: unknown): boolean {
  return e instanceof ApiCallError && e.err === 10;
}

function onAuthError(): void {
  clearSession();
  const here = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
  navigate(entryRedirectPath(here));
}

export const api: ApiClient = {
  ...baseClient,
  async call(name, params) {
    try {
      return await baseClient.call(name, params);
    } catch (e) {
      if (isAuthError(e)) onAuthError();
      throw e;
    }
  },
};
