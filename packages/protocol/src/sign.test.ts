import { describe, expect, it } from 'vitest';
import {
  encodeSubAccountPassword,
  fallbackTail,
  rawPairs,
  rawTail,
  rc4,
  rc4DecryptHex,
  rc4EncryptHex,
  sha1Hex,
  signCall,
  signLogin,
} from './sign.js';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('sha1', () => {
  it('standard vectors', () => {
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });
  it('hashes UTF-8 bytes', () => {
    expect(sha1Hex('密码')).toBe('c839a8ff17885af0b098662ccc3ac5e3111b3b3b');
  });
});

describe('login sign (wire-protocol.md §2)', () => {
  it('vendor vector: vplant / vplant / 0123456789ABCDEF / 1491967716993', () => {
    const pwdSha1 = sha1Hex('vplant');
    expect(pwdSha1).toBe('bd19f193c5f9afed25a79761ea2a13a10d6e2c74');
    const tail = '&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    expect(signLogin('1491967716993', pwdSha1, tail)).toBe('675bd5418fce7be5e30b920a16a46ce075c90a35');
  });
  it('synthetic authSource vector', () => {
    const tail = '&action=authSource&usr=demo-user&source=1&company-key=test-company';
    expect(signLogin('1700000000000', sha1Hex('demo-pass'), tail)).toBe('fa0a8ebc67c5fe46ca698620e7d0f9774044cf1e');
  });
  it('the vendor vector verifies from the raw URL', () => {
    const raw =
      'sign=675bd5418fce7be5e30b920a16a46ce075c90a35&salt=1491967716993&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    expect(signLogin('1491967716993', sha1Hex('vplant'), rawTail(raw)!)).toBe('675bd5418fce7be5e30b920a16a46ce075c90a35');
  });
});

describe('call sign (wire-protocol.md §3)', () => {
  it('synthetic vector', () => {
    expect(signCall('1700000000000', 'sec-67890', 'tok-12345', '&action=webQueryDeviceEs&source=1')).toBe(
      'ea192db30883a81a3afa4d62ce06128cff168f06',
    );
  });
  it('is sha1(salt + secret + token + tail)', () => {
    expect(signCall('1', 'b', 'c', '&action=x')).toBe(sha1Hex('1bc&action=x'));
  });
});

describe('rawTail / fallbackTail (wire-protocol.md §4)', () => {
  const salt = '1700000000000';
  const secret = 'sec-67890';
  const token = 'tok-12345';

  /**
   * The same call as six clients put it on the wire. Values: a date with a space and colons,
   * an email with + and @, and a list with a comma.
   */
  const encodings: Record<string, string> = {
    none: '&action=webQueryDeviceEs&date=2024-01-01 10:00:00&mail=a+b@c.com&ids=1,2&source=1',
    percent20: '&action=webQueryDeviceEs&date=2024-01-01%2010:00:00&mail=a+b@c.com&ids=1,2&source=1',
    plus: '&action=webQueryDeviceEs&date=2024-01-01+10:00:00&mail=a%2Bb@c.com&ids=1,2&source=1',
    qsUnescaped: '&action=webQueryDeviceEs&date=2024-01-01 10:00:00&mail=a+b@c.com&ids=1,2&source=1&q=(x=$1%26y)',
    quotePlus: '&action=webQueryDeviceEs&date=2024-01-01+10%3A00%3A00&mail=a%2Bb%40c.com&ids=1%2C2&source=1',
    httpBuildQuery: '&action=webQueryDeviceEs&source=1&date=2024-01-01+10%3A00%3A00&mail=a%2Bb%40c.com&ids=1%2C2',
  };

  for (const [name, tail] of Object.entries(encodings)) {
    it(`accepts the ${name} encoding byte for byte`, () => {
      const sign = signCall(salt, secret, token, tail);
      const raw = `sign=${sign}&salt=${salt}&token=${token}${tail}`;
      expect(rawTail(raw)).toBe(tail);
      expect(rawTail('?' + raw)).toBe(tail);
      expect(signCall(salt, secret, token, rawTail(raw)!)).toBe(sign);
      // the same bytes without sign/salt/token also give the tail through the fallback
      expect(fallbackTail(raw)).toBe(tail);
    });
    it(`rejects the ${name} encoding when a byte changes`, () => {
      const sign = signCall(salt, secret, token, tail);
      const tampered = tail.replace('source=1', 'source=2');
      const raw = `sign=${sign}&salt=${salt}&token=${token}${tampered}`;
      expect(signCall(salt, secret, token, rawTail(raw)!)).not.toBe(sign);
      expect(signCall(salt, secret, token, fallbackTail(raw))).not.toBe(sign);
    });
  }

  it('signs only from the action pair on: device params earlier in the URL', () => {
    const raw = 'pn=W0000000000001&devcode=2304&devaddr=1&sn=SN1&sign=S&salt=1&token=T&action=queryDeviceParsEs&source=1';
    expect(rawTail(raw)).toBe('&action=queryDeviceParsEs&source=1');
  });

  it('action first in the string, sign/salt/token after it: fallback drops them in order', () => {
    const raw = 'action=webQueryDeviceEs&sign=S&source=1&salt=1&token=T&i18n=en_US';
    expect(rawTail(raw)).toBe('&action=webQueryDeviceEs&sign=S&source=1&salt=1&token=T&i18n=en_US');
    expect(fallbackTail(raw)).toBe('&action=webQueryDeviceEs&source=1&i18n=en_US');
  });

  it('finds the first action pair only at a pair boundary', () => {
    expect(rawTail('transaction=5&action=x&y=1')).toBe('&action=x&y=1');
    expect(rawTail('xaction=5&yaction=6')).toBeUndefined();
    expect(rawTail('sign=1&salt=2')).toBeUndefined();
    expect(rawTail('')).toBeUndefined();
    expect(rawTail('action=a&action=b')).toBe('&action=a&action=b');
  });

  it('rawPairs keeps values undecoded and tolerates odd pairs', () => {
    expect(rawPairs('?a=1&b=%20x&c&&d=e=f')).toEqual([
      ['a', '1'],
      ['b', '%20x'],
      ['c', ''],
      ['d', 'e=f'],
    ]);
    expect(rawPairs('')).toEqual([]);
  });

  it('login fallback short form', () => {
    const raw = 'usr=vplant&sign=x&action=auth&salt=1491967716993&company-key=0123456789ABCDEF';
    expect(fallbackTail(raw)).toBe('&usr=vplant&action=auth&company-key=0123456789ABCDEF');
  });
});

describe('rc4', () => {
  it('known vectors', () => {
    expect(hex(rc4(utf8('Key'), utf8('Plaintext')))).toBe('bbf316e8d940af0ad3');
    expect(hex(rc4(utf8('Wiki'), utf8('pedia')))).toBe('1021bf0420');
    expect(hex(rc4(utf8('Secret'), utf8('Attack at dawn')))).toBe('45a01f645fc35b383552544b9bf5');
    expect(rc4EncryptHex('Key', 'Plaintext')).toBe('bbf316e8d940af0ad3');
  });
  it('round trip', () => {
    const data = utf8('some bytes \u0000\u00ff');
    expect(Array.from(rc4(utf8('k'), rc4(utf8('k'), data)))).toEqual(Array.from(data));
    const oldSha = sha1Hex('old_pass1');
    const newSha = sha1Hex('new_pass2');
    const wire = rc4EncryptHex(oldSha, newSha);
    expect(wire).toMatch(/^[0-9a-f]{80}$/);
    expect(rc4DecryptHex(oldSha, wire)).toBe(newSha);
    expect(rc4DecryptHex(sha1Hex('other'), wire)).not.toBe(newSha);
    expect(rc4DecryptHex(oldSha, wire.toUpperCase())).toBe(newSha);
  });
  it('rejects bad hex', () => {
    expect(rc4DecryptHex('k', 'abc')).toBeUndefined();
    expect(rc4DecryptHex('k', 'zz')).toBeUndefined();
    expect(rc4DecryptHex('k', '')).toBe('');
  });
});

describe('encodeSubAccountPassword (vendor-actions.md §4)', () => {
  it('sends RC4(secret, sha1(pwd)) and RC4(secret, pwd), both reversible only with the secret', () => {
    const secret = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const { pwd, pwdtext } = encodeSubAccountPassword(secret, 'Viewer_2026');
    expect(pwd).toMatch(/^[0-9a-f]{80}$/);
    expect(rc4DecryptHex(secret, pwd)).toBe(sha1Hex('Viewer_2026'));
    expect(rc4DecryptHex(secret, pwdtext)).toBe('Viewer_2026');
    expect(rc4DecryptHex('another-secret', pwd)).not.toBe(sha1Hex('Viewer_2026'));
  });
});
