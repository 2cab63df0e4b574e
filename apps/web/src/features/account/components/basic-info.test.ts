import { describe, expect, it } from 'vitest';
import { basicInfoErrorKey, basicInfoPatch } from './basic-info';

describe('basic info form', () => {
  const initial = { qname: 'Anna', cname: 'Elbblick', caddr: '', ctel: '' };
  it('sends only the changed fields, trimmed; a cleared field is sent empty', () => {
    expect(basicInfoPatch(initial, { ...initial })).toEqual({});
    expect(basicInfoPatch(initial, { ...initial, qname: ' Anna E. ', cname: '' })).toEqual({ qname: 'Anna E.', cname: '' });
  });
  it('names the error text of a field against the rules of spec §5', () => {
    expect(basicInfoErrorKey('qname', 'A')).toBe('personal:basic.errors.qname.length');
    expect(basicInfoErrorKey('ctel', 'abc')).toBe('personal:basic.errors.ctel.format');
    expect(basicInfoErrorKey('cname', 'x'.repeat(65))).toBe('personal:basic.errors.cname.length');
    expect(basicInfoErrorKey('caddr', 'Hafenstraße 3')).toBeUndefined();
  });
});
