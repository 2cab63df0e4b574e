import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoFirmwareSigningKey, keyFingerprint, rawPublicKeyBase64, signFirmwareDigest, verifyFirmwareDigest } from './firmware-keys.js';

describe('firmware signing keys', () => {
  const digest = createHash('sha256').update('image bytes').digest('hex');

  it('a signature by the demo key verifies with its raw public key, and only for that digest', () => {
    const k = demoFirmwareSigningKey();
    expect(Buffer.from(k.publicKey, 'base64')).toHaveLength(32);
    expect(k.fingerprint).toBe(keyFingerprint(k.publicKey));
    expect(k.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const sig = signFirmwareDigest(k.privateKey, digest);
    expect(verifyFirmwareDigest(k.publicKey, digest, sig)).toBe(true);
    const other = createHash('sha256').update('other bytes').digest('hex');
    expect(verifyFirmwareDigest(k.publicKey, other, sig)).toBe(false);
  });

  it('another key, a malformed key or signature never verifies (and never throws)', () => {
    const k = demoFirmwareSigningKey();
    const sig = signFirmwareDigest(k.privateKey, digest);
    const stranger = rawPublicKeyBase64(generateKeyPairSync('ed25519').privateKey);
    expect(verifyFirmwareDigest(stranger, digest, sig)).toBe(false);
    expect(verifyFirmwareDigest('AAAA', digest, sig)).toBe(false);
    expect(verifyFirmwareDigest(k.publicKey, digest, 'bm90IGEgc2lnbmF0dXJl')).toBe(false);
    expect(verifyFirmwareDigest(k.publicKey, 'zz', sig)).toBe(false);
  });

  it('the demo key is stable (the seed is fixed)', () => {
    expect(demoFirmwareSigningKey().publicKey).toBe(demoFirmwareSigningKey().publicKey);
  });
});
