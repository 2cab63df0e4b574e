import { ApiError, rc4EncryptHex, sha1Hex } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { subAccountPasswordOfCall, subAccountPasswordSha1 } from './sub-account-password.js';

const secret = '0123456789abcdef0123456789abcdef01234567';
const wire = (password: string, key = secret) => ({
  pwd: rc4EncryptHex(key, sha1Hex(password)),
  pwdtext: rc4EncryptHex(key, password),
});
const code = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return undefined;
};
const strict = { secret, allowDigestOnly: false };
const compat = { secret, allowDigestOnly: true };

describe('subAccountPasswordSha1', () => {
  it('returns the lower-case sha1 of a valid password sent as pwd + pwdtext', () => {
    expect(subAccountPasswordSha1(wire('Owner_2026'), strict)).toBe(sha1Hex('Owner_2026'));
  });

  it('answers 16 when pwd was not encrypted with the caller secret', () => {
    expect(code(() => subAccountPasswordSha1(wire('Owner_2026', 'another-secret'), strict))).toBe(16);
    expect(code(() => subAccountPasswordSha1({ pwd: 'zz' }, compat))).toBe(16);
  });

  it('answers 17 for passwords that break the spec §5 rules', () => {
    for (const bad of ['12345', 'a'.repeat(33), 'has space', 'dash-ed', '123456', '12345678']) {
      expect(code(() => subAccountPasswordSha1(wire(bad), strict)), bad).toBe(17);
    }
  });

  it('answers 17 when pwdtext does not match the digest', () => {
    const w = wire('Owner_2026');
    expect(code(() => subAccountPasswordSha1({ pwd: w.pwd, pwdtext: wire('Other_2026').pwdtext }, strict))).toBe(17);
  });

  it('refuses the digest-only form unless allowed, and then still refuses too-simple digests', () => {
    const { pwd } = wire('Owner_2026');
    expect(code(() => subAccountPasswordSha1({ pwd }, strict))).toBe(17);
    expect(subAccountPasswordSha1({ pwd }, compat)).toBe(sha1Hex('Owner_2026'));
    expect(code(() => subAccountPasswordSha1({ pwd: wire('123456').pwd }, compat))).toBe(17);
  });

  it('needs a session secret (signed calls only)', () => {
    expect(code(() => subAccountPasswordSha1(wire('Owner_2026'), { secret: undefined, allowDigestOnly: true }))).toBe(10);
  });

  it('reads the secret from the call and the switch from the config', () => {
    const { pwd } = wire('Owner_2026');
    expect(subAccountPasswordOfCall({ pwd }, { sessionSecret: secret }, { passwordChangeCompat: true })).toBe(
      sha1Hex('Owner_2026'),
    );
    expect(code(() => subAccountPasswordOfCall({ pwd }, { sessionSecret: secret }, { passwordChangeCompat: false }))).toBe(17);
  });
});
