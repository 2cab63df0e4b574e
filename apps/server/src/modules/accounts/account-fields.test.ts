import { ApiError } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { checkDealerCodes, checkProfile, checkUsername } from './account-fields.js';

const code = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return undefined;
};

describe('account fields', () => {
  it('usernames: 2–32 of Chinese, letters, digits, underscore (21)', () => {
    expect(checkUsername('张三')).toBe('张三');
    expect(checkUsername(' owner_1 ')).toBe('owner_1');
    for (const bad of ['a', 'x'.repeat(33), 'a-b', 'a b', '']) expect(code(() => checkUsername(bad)), bad).toBe(21);
  });

  it('profile: omitted stays out of the patch, empty clears, bad values get their codes', () => {
    expect(checkProfile({ qname: '', desc: 'note', mobile: undefined })).toEqual({ qname: '', description: 'note' });
    expect(checkProfile({ email: ' a@b.co ' })).toEqual({ email: 'a@b.co' });
    expect(code(() => checkProfile({ email: 'a@b' }))).toBe(20);
    expect(code(() => checkProfile({ email: `${'a'.repeat(60)}@b.com` }))).toBe(20);
    expect(code(() => checkProfile({ mobile: '12345' }))).toBe(19);
    expect(code(() => checkProfile({ mobile: '1'.repeat(33) }))).toBe(19);
    expect(code(() => checkProfile({ cname: 'x'.repeat(65) }))).toBe(22);
    expect(code(() => checkProfile({ cname: '<b>Acme</b>' }))).toBe(22);
    expect(code(() => checkProfile({ qname: 'x' }))).toBe(6);
    expect(code(() => checkProfile({ photo: 'javascript:alert(1)' }))).toBe(6);
  });

  it('dealer codes: each 2–3 letters or digits, distinct, upper-cased (23)', () => {
    expect(checkDealerCodes('00, ab ,X1Y')).toBe('00,AB,X1Y');
    for (const bad of ['', 'A', 'ABCD', 'A,A', 'a-b', '00,']) expect(code(() => checkDealerCodes(bad)), bad).toBe(23);
  });
});
