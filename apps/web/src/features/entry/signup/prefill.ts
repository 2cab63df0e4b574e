/**
 * A successful signup returns to the login face with the username and password prefilled
 * (spec §4). Held in memory only, taken once by the login form when it mounts.
 */
let pending: { usr: string; pwd: string } | undefined;

export function setLoginPrefill(v: { usr: string; pwd: string }): void {
  pending = v;
}

export function takeLoginPrefill(): { usr: string; pwd: string } | undefined {
  const v = pending;
  pending = undefined;
  return v;
}
