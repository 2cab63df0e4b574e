import { sha1 as nobleSha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Lower-case hex SHA-1 of the UTF-8 bytes of `text` (wire-protocol.md §2). */
export function sha1Hex(text: string): string {
  return bytesToHex(nobleSha1(utf8ToBytes(text)));
}

/** Login sign: sha1(salt + sha1(pwd) + tail). */
export function signLogin(salt: string, pwdSha1: string, tail: string): string {
  return sha1Hex(salt + pwdSha1 + tail);
}

/** Signed call: sha1(salt + secret + token + tail). */
export function signCall(salt: string, secret: string, token: string, tail: string): string {
  return sha1Hex(salt + secret + token + tail);
}

/**
 * The signed tail of a raw (undecoded) query string, wire-protocol.md §4 rule 2:
 * "&" + the raw query from the first `action=` pair (at the start or right after "&").
 * Returns undefined when there is no action pair.
 */
export function rawTail(rawQuery: string): string | undefined {
  const q = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (q.startsWith('action=')) return '&' + q;
  const i = q.indexOf('&action=');
  return i < 0 ? undefined : q.slice(i);
}

/** The pairs of a raw query string, in order, values left exactly as they were sent. */
export function rawPairs(rawQuery: string): Array<[string, string]> {
  const q = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (!q) return [];
  return q
    .split('&')
    .filter((p) => p.length > 0)
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    });
}

/** Rule 4 fallback: every pair except sign, salt and token, in original order, as `&k=v`. */
export function fallbackTail(rawQuery: string): string {
  return rawPairs(rawQuery)
    .filter(([k]) => k !== 'sign' && k !== 'salt' && k !== 'token')
    .map(([k, v]) => `&${k}=${v}`)
    .join('');
}

/** RC4 keystream XOR. Key and data are byte arrays. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    const t = s[i]!;
    s[i] = s[j]!;
    s[j] = t;
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/**
 * The password transport of the vendor API (vendor-actions.md §0): lower-case hex of
 * RC4(key = utf8(keyText), plaintext = utf8(plainText)). For updatePassword the key is
 * sha1(old password) and the plaintext sha1(new password), both as 40-char hex text.
 */
export function rc4EncryptHex(keyText: string, plainText: string): string {
  return bytesToHex(rc4(utf8ToBytes(keyText), utf8ToBytes(plainText)));
}

/** Inverse of rc4EncryptHex; returns undefined when `hex` is not valid hex. */
export function rc4DecryptHex(keyText: string, hex: string): string | undefined {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const plain = rc4(utf8ToBytes(keyText), bytes);
  let s = '';
  for (const b of plain) s += String.fromCharCode(b);
  return s;
}

/**
 * The parameters of updatePassword (docs/security/accounts-auth-logs.md): the vendor's `newpwd` =
 * hex RC4(key = sha1(old), sha1(new)) and `newpwdtext` = hex RC4(key = sha1(old), new password),
 * which lets the server apply the password rules of spec §5 to the new password itself.
 */
export function encodePasswordChange(oldPassword: string, newPassword: string): { newpwd: string; newpwdtext: string } {
  const key = sha1Hex(oldPassword);
  return { newpwd: rc4EncryptHex(key, sha1Hex(newPassword)), newpwdtext: rc4EncryptHex(key, newPassword) };
}

/**
 * The password of a sub-account the caller creates or edits (vendor-actions.md §4: addPlantBrowser,
 * addDist, addPlantOwner, …): `pwd` = hex RC4(key = the caller's login secret, sha1(password)) and
 * the Sunwatch `pwdtext` = hex RC4(same key, password), so the server can apply the spec §5 rules.
 */
export function encodeSubAccountPassword(secret: string, password: string): { pwd: string; pwdtext: string } {
  return { pwd: rc4EncryptHex(secret, sha1Hex(password)), pwdtext: rc4EncryptHex(secret, password) };
}
