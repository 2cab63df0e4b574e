/**
 * Cookie-value encryption of spec §9 ("values AES-encrypted with a fixed key").
 *
 * Choice: a small self-contained AES-128 (FIPS-197) in CTR mode, synchronous, so that
 * `saveLogin` can write the cookies and the guard can read them without awaiting
 * WebCrypto (which is async-only and absent in some test environments). Each value gets
 * a fresh random 16-byte counter block; the output is base64url(iv ‖ ciphertext).
 * A plaintext prefix lets decryption reject values not written by us.
 *
 * This is obfuscation of the cookie jar, not a security boundary: the key ships with the
 * page. The server remains the only authority (tokens expire and can be revoked).
 */

const SBOX = new Uint8Array(256);
(() => {
  // Generate the S-box from GF(2^8) inverses (avoids a 256-entry literal).
  let p = 1;
  let q = 1;
  do {
    p = p ^ ((p << 1) & 0xff) ^ (p & 0x80 ? 0x1b : 0);
    q ^= q << 1;
    q ^= q << 2;
    q ^= q << 4;
    q &= 0xff;
    if (q & 0x80) q ^= 0x09;
    const x = q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4);
    SBOX[p] = (x ^ 0x63) & 0xff;
  } while (p !== 1);
  SBOX[0] = 0x63;
})();

function rotl8(x: number, s: number): number {
  return ((x << s) | (x >>> (8 - s))) & 0xff;
}

function xtime(b: number): number {
  return ((b << 1) ^ (b & 0x80 ? 0x1b : 0)) & 0xff;
}

/** AES-128 key expansion: 11 round keys of 16 bytes. */
export function expandKey(key: Uint8Array): Uint8Array {
  if (key.length !== 16) throw new Error('AES-128 needs a 16-byte key');
  const w = new Uint8Array(176);
  w.set(key);
  let rcon = 1;
  for (let i = 16; i < 176; i += 4) {
    let t0 = w[i - 4]!;
    let t1 = w[i - 3]!;
    let t2 = w[i - 2]!;
    let t3 = w[i - 1]!;
    if (i % 16 === 0) {
      const tmp = t0;
      t0 = SBOX[t1]! ^ rcon;
      t1 = SBOX[t2]!;
      t2 = SBOX[t3]!;
      t3 = SBOX[tmp]!;
      rcon = xtime(rcon);
    }
    w[i] = w[i - 16]! ^ t0;
    w[i + 1] = w[i - 15]! ^ t1;
    w[i + 2] = w[i - 14]! ^ t2;
    w[i + 3] = w[i - 13]! ^ t3;
  }
  return w;
}

/** Encrypts one 16-byte block with an expanded key. */
export function encryptBlock(roundKeys: Uint8Array, input: Uint8Array): Uint8Array {
  const s = new Uint8Array(16);
  for (let i = 0; i < 16; i++) s[i] = input[i]! ^ roundKeys[i]!;
  for (let round = 1; round <= 10; round++) {
    // SubBytes + ShiftRows
    const t = new Uint8Array(16);
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) t[c * 4 + r] = SBOX[s[((c + r) % 4) * 4 + r]!]!;
    }
    // MixColumns (not in the last round)
    if (round < 10) {
      for (let c = 0; c < 4; c++) {
        const a0 = t[c * 4]!;
        const a1 = t[c * 4 + 1]!;
        const a2 = t[c * 4 + 2]!;
        const a3 = t[c * 4 + 3]!;
        const all = a0 ^ a1 ^ a2 ^ a3;
        t[c * 4] = a0 ^ all ^ xtime(a0 ^ a1);
        t[c * 4 + 1] = a1 ^ all ^ xtime(a1 ^ a2);
        t[c * 4 + 2] = a2 ^ all ^ xtime(a2 ^ a3);
        t[c * 4 + 3] = a3 ^ all ^ xtime(a3 ^ a0);
      }
    }
    for (let i = 0; i < 16; i++) s[i] = t[i]! ^ roundKeys[round * 16 + i]!;
  }
  return s;
}

function ctr(roundKeys: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const counter = new Uint8Array(iv);
  for (let off = 0; off < data.length; off += 16) {
    const ks = encryptBlock(roundKeys, counter);
    for (let i = 0; i < 16 && off + i < data.length; i++) out[off + i] = data[off + i]! ^ ks[i]!;
    for (let i = 15; i >= 0; i--) {
      counter[i] = (counter[i]! + 1) & 0xff;
      if (counter[i] !== 0) break;
    }
  }
  return out;
}

/** The fixed cookie key of spec §9 (16 bytes). */
const COOKIE_KEY = new TextEncoder().encode('Sunwatch#Cookie!');
const ROUND_KEYS = expandKey(COOKIE_KEY);
const MAGIC = 'sw1:';

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  try {
    const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

function randomIv(): Uint8Array {
  const iv = new Uint8Array(16);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(iv);
  else for (let i = 0; i < 16; i++) iv[i] = Math.floor(Math.random() * 256);
  return iv;
}

/** Encrypts a cookie value; the result is cookie-safe (base64url). */
export function encryptValue(plain: string, iv: Uint8Array = randomIv()): string {
  const data = new TextEncoder().encode(MAGIC + plain);
  const body = ctr(ROUND_KEYS, iv, data);
  const out = new Uint8Array(16 + body.length);
  out.set(iv);
  out.set(body, 16);
  return toBase64Url(out);
}

/** Decrypts a value of encryptValue; undefined when it is not one. */
export function decryptValue(cipher: string): string | undefined {
  const bytes = fromBase64Url(cipher);
  if (!bytes || bytes.length < 16 + MAGIC.length) return undefined;
  const plain = ctr(ROUND_KEYS, bytes.slice(0, 16), bytes.slice(16));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    return undefined;
  }
  return text.startsWith(MAGIC) ? text.slice(MAGIC.length) : undefined;
}
