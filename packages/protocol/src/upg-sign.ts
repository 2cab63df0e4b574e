import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The upgrade service's HTTP surface (spec §7 "Upgrade service", docs/firmware/library.md):
 * every request carries the headers `token` (the session token), `i18n` (the caller's language)
 * and `sign`:
 *
 *     sign = hex(HMAC-SHA256(key = session secret, message = METHOD + " " + pathAndQuery + "\n" + token + "\n" + bodySha256))
 *
 * `pathAndQuery` is the request target exactly as sent (e.g. `/upg/api/action/queryFirmwares?t=1764…&page=0`);
 * it must carry `t`, the epoch milliseconds of the request (within the salt window; a sign is
 * accepted once). `bodySha256` is the lower-case hex SHA-256 of a JSON body, '' for GET, DELETE
 * and multipart requests (a multipart upload's fields other than the file go in the query, so the
 * sign covers them; the image itself is checksummed and its Ed25519 signature verified).
 */
export const UPG_API_PREFIX = '/upg/api';
/** The multipart upload of spec §7. */
export const UPG_UPLOAD_PATH = '/upg/api/auth/web/shineDess/device/upgrade/uploadFirmware';
/** Generic calls: `<prefix>/<actionName>` (POST JSON, GET query, PUT JSON or query, DELETE query). */
export const UPG_ACTION_PREFIX = '/upg/api/action';
/** Blob download: `<prefix>/<firmware code>`. */
export const UPG_BLOB_PREFIX = '/upg/api/blob';

export function upgBodyHash(body: string): string {
  return body === '' ? '' : bytesToHex(sha256(utf8ToBytes(body)));
}

export function upgSign(secret: string, token: string, method: string, pathAndQuery: string, body = ''): string {
  const message = `${method.toUpperCase()} ${pathAndQuery}\n${token}\n${upgBodyHash(body)}`;
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));
}
