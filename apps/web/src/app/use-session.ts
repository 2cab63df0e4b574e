import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type Session } from './session';

/** The current session, re-rendering on login, logout and permission changes. */
export function useSession(): Session | undefined {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
