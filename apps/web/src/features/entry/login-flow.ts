/**
 * The login submit flow of spec §4 "Entry page flows", after the slider puzzle: log out any
 * old session, verify the credentials, save the session, run the post-login checks and work
 * out where to go. Dependencies are injected so the flow can be tested without a server.
 */
import { ApiCallError, ROLE, errorMessageKey, permissionLists } from '@sunwatch/protocol';
import type { ApiClient, AuthDat, PermissionLists } from '@sunwatch/protocol';
import { withNodeRetry, type NodeRetryDeps } from './nodes/node-retry';

export interface LoginInput {
  usr: string;
  /** Already trimmed. Held only in memory for the duration of the call. */
  pwd: string;
  remember: boolean;
  /** The raw `redirect` query parameter, if any. */
  redirect?: string | null;
}

export interface LoginDeps<S> {
  api: Pick<ApiClient, 'login' | 'call'>;
  getSession(): S | undefined | null;
  getRememberToken(): string | undefined | null;
  clearSession(): void;
  saveLogin(dat: AuthDat, opts: { remember: boolean }): void;
  setPermissions(lists: PermissionLists): void;
  homePathFor(session: S): string;
  /** Server nodes (spec §4): the cookie cleared before verifying, the 261 retry on the other default node. */
  nodes?: NodeRetryDeps;
}

export type LoginOutcome =
  | { kind: 'redirect'; to: string }
  /** logoutVerifiction answered 0: the account is being logged off; the session was dropped. */
  | { kind: 'loggingOff' };

/**
 * Only same-origin paths are followed: they must start with a single '/', contain no
 * backslash or control character (browsers read `/\host` as `//host`), and not point back
 * at the entry page itself.
 */
export function safeRedirect(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  if (!raw.startsWith('/') || raw.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return undefined;
  const base = 'http://sunwatch.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  if (url.pathname === '/entry' || url.pathname.startsWith('/entry/')) return undefined;
  return raw;
}

/** Logs out the current session, if any, ignoring every error (spec §4 step 2). */
export async function logoutOldSession<S>(deps: LoginDeps<S>): Promise<void> {
  if (!deps.getSession()) return;
  try {
    await deps.api.call('logout', { rem: deps.getRememberToken() ?? undefined });
  } catch {
    // the old token may already be dead; nothing to do
  }
  deps.clearSession();
}

export async function runLogin<S>(input: LoginInput, deps: LoginDeps<S>): Promise<LoginOutcome> {
  await logoutOldSession(deps);
  // spec §4 step 2: clear the node cookie, verify; a 261 retries once on the other default node
  deps.nodes?.clear();
  const verify = () => deps.api.login(input.usr, input.pwd, { isRem: input.remember });
  const dat = await (deps.nodes ? withNodeRetry(verify, deps.nodes) : verify());
  deps.saveLogin(dat, { remember: input.remember });

  // Post-login check: err 0 means the account is being logged off; err 12 (no record) is the
  // normal answer. Any other failure of this advisory check does not block the sign-in.
  let loggingOff = false;
  try {
    await deps.api.call('logoutVerifiction', {});
    loggingOff = true;
  } catch {
    loggingOff = false;
  }
  if (loggingOff) {
    await logoutOldSession(deps);
    deps.clearSession();
    return { kind: 'loggingOff' };
  }

  if (dat.role === ROLE.DISTRIBUTOR) {
    try {
      const info = await deps.api.call('queryAccountInfo', {});
      deps.setPermissions(permissionLists(info.permission ?? []));
    } catch (e) {
      // without its permissions a sub-administrator cannot be routed; sign out and report
      deps.clearSession();
      throw e;
    }
  }

  const target = safeRedirect(input.redirect);
  if (target) return { kind: 'redirect', to: target };
  const session = deps.getSession();
  return { kind: 'redirect', to: session ? deps.homePathFor(session) : '/home' };
}

/** What to show for a failed login: the server's message, else the catalogue's (spec §8). */
export interface LoginErrorView {
  code: number;
  /** The server's localised message, when it sent one. */
  text?: string;
  /** Key in the `errors` namespace, used when there is no server text. */
  key: string;
}

export function loginErrorView(error: unknown): LoginErrorView {
  if (error instanceof ApiCallError) {
    // a network failure arrives as code 3 without a server message (spec §8 "Handling")
    return { code: error.err, key: errorMessageKey(error.err), ...(error.msg ? { text: error.msg } : {}) };
  }
  return { code: 3, key: errorMessageKey(3) };
}
