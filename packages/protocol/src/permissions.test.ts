import { describe, expect, it } from 'vitest';
import {
  PERMISSION_MODULES,
  PERMISSION_TREE,
  allPermissionNames,
  permissionEntries,
  permissionLists,
  subAdminLandingPath,
  type PermissionEntry,
} from './permissions.js';

describe('permission tree', () => {
  it('has the five modules of spec §3 in menu order', () => {
    expect(PERMISSION_MODULES).toEqual(['overview', 'device_manag', 'account_manag', 'alarm_manag', 'system_settings']);
  });
  it('names are unique', () => {
    const names = allPermissionNames();
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('device_control_write');
  });
});

describe('subAdminLandingPath', () => {
  it('follows the module order', () => {
    expect(subAdminLandingPath(['overview', 'device_manag', 'system_settings'])).toBe('/home');
    expect(subAdminLandingPath(['system_settings', 'alarm_manag', 'account_manag', 'device_manag'])).toBe('/adminNew/device');
    expect(subAdminLandingPath(['system_settings', 'alarm_manag', 'account_manag'])).toBe('/adminNew/account');
    expect(subAdminLandingPath(['system_settings', 'alarm_manag'])).toBe('/adminNew/alarm');
    expect(subAdminLandingPath(['system_settings'])).toBe('/adminNew/setting');
    expect(subAdminLandingPath([])).toBe('/home');
    expect(subAdminLandingPath(['unknown'])).toBe('/home');
  });
  it('north_ops of the demo tree (device + alarm) lands on the device page', () => {
    expect(subAdminLandingPath(['device_manag', 'alarm_manag'])).toBe('/adminNew/device');
  });
});

describe('permissionEntries / permissionLists', () => {
  it('round-trips a full grant', () => {
    const all = new Set(allPermissionNames());
    const lists = permissionLists(permissionEntries(all));
    expect(lists.modules).toEqual(PERMISSION_MODULES);
    expect(lists.firstPages).toEqual(PERMISSION_TREE.flatMap((m) => m.first.map((f) => f.action)));
    expect(lists.secondPages).toEqual(PERMISSION_TREE.flatMap((m) => m.first.flatMap((f) => f.second ?? [])));
    expect(lists.buttons).toEqual(PERMISSION_TREE.flatMap((m) => m.buttons));
  });

  it('keeps only checked names, and nothing under an unchecked module', () => {
    const granted = new Set(['device_manag', 'device_list', 'device_detail', 'device_export', 'alarm_list', 'alarm_handle']);
    const entries = permissionEntries(granted);
    expect(entries).toHaveLength(5);
    expect(entries.find((e) => e.action === 'alarm_manag')!.isCheck).toBe(false);
    expect(entries.find((e) => e.action === 'alarm_manag')!.first_menus.find((f) => f.action === 'alarm_list')!.isCheck).toBe(true);
    expect(permissionLists(entries)).toEqual({
      modules: ['device_manag'],
      firstPages: ['device_list'],
      secondPages: ['device_detail'],
      buttons: ['device_export'],
    });
  });

  it('reads a wire permission[] as sent by queryAccountInfo', () => {
    const wire: PermissionEntry[] = [
      {
        action: 'overview',
        isCheck: true,
        buttons: [],
        first_menus: [{ action: 'overview_home', isCheck: true }],
        second_menus: [],
      },
      {
        action: 'account_manag',
        isCheck: true,
        buttons: [
          { action: 'account_add', isCheck: false },
          { action: 'account_edit', isCheck: true },
        ],
        first_menus: [{ action: 'account_list', isCheck: true }],
        second_menus: [{ action: 'account_detail', isCheck: false }],
      },
    ];
    const lists = permissionLists(wire);
    expect(lists).toEqual({
      modules: ['overview', 'account_manag'],
      firstPages: ['overview_home', 'account_list'],
      secondPages: [],
      buttons: ['account_edit'],
    });
    expect(subAdminLandingPath(lists.modules)).toBe('/home');
  });

  it('an empty grant gives empty lists', () => {
    expect(permissionLists(permissionEntries(new Set()))).toEqual({
      modules: [],
      firstPages: [],
      secondPages: [],
      buttons: [],
    });
  });
});
