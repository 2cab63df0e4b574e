import { describe, expect, it } from 'vitest';
import { catalogue, ROLE, type Role } from '@sunwatch/protocol';
import { ABILITY_ACTIONS, ABILITY_BUTTONS, ABILITY_ROLES, dataloggerAbilitiesFor, rowActions, type Ability } from './abilities';

const ALL_ROLES: readonly Role[] = [0, 1, 2, 3, 5, 15];

describe('datalogger abilities', () => {
  it.each(Object.keys(ABILITY_ACTIONS) as Ability[])('%s follows the catalogue entry of its action', (k) => {
    const def = (catalogue as Record<string, { access: { roles?: readonly Role[]; button?: string; permission: unknown } }>)[
      ABILITY_ACTIONS[k]
    ];
    expect(def, ABILITY_ACTIONS[k]).toBeDefined();
    const admitted = def!.access.roles ?? ALL_ROLES;
    // the web offers an ability to exactly the roles the catalogue admits
    expect([...ABILITY_ROLES[k]].sort(), k).toEqual([...admitted].sort());
    expect(def!.access.permission).toBe('device_manag');
    if (def!.access.button) expect(ABILITY_BUTTONS[k]).toBe(def!.access.button);
  });

  it('gives an owner add, edit, reboot and delete, but not reset, unbind or debug', () => {
    const a = dataloggerAbilitiesFor({ role: ROLE.OWNER });
    expect(a).toMatchObject({ add: true, batch: true, edit: true, reboot: true, remove: true, log: true });
    expect(a).toMatchObject({ reset: false, unbind: false, debug: false, admin: false });
    expect(rowActions(a)).toEqual(['details', 'edit', 'reboot', 'log', 'delete']);
  });

  it('gives a manufacturer reset, unbind and debug', () => {
    const a = dataloggerAbilitiesFor({ role: ROLE.MANUFACTURER });
    expect(rowActions(a)).toEqual(['details', 'edit', 'reboot', 'debug', 'log', 'reset', 'unbind']);
    expect(a.admin).toBe(true);
    expect(rowActions(dataloggerAbilitiesFor({ role: ROLE.DISTRIBUTOR }))).toContain('delete');
  });

  it('gives only the operator the move (issue 14)', () => {
    expect(rowActions(dataloggerAbilitiesFor({ role: ROLE.OPERATOR }))).toEqual([
      'details',
      'edit',
      'reboot',
      'debug',
      'log',
      'reset',
      'unbind',
      'move',
    ]);
    for (const role of [ROLE.OWNER, ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.GROUP, ROLE.VIEWER])
      expect(dataloggerAbilitiesFor({ role }).move, String(role)).toBe(false);
  });

  it('leaves a viewer and a group account read-only', () => {
    expect(rowActions(dataloggerAbilitiesFor({ role: ROLE.VIEWER }))).toEqual(['details']);
    expect(dataloggerAbilitiesFor({ role: ROLE.VIEWER }).readOnly).toBe(true);
    expect(rowActions(dataloggerAbilitiesFor({ role: ROLE.GROUP }))).toEqual(['details', 'log']);
  });

  it('limits a sub-administrator to the function points of its role', () => {
    const a = dataloggerAbilitiesFor({
      role: ROLE.DISTRIBUTOR,
      permissions: { modules: ['device_manag'], firstPages: [], secondPages: ['datalogger_detail'], buttons: ['datalogger_edit'] },
    });
    expect(rowActions(a)).toEqual(['details', 'edit', 'reboot', 'log', 'reset', 'unbind']);
    expect(a.add).toBe(false);
    const none = dataloggerAbilitiesFor({ role: ROLE.DISTRIBUTOR, permissions: { modules: [], firstPages: [], secondPages: [], buttons: [] } });
    expect(rowActions(none)).toEqual(['details']);
  });
});
