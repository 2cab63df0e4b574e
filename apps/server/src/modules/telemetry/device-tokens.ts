import crypto from 'node:crypto';

/** A fresh device token: 32 random bytes, base64url (43 chars). Shown once, stored hashed. */
export function newDeviceToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a device token, as stored in `dataloggers.device_token_hash`. */
export function hashDeviceToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(token: string | undefined | null, storedHash: string | null | undefined): boolean {
  if (!token || !storedHash || storedHash.length !== 64) return false;
  const a = Buffer.from(hashDeviceToken(token), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
