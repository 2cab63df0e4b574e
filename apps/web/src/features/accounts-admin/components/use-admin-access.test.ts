import { describe, expect, it } from 'vitest';
import { allPermissionNames, permissionEntries, permissionLists } from '@sunwatch/protocol';
import { adminAccessFor } from './use-admin-access';

const lists = (...granted: string[]) => permissionLists(permissionEntries(new Set(granted)));

describe('what the account screens show', () => {
  it('a manufacturer or full distributor gets every button, tab and account type', () => {
    for (const a of [
      adminAccessFor({ role: 1 }),
      adminAccessFor({ role: 2, permissions: lists(...allPermissionNames()) }),
    ]) {
      expect(a).toMatchObject({
        add: true,
        edit: true,
        remove: true,
        enable: true,
        resetPassword: true,
        distribute: true,
      });
      expect(a).toMatchObject({ groupsTab: true, rolesTab: true, ctrlTab: true, ctrlWrite: true });
      expect(a.createTypes).toEqual(['owner', 'dealer', 'viewer', 'group', 'subAdmin']);
    }
  });

  it("a sub-administrator gets exactly its role's function buttons and pages", () => {
    const a = adminAccessFor({
      role: 2,
      permissions: lists('account_manag', 'account_list', 'account_enable', 'group_list'),
    });
    expect(a).toMatchObject({
      add: false,
      edit: false,
      remove: false,
      enable: true,
      resetPassword: false,
      distribute: false,
    });
    expect(a).toMatchObject({ groupsTab: true, rolesTab: false, ctrlTab: false, ctrlWrite: false });
    expect(a.createTypes).toEqual([]);
  });

  it('offers a viewer only to who may list plants (device_manag): the plant picker needs them', () => {
    const noDevices = adminAccessFor({ role: 2, permissions: lists('account_manag', 'account_list', 'account_add') });
    expect(noDevices.createTypes).toEqual(['owner', 'dealer', 'group', 'subAdmin']);
    expect(noDevices.ctrlTab).toBe(false);
    const withDevices = adminAccessFor({ role: 2, permissions: lists('account_manag', 'account_add', 'device_manag') });
    expect(withDevices.createTypes).toContain('viewer');
    expect(withDevices.ctrlTab).toBe(true);
    expect(withDevices.ctrlWrite).toBe(false);
  });

  it('a group account creates owners and viewers but manages no groups, roles or superiors', () => {
    const a = adminAccessFor({ role: 3 });
    expect(a.createTypes).toEqual(['owner', 'viewer']);
    expect(a).toMatchObject({
      administers: false,
      groupsTab: false,
      rolesTab: false,
      ctrlTab: false,
      distribute: false,
    });
  });
});
