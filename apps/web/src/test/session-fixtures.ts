import type { AuthDat, PermissionEntry } from '@sunwatch/protocol';
import { permissionEntries } from '@sunwatch/protocol';
import { clearSession, setNewEdition } from '../app/session';

/** Forgets every trace of a session: state, storage and all cookies. */
export function resetBrowserState(): void {
  clearSession();
  sessionStorage.clear();
  localStorage.clear();
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
  setNewEdition(true);
}

export function authDat(over: Partial<AuthDat> = {}): AuthDat {
  return {
    secret: 'sec-1',
    token: 'tok-1',
    role: 0,
    uid: 7,
    usr: 'owner_anna',
    pprAuth: 'ppr',
    expire: 604800,
    ...over,
  };
}

export function permissionsOf(...granted: string[]): PermissionEntry[] {
  return permissionEntries(new Set(granted));
}
