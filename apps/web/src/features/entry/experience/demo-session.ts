/**
 * Which session is a read-only demo session (experience code, issue 12). The server refuses every
 * write of such a session (err 11); the web only needs to know it to say so (layouts/DemoBanner).
 * The mark is the SHA-1 of the demo session's token in a cookie living as long as the session, so it
 * holds across reloads and new tabs and never outlives the session it names: any other sign-in
 * has another token, and a stale mark names a token nobody holds.
 */
import { COOKIE_LIFETIME_SECONDS, sha1Hex } from '@sunwatch/protocol';
import { getCookie, removeCookie, setCookie } from '../../../app/cookies';

export const DEMO_COOKIE = 'swDemo';

/** Marks the session of `token` (lifetime as the login cookies: `expire`, else their default) as a demo session (before saving the login, so the first render knows). */
export function markDemoSession(token: string, lifetimeSeconds?: number): void {
  setCookie(DEMO_COOKIE, sha1Hex(token), lifetimeSeconds && lifetimeSeconds > 0 ? lifetimeSeconds : COOKIE_LIFETIME_SECONDS);
}

export function isDemoSession(token: string | undefined): boolean {
  if (!token) return false;
  return getCookie(DEMO_COOKIE) === sha1Hex(token);
}

export function clearDemoMark(): void {
  removeCookie(DEMO_COOKIE);
}
