import { sha1Hex, signCall, signLogin } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { nativeSha1Hex, qsUnescape, signTails, verifySign } from './sign-verify.js';
import { parseRaw } from './params.js';

describe('sign verification on raw bytes', () => {
  it('checks the vendor test vector', () => {
    const raw = 'sign=675bd5418fce7be5e30b920a16a46ce075c90a35&salt=1491967716993&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    expect(verifySign('675bd5418fce7be5e30b920a16a46ce075c90a35', '1491967716993' + sha1Hex('vplant'), raw, true)).toBe(true);
    expect(verifySign('675BD5418FCE7BE5E30B920A16A46CE075C90A35', '1491967716993' + sha1Hex('vplant'), raw, true)).toBe(true);
  });

  it('checks the synthetic signed-call vector', () => {
    const tail = '&action=webQueryDeviceEs&source=1';
    const sign = signCall('1700000000000', 'sec-67890', 'tok-12345', tail);
    expect(sign).toBe('ea192db30883a81a3afa4d62ce06128cff168f06');
    const raw = `sign=${sign}&salt=1700000000000&token=tok-12345&pn=X&devcode=1${tail}`;
    expect(verifySign(sign, '1700000000000sec-67890tok-12345', raw, false)).toBe(true);
  });

  it('takes the tail from the first action= pair, not from a value containing it', () => {
    expect(signTails('note=xaction=1&action=a&b=c', false)[0]).toBe('&action=a&b=c');
    expect(signTails('action=a&b=c', false)[0]).toBe('&action=a&b=c');
  });

  it('offers the fallback (pairs without sign/salt/token) and the login short form', () => {
    const tails = signTails('action=auth&sign=S&usr=u%20v&salt=1&company-key=K&source=1', true);
    expect(tails).toContain('&action=auth&usr=u%20v&company-key=K&source=1');
    expect(tails).toContain('&action=auth&usr=u%20v&company-key=K');
    expect(tails).toContain('&action=auth&usr=u v&company-key=K');
  });

  it('never accepts a re-encoded value', () => {
    const signed = '&action=x&v=a%20b';
    const sign = signLogin('1', 'p', signed);
    expect(verifySign(sign, '1p', 'sign=S&salt=1&action=x&v=a+b', false)).toBe(false);
    expect(verifySign(sign, '1p', 'sign=S&salt=1&action=x&v=a%2520b', false)).toBe(false);
    expect(verifySign(sign, '1p', 'sign=S&salt=1&action=x&v=a%20b', false)).toBe(true);
  });

  it('rejects signs that are not 40 hex characters', () => {
    expect(verifySign('', '1p', 'action=x', false)).toBe(false);
    expect(verifySign('z'.repeat(40), '1p', 'action=x', false)).toBe(false);
  });

  it('undoes exactly the qs escapes of the vendor SDK', () => {
    expect(qsUnescape('a%20b%2bc%3A%2C%40%24%26%3D%28%29%7E')).toBe('a b+c:,@$&=()%7E');
  });

  it('decodes parameters once, + as space, malformed escapes kept', () => {
    expect(parseRaw('usr=a+b%20c&x=%E0%A4%A&usr=second&k%2Dy=1')).toEqual({ usr: 'a b c', x: '%E0%A4%A', 'k-y': '1' });
  });
});

describe('nativeSha1Hex', () => {
  it('equals the protocol sha1Hex (the web app’s) for ASCII, UTF-8 and empty text', () => {
    for (const text of ['', 'abc', '1700000000000secrettoken&action=queryAccountInfo&source=1', 'Grüße 日本 ✓']) {
      expect(nativeSha1Hex(text)).toBe(sha1Hex(text));
    }
    expect(nativeSha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });
});
