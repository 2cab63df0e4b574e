import { describe, expect, it } from 'vitest';
import { encodeSubAccountPassword, rc4DecryptHex, sha1Hex, signCall } from '@sunwatch/protocol';
import { encodeKeepingEmpty, signedQuery } from './call';

describe('account calls', () => {
  it('sends empty values (ungrouped, cleared fields) and leaves out undefined ones', () => {
    expect(encodeKeepingEmpty({ uid: '4,5', groupid: '', note: undefined, enable: false })).toBe(
      '&uid=4%2C5&groupid=&enable=false',
    );
  });

  it('signs the query exactly as the protocol does', () => {
    const q = signedQuery(
      'moveAccountGroup',
      { uid: '4', groupid: '' },
      { secret: 'sec', token: 'tok' },
      '1700000000000',
      'en_US',
    );
    const tail = '&action=moveAccountGroup&source=1&uid=4&groupid=&i18n=en_US';
    expect(q).toBe(`sign=${signCall('1700000000000', 'sec', 'tok', tail)}&salt=1700000000000&token=tok${tail}`);
  });

  it('encrypts sub-account passwords with the session secret (pwd: RC4 of sha1, pwdtext: RC4 of the password)', () => {
    const { pwd, pwdtext } = encodeSubAccountPassword('the-secret', 'Good_pass1');
    expect(pwd).toMatch(/^[0-9a-f]{80}$/);
    expect(rc4DecryptHex('the-secret', pwd)).toBe(sha1Hex('Good_pass1'));
    expect(rc4DecryptHex('the-secret', pwdtext)).toBe('Good_pass1');
  });
});
