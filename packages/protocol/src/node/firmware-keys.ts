import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Ed25519 firmware signing (issue 13; docs/firmware/contract.md "Signed images"): a manufacturer
 * signs the 32 raw bytes of an image's SHA-256 with a private key it keeps; the platform stores
 * only public keys and the signature; a datalogger trusts the public keys provisioned at the
 * factory and refuses to flash an image whose signature does not verify.
 *
 * Node only (node:crypto): import it as `@sunwatch/protocol/node/firmware-keys.ts`, never from the
 * package index, which the web app bundles.
 *
 * DEMO ONLY: the demo manufacturer's key pair is derived from a fixed, published seed so the demo
 * data can ship signed images and the simulated fleet can trust them. A real manufacturer's
 * private key never reaches the platform.
 */
export const DEMO_FIRMWARE_SIGNING_SEED = '5375e77a7c4f6d2e9b1a0c3d8f7e6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e0f';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER prefix of an Ed25519 public key; the 32 raw bytes follow it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The private key of a 32-byte seed (hex). */
export function signingKeyFromSeed(seedHex: string): KeyObject {
  const seed = Buffer.from(seedHex, 'hex');
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The raw 32-byte public key, base64 (the form the platform stores). */
export function rawPublicKeyBase64(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ format: 'der', type: 'spki' });
  return Buffer.from(der.subarray(der.length - 32)).toString('base64');
}

/** A public key object from its raw 32 bytes (base64); undefined when malformed. */
export function publicKeyFromRaw(rawBase64: string): KeyObject | undefined {
  const raw = Buffer.from(rawBase64, 'base64');
  if (raw.length !== 32) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

/** First 16 hex digits of SHA-256(raw public key): how keys are named. */
export function keyFingerprint(rawBase64: string): string {
  return createHash('sha256').update(Buffer.from(rawBase64, 'base64')).digest('hex').slice(0, 16);
}

/** Signs an image's SHA-256 (64 hex digits): the signature, base64. */
export function signFirmwareDigest(privateKey: KeyObject, sha256Hex: string): string {
  return sign(null, Buffer.from(sha256Hex, 'hex'), privateKey).toString('base64');
}

/** Whether `signatureBase64` is a valid signature of `sha256Hex` by the raw public key. Never throws. */
export function verifyFirmwareDigest(rawPublicKeyB64: string, sha256Hex: string, signatureBase64: string): boolean {
  const key = publicKeyFromRaw(rawPublicKeyB64);
  if (!key || !/^[0-9a-f]{64}$/.test(sha256Hex)) return false;
  const sig = Buffer.from(signatureBase64, 'base64');
  if (sig.length !== 64) return false;
  try {
    return verify(null, Buffer.from(sha256Hex, 'hex'), key, sig);
  } catch {
    return false;
  }
}

/** The demo manufacturer's key pair (DEMO ONLY, see above). */
export function demoFirmwareSigningKey(): { privateKey: KeyObject; publicKey: string; fingerprint: string } {
  const privateKey = signingKeyFromSeed(DEMO_FIRMWARE_SIGNING_SEED);
  const publicKey = rawPublicKeyBase64(privateKey);
  return { privateKey, publicKey, fingerprint: keyFingerprint(publicKey) };
}
