/**
 * The browser session of spec §3: secret, token, role, pprAuth, edition and, for role 2,
 * the four permission lists. Kept in module state, mirrored to sessionStorage (survives
 * reloads of the tab) and to AES-encrypted cookies (survive a new tab while the login
 * flag cookie exists). Remember-me keeps only the server's revocable token (`swRem`),
 * never a password (architecture §4).
 */
import {
  COOKIE_LIFETIME_SECONDS,
  REMEMBER_EXPIRE_SECONDS,
  areaForRole,
  isRole,
  subAdminLandingPath,
  type AuthDat,
  type PermissionLists,
  type Role,
} from '@sunwatch/protocol';
import { decryptValue, encryptValue } from './aes';
import { getCookie, removeCookie, setCookie } from './cookies';

export interface Session {
  secret: string;
  token: string;
  role: Role;
  pprAuth: string;
  usr: string;
  uid: number;
  isNewEdition: boolean;
  /** Role 2 only: the checked permission names (spec §3), once loaded. */
  permissions?: PermissionLists;
}

/** Cookie names. The four spec §3 values plus usr/uid are stored encrypted. */
export const COOKIE = {
  secret: 'secret',
  token: 'token',
  role: 'role',
  pprAuth: 'pprAuth',
  usr: 'usr',
  uid: 'uid',
  /** Login flag: encrypted cookies are only trusted while it exists (spec §2 guard step 3). */
  loginFlag: 'swLogin',
  /** Edition flag: '1' new, '0' old. */
  edition: 'swNew',
  /** Remember-me token (`dat.rem`), 7 days. */
  remember: 'swRem',
} as const;

const ENCRYPTED = ['secret', 'token', 'role', 'pprAuth', 'usr', 'uid'] as const;
export const SESSION_STORAGE_KEY = 'sw.session';

let current: Session | undefined;
let edition: boolean | undefined;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** For useSyncExternalStore. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSession(): Session | undefined {
  return current;
}

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

function writeSessionStorage(s: Session | undefined): void {
  const st = storage();
  if (!st) return;
  if (s) st.setItem(SESSION_STORAGE_KEY, JSON.stringify(s));
  else st.removeItem(SESSION_STORAGE_KEY);
}

function writeCookies(s: Session, lifetimeSeconds: number): void {
  for (const k of ENCRYPTED) setCookie(COOKIE[k], encryptValue(String(s[k])), lifetimeSeconds);
  setCookie(COOKIE.loginFlag, '1', lifetimeSeconds);
}

function setCurrent(s: Session | undefined): void {
  current = s;
  emit();
}

/** Stores a successful login (auth/authSource/authByRememberToken `dat`). */
export function saveLogin(dat: AuthDat, opts: { remember: boolean }): void {
  const s: Session = {
    secret: dat.secret,
    token: dat.token,
    role: dat.role,
    pprAuth: dat.pprAuth ?? '',
    usr: dat.usr ?? '',
    uid: dat.uid ?? 0,
    isNewEdition: isNewEdition(),
  };
  const lifetime = dat.expire && dat.expire > 0 ? dat.expire : COOKIE_LIFETIME_SECONDS;
  writeCookies(s, lifetime);
  writeSessionStorage(s);
  if (opts.remember && dat.rem) setCookie(COOKIE.remember, dat.rem, REMEMBER_EXPIRE_SECONDS);
  else if (!opts.remember) removeCookie(COOKIE.remember);
  setCurrent(s);
}

/** Logout / err 10: forgets token, secret, role, permission data and every session cookie. */
export function clearSession(): void {
  for (const k of ENCRYPTED) removeCookie(COOKIE[k]);
  removeCookie(COOKIE.loginFlag);
  removeCookie(COOKIE.remember);
  writeSessionStorage(undefined);
  setCurrent(undefined);
}

export function getRememberToken(): string | undefined {
  const v = getCookie(COOKIE.remember);
  return v && /^[0-9a-f]{64}$/.test(v) ? v : undefined;
}

/** Role 2: keeps the permission lists derived from queryAccountInfo's permission[]. */
export function setPermissions(lists: PermissionLists): void {
  if (!current) return;
  const s = { ...current, permissions: lists };
  writeSessionStorage(s);
  setCurrent(s);
}

/** Edition flag: state first, else the cookie; new edition when never chosen. */
export function isNewEdition(): boolean {
  if (edition !== undefined) return edition;
  const c = getCookie(COOKIE.edition);
  return c === undefined ? true : c === '1';
}

export function setNewEdition(flag: boolean): void {
  const changed = edition !== flag || getCookie(COOKIE.edition) !== (flag ? '1' : '0');
  edition = flag;
  if (changed) setCookie(COOKIE.edition, flag ? '1' : '0', COOKIE_LIFETIME_SECONDS);
  if (current && current.isNewEdition !== flag) {
    const s = { ...current, isNewEdition: flag };
    writeSessionStorage(s);
    setCurrent(s);
  }
}

/** The role's area home (spec §2); role 2 on the new edition lands by module permission. */
export function homePathFor(session: Pick<Session, 'role' | 'isNewEdition' | 'permissions'>): string {
  const area = areaForRole(session.role);
  if (area === 'operator') return '/adminNewStatr/home';
  if (area === 'general') return session.isNewEdition ? '/generalNew/home' : '/general/home';
  const base = session.isNewEdition ? '/adminNew' : '/admin';
  if (session.role === 2 && session.permissions) {
    // Spec §2 names the new edition; the classic edition follows the same order on its pages.
    const landing = subAdminLandingPath(session.permissions.modules);
    return landing === '/home' ? `${base}/home` : landing.replace(/^\/adminNew\//, `${base}/`);
  }
  return `${base}/home`;
}

function parseRole(v: string | null | undefined): Role | undefined {
  if (v === null || v === undefined || v === '' || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return isRole(n) ? n : undefined;
}

/** Guard step 1: secret, token and role in the query become a logged-in session. */
export function restoreFromQuery(query: URLSearchParams): Session | undefined {
  const secret = query.get('secret');
  const token = query.get('token');
  const role = parseRole(query.get('role'));
  if (!secret || !token || role === undefined) return undefined;
  const s: Session = {
    secret,
    token,
    role,
    pprAuth: query.get('pprAuth') ?? '',
    usr: query.get('usr') ?? '',
    uid: Number(query.get('uid') ?? 0) || 0,
    isNewEdition: isNewEdition(),
  };
  writeCookies(s, COOKIE_LIFETIME_SECONDS);
  writeSessionStorage(s);
  setCurrent(s);
  return s;
}

/** Guard step 2. */
export function restoreFromSessionStorage(): Session | undefined {
  const raw = storage()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<Session>;
    const role = parseRole(String(v.role));
    if (!v.secret || !v.token || role === undefined) return undefined;
    const s: Session = {
      secret: v.secret,
      token: v.token,
      role,
      pprAuth: v.pprAuth ?? '',
      usr: v.usr ?? '',
      uid: v.uid ?? 0,
      isNewEdition: isNewEdition(),
      ...(v.permissions ? { permissions: v.permissions } : {}),
    };
    setCurrent(s);
    return s;
  } catch {
    return undefined;
  }
}

/** Guard step 3: the encrypted cookies, only while the login flag cookie exists. */
export function restoreFromCookies(): Session | undefined {
  if (getCookie(COOKIE.loginFlag) !== '1') return undefined;
  const read = (k: (typeof ENCRYPTED)[number]) => {
    const c = getCookie(COOKIE[k]);
    return c === undefined ? undefined : decryptValue(c);
  };
  const secret = read('secret');
  const token = read('token');
  const role = parseRole(read('role'));
  if (!secret || !token || role === undefined) return undefined;
  const s: Session = {
    secret,
    token,
    role,
    pprAuth: read('pprAuth') ?? '',
    usr: read('usr') ?? '',
    uid: Number(read('uid') ?? 0) || 0,
    isNewEdition: isNewEdition(),
  };
  writeSessionStorage(s);
  setCurrent(s);
  return s;
}

/** Keeps the display name once queryAccountInfo tells it (query logins carry none). */
export function setAccountName(usr: string, uid: number): void {
  if (!current || (current.usr === usr && current.uid === uid)) return;
  const s = { ...current, usr, uid };
  writeSessionStorage(s);
  setCurrent(s);
}
