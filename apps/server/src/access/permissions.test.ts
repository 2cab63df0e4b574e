import { describe, expect, it } from 'vitest';
import { ApiError, allPermissionNames, catalogue } from '@sunwatch/protocol';
import { callerMayCall, moduleOf, normaliseFunctionPoints, parseFunctionPoints, parseGroupIds } from './permissions.js';

const sub = (names: string[] | null) => ({
  role: 2,
  adminOf: 4 as number | null,
  permissions: names && new Set(names),
});

describe('function points', () => {
  it('adds the module (and first page) of every granted child, sorted and deduplicated', () => {
    expect(normaliseFunctionPoints('account_add, device_detail,account_add,')).toEqual(
      ['account_add', 'account_manag', 'device_detail', 'device_list', 'device_manag'].sort(),
    );
    expect(normaliseFunctionPoints('')).toEqual([]);
  });

  it('refuses an unknown name with err 6', () => {
    expect(() => normaliseFunctionPoints('account_add,root_everything')).toThrow(ApiError);
    try {
      normaliseFunctionPoints('nope');
    } catch (e) {
      expect((e as ApiError).code).toBe(6);
    }
  });

  it('reads stored lists defensively', () => {
    expect([...parseFunctionPoints('["overview","bogus",3]')]).toEqual(['overview']);
    expect(parseFunctionPoints('not json').size).toBe(0);
    expect(parseGroupIds('[3,"x",-1,4]')).toEqual([3, 4]);
    expect(parseGroupIds(null)).toEqual([]);
  });

  it('an action needs its module AND its function point', () => {
    const access = { permission: 'account_manag' as const, button: 'account_add' };
    expect(callerMayCall(sub(['account_manag', 'account_add']), access)).toBe(true);
    expect(callerMayCall(sub(['account_manag']), access)).toBe(false);
    expect(callerMayCall(sub(['account_add']), access)).toBe(false);
    expect(callerMayCall(sub(['account_manag']), { permission: 'account_manag' })).toBe(true);
    // Fails closed for a sub-administrator without a list; unrestricted distributors and others.
    expect(callerMayCall(sub(null), { permission: 'account_manag' })).toBe(false);
    expect(callerMayCall({ role: 2, adminOf: null, permissions: null }, access)).toBe(true);
    expect(callerMayCall({ role: 0, adminOf: null, permissions: null }, { permission: null })).toBe(true);
    expect(callerMayCall(sub(allPermissionNames()), access)).toBe(true);
  });
});

describe('the catalogue and PERMISSION_TREE agree', () => {
  it("every action's function point is a known name inside the action's module", () => {
    const withButton = Object.values(catalogue).filter((def) => def.access.button !== undefined);
    expect(withButton.length).toBeGreaterThan(10);
    for (const def of withButton) {
      expect(moduleOf(def.access.button!), def.name).toBe(def.access.permission);
    }
  });
});
