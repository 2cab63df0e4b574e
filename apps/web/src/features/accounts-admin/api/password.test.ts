import { describe, expect, it } from 'vitest';
import { encodeSubAccountPassword, rc4DecryptHex, sha1Hex } from '@sunwatch/protocol';

describe('account passwords on the wire', () => {
  it('encrypts sub-account passwords with the session secret (pwd: RC4 of sha1, pwdtext: RC4 of the password)', () => {
    const { pwd, pwdtext } = encodeSubAccountPassword('the-secret', 'Good_pass1');
    expect(pwd).toMatch(/^[0-9a-f]{80}$/);
    expect(rc4DecryptHex('the-secret', pwd)).toBe(sha1Hex('Good_pass1'));
    expect(rc4DecryptHex('the-secret', pwdtext)).toBe('Good_pass1');
  });
});
