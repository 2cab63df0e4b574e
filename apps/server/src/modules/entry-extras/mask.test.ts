import { describe, expect, it } from 'vitest';
import { maskAccount, maskEmail, maskPhone } from './mask.js';

describe('account lookup masking', () => {
  it('keeps the first and last character of the account', () => {
    expect(maskAccount('owner_anna')).toBe('o***a');
    expect(maskAccount('ab')).toBe('a*');
    expect(maskAccount('')).toBe('');
  });
  it('keeps 3 + 4 digits of a phone, first and last of a short one', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('123456')).toBe('1***6');
    expect(maskPhone(' ')).toBe('');
  });
  it('keeps the first character and the domain of an e-mail', () => {
    expect(maskEmail('dora.owner@example.com')).toBe('d***@example.com');
    expect(maskEmail('')).toBe('');
    expect(maskEmail('x@y.io')).toBe('x***@y.io');
  });
});
