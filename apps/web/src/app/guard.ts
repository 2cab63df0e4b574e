/**
 * The navigation guard of spec §2, as a pure async function of the wanted URL so that
 * the router's root loader and the tests run the same code.
 *
 * Session resolution order: (1) the query (secret, token, role) when the session holds
 * none; (2) session storage; (3) the encrypted cookies while the login flag cookie
 * exists; (4) the remember-me token (authByRememberToken, rotated); (5) /entry with a
 * redirect to the wanted path. A role-2 session then loads its permission lists once.
 */
import { QR_CONFIRM_PATH, WEB_COMPANY_KEY, permissionLists, type ApiClient } from '@sunwatch/protocol';
import { accessFor, canOpenChain, openableDefaultChild } from './access';
import { landingFor, landingPath } from './edition';
import { entryRedirectPath, isAuthError } from './api';
import { PUBLIC_PATHS, matchRoute, normalizePath } from './routes';
import {
  clearSession,
  getRememberToken,
  getSession,
  restoreFromCookies,
  restoreFromQuery,
  restoreFromSessionStorage,
  saveLogin,
  setAccountName,
  setNewEdition,
  setPermissions,
  type Session,
} from './session';

export type GuardResult = { allow: true } | { redirect: string };

export interface GuardDeps {
  call: ApiClient['call'];
}

export type SessionSource = 'state' | 'query' | 'sessionStorage' | 'cookies' | 'remember';

/** Steps 1–4; undefined when nothing yields a session. */
export async function resolveSession(
  query: URLSearchParams,
  deps: GuardDeps,
): Promise<{ session: Session; source: SessionSource } | undefined> {
  const inState = getSession();
  if (inState) return { session: inState, source: 'state' };
  const fromQuery = restoreFromQuery(query);
  if (fromQuery) return { session: fromQuery, source: 'query' };
  const fromStorage = restoreFromSessionStorage();
  if (fromStorage) return { session: fromStorage, source: 'sessionStorage' };
  const fromCookies = restoreFromCookies();
  if (fromCookies) return { session: fromCookies, source: 'cookies' };
  const rem = getRememberToken();
  if (rem) {
    try {
      const dat = await deps.call('authByRememberToken', { rem, 'company-key': WEB_COMPANY_KEY });
      saveLogin(dat, { remember: true });
      const s = getSession();
      if (s) return { session: s, source: 'remember' };
    } catch {
      clearSession(); // revoked or expired: forget the token
    }
  }
  return undefined;
}

/** Loads what the session still lacks: role-2 permission lists and the account name. */
async function completeSession(session: Session, deps: GuardDeps): Promise<Session | undefined> {
  const needsPermissions = session.role === 2 && !session.permissions;
  if (!needsPermissions && session.usr) return session;
  try {
    const info = await deps.call('queryAccountInfo', {});
    setAccountName(info.usr, info.uid);
    if (needsPermissions) setPermissions(permissionLists(info.permission ?? []));
  } catch (e) {
    if (isAuthError(e)) {
      clearSession();
      return undefined;
    }
    // Anything else: go on; the server enforces every action anyway.
  }
  return getSession();
}

const QUERY_SESSION_KEYS = ['secret', 'token', 'role', 'pprAuth', 'usr', 'uid'];

/** Decides where a navigation to `url` ends. */
export async function resolveNavigation(url: URL, deps: GuardDeps): Promise<GuardResult> {
  const path = normalizePath(url.pathname);
  const wanted = path + url.search;
  if (path === '/') return { redirect: '/entry' };
  if ((PUBLIC_PATHS as readonly string[]).includes(path)) return { allow: true };

  const isHome = path.startsWith('/home');
  // Pages outside the areas for any signed-in role (issue 12: the QR sign-in confirm page).
  const signedInOnly = path === QR_CONFIRM_PATH;
  const match = isHome || signedInOnly ? undefined : matchRoute(path);
  if (!isHome && !signedInOnly && !match) return { redirect: '/404' };

  // Visiting an edition's area sets or clears the new-edition flag (spec §2).
  if (match && match.area.id !== 'operator') setNewEdition(match.area.edition === 'new');

  const resolved = await resolveSession(url.searchParams, deps);
  if (!resolved) return { redirect: entryRedirectPath(wanted) };
  const session = await completeSession(resolved.session, deps);
  if (!session) return { redirect: entryRedirectPath(wanted) };

  if (resolved.source === 'query' && QUERY_SESSION_KEYS.some((k) => url.searchParams.has(k))) {
    // Keep credentials out of the address bar and history.
    const rest = new URLSearchParams(url.search);
    for (const k of QUERY_SESSION_KEYS) rest.delete(k);
    const qs = rest.toString();
    return { redirect: `${isHome ? landingFor(session) : path}${qs ? `?${qs}` : ''}` };
  }

  if (signedInOnly) return { allow: true };
  if (isHome) return { redirect: landingFor(session) };
  if (!match) return { redirect: '/404' };

  const access = accessFor(session);
  if (!access.canOpenArea(match.area)) return { redirect: '/401' };
  // Role, read-only and role-2 module rules of the page and every ancestor (menus hide the same).
  if (!canOpenChain(access, match.chain)) return { redirect: '/401' };

  if (match.chain.length === 0) {
    // The area root opens the role's landing page when it lies in this area, else the area's
    // first page the account may open.
    const home = landingFor(session);
    const next = home.startsWith(`${match.area.base}/`) ? home : landingPath(match.area, access);
    return { redirect: (next ?? '/401') + url.search };
  }
  const last = match.chain[match.chain.length - 1]!;
  if (!match.subPage && last.defaultChild) {
    // A settings node opens its default child, or its first child the account may open.
    const child = openableDefaultChild(last, access);
    return { redirect: child ? `${path}/${child.path}${url.search}` : '/401' };
  }
  return { allow: true };
}
