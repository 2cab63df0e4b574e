import { describe, expect, it } from 'vitest';
import { findAction, type PermissionLists } from '@sunwatch/protocol';
import { HANDLE_ROLES, RULE_ROLES, alarmAbilitiesFor } from './abilities';

const rolesOf = (name: string) => [...((findAction(name)?.access as { roles?: number[] }).roles ?? [])].sort();
const lists = (modules: string[], buttons: string[] = []): PermissionLists => ({ modules, firstPages: [], secondPages: [], buttons }) as PermissionLists;

describe('alarm abilities', () => {
  it('follow the roles of the catalogue entries', () => {
    expect([...HANDLE_ROLES].sort()).toEqual(rolesOf('ignorePlantWarning'));
    expect([...HANDLE_ROLES].sort()).toEqual(rolesOf('handlePlantWarnings'));
    for (const a of ['addWarningRule', 'editWarningRule', 'delWarningRule']) expect([...RULE_ROLES].sort()).toEqual(rolesOf(a));
    expect((findAction('ignorePlantWarning')?.access as { button?: string }).button).toBe('alarm_handle');
  });

  it('an owner handles alarms and keeps rules; a viewer only looks', () => {
    expect(alarmAbilitiesFor({ role: 0 })).toMatchObject({ handle: true, rules: true, readOnly: false, admin: false, plants: true });
    expect(alarmAbilitiesFor({ role: 5 })).toMatchObject({ handle: false, rules: false, readOnly: true });
  });

  it('a sub-administrator needs the alarm module, the handle button, and device management for plant pickers', () => {
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['alarm_manag'], ['alarm_handle']) })).toMatchObject({ handle: true, rules: true, plants: false, admin: true });
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['alarm_manag', 'device_manag']) })).toMatchObject({ handle: false, rules: true, plants: true });
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['device_manag']) })).toMatchObject({ handle: false, rules: false });
  });

  it('the alarm export needs the alarm module and its button, not device management (the export history is personal)', () => {
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['alarm_manag'], ['alarm_export_file']) }).export).toBe(true);
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['alarm_manag', 'device_manag']) }).export).toBe(false);
    expect(alarmAbilitiesFor({ role: 2, permissions: lists(['device_manag'], ['alarm_export_file']) }).export).toBe(false);
    expect((findAction('webQueryReportFiles')?.access as { permission: unknown }).permission).toBeNull();
  });
});
