import { describe, expect, it } from 'vitest';
import type { CompanyKeyRow } from '@sunwatch/protocol';
import { keyFormErrors, keyFormValuesOf, keyWireParams, maskedKey } from './model';

const row: CompanyKeyRow = {
  id: 7,
  company: 'Aurora',
  version: '1.0',
  client: 'ios',
  domain: 'aurora.example',
  contact: 'ops',
  keyHint: 'Mkn1',
  description: 'iOS app',
  enabled: false,
  hostname: 'app.aurora.example',
  seeded: false,
  createdAt: 0,
  updatedAt: 0,
  updatedBy: 'operator',
};

describe('KEYList form model', () => {
  it('a new entry needs every field and a 16-byte key', () => {
    const errs = keyFormErrors(keyFormValuesOf(), false);
    expect(errs).toMatchObject({
      company: 'rules.required',
      client: 'rules.required',
      key: 'rules.entryKey.required',
      hostname: 'rules.hostname.required',
    });
    expect(keyFormErrors({ ...keyFormValuesOf(row), key: 'short' }, false).key).toBe('rules.entryKey.length');
    expect(keyFormErrors({ ...keyFormValuesOf(row), key: '0123456789ABCDEF' }, false)).toEqual({});
  });
  it('editing: an empty key keeps the stored one; a typed key must still be 16 bytes', () => {
    expect(keyFormErrors(keyFormValuesOf(row), true)).toEqual({});
    expect(keyFormErrors({ ...keyFormValuesOf(row), key: 'x' }, true).key).toBe('rules.entryKey.length');
  });
  it('wire parameters: trimmed, enabled as 0/1, the key only when typed; the key shows masked', () => {
    const v = { ...keyFormValuesOf(row), company: ' Aurora ' };
    expect(keyWireParams(v)).toEqual({
      company: 'Aurora',
      version: '1.0',
      client: 'ios',
      domain: 'aurora.example',
      contact: 'ops',
      description: 'iOS app',
      enabled: '0',
      hostname: 'app.aurora.example',
    });
    expect(keyWireParams({ ...v, key: '0123456789ABCDEF' })['company-key']).toBe('0123456789ABCDEF');
    expect(maskedKey('Mkn1')).toBe('••••••••Mkn1');
  });
});
