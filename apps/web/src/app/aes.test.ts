import { describe, expect, it } from 'vitest';
import { decryptValue, encryptBlock, encryptValue, expandKey } from './aes';

const hex = (s: string) => new Uint8Array(s.match(/../g)!.map((h) => parseInt(h, 16)));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('cookie AES', () => {
  it('matches the FIPS-197 AES-128 test vector', () => {
    const rk = expandKey(hex('000102030405060708090a0b0c0d0e0f'));
    expect(toHex(encryptBlock(rk, hex('00112233445566778899aabbccddeeff')))).toBe('69c4e0d86a7b0430d8cdb78070b4c55a');
  });
  it('round-trips values and rejects foreign ones', () => {
    const c = encryptValue('tok-ß-令牌');
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decryptValue(c)).toBe('tok-ß-令牌');
    expect(encryptValue('x')).not.toBe(encryptValue('x'));
    expect(decryptValue('plain')).toBeUndefined();
    expect(decryptValue('')).toBeUndefined();
  });
});
