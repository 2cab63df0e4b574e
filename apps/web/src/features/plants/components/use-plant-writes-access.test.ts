import { describe, expect, it } from 'vitest';
import { findAction } from '@sunwatch/protocol';
import { DATALOGGER_BINDER_ROLES, PLANT_WRITER_ROLES, plantWriteAccessFor } from './use-plant-writes-access';

describe('plant write buttons', () => {
  it('owners write their plants; viewers and group accounts never', () => {
    const all = { write: true, create: true, edit: true, remove: true };
    const none = { write: false, create: false, edit: false, remove: false, chooseOwner: false, addDatalogger: false };
    expect(plantWriteAccessFor({ role: 0 })).toEqual({ ...all, chooseOwner: false, addDatalogger: true });
    expect(plantWriteAccessFor({ role: 5 })).toEqual(none);
    expect(plantWriteAccessFor({ role: 3 })).toEqual(none);
    expect(plantWriteAccessFor(undefined)).toEqual(none);
  });

  it('administrators write and name the owner; a sub-administrator needs device management', () => {
    // administrators add dataloggers to their stock (the datalogger screens), not to a plant
    const all = { write: true, create: true, edit: true, remove: true };
    expect(plantWriteAccessFor({ role: 1 })).toEqual({ ...all, chooseOwner: true, addDatalogger: false });
    expect(plantWriteAccessFor({ role: 2 })).toEqual({ ...all, chooseOwner: true, addDatalogger: false });
    const limited = { modules: ['account_manag'], firstPages: [], secondPages: [], buttons: [] };
    expect(plantWriteAccessFor({ role: 2, permissions: limited }).write).toBe(false);
  });

  it('a sub-administrator sees each plant write only with its function point', () => {
    const lists = (buttons: string[]) => ({ modules: ['device_manag'], firstPages: ['project_list'], secondPages: [], buttons });
    expect(plantWriteAccessFor({ role: 2, permissions: lists([]) })).toMatchObject({ write: false, create: false, edit: false, remove: false });
    expect(plantWriteAccessFor({ role: 2, permissions: lists(['project_add']) })).toMatchObject({
      write: false,
      create: true,
      chooseOwner: true,
      edit: false,
      remove: false,
    });
    expect(plantWriteAccessFor({ role: 2, permissions: lists(['project_edit']) })).toMatchObject({ write: true, edit: true, remove: false });
    expect(plantWriteAccessFor({ role: 2, permissions: lists(['project_delete']) })).toMatchObject({ write: true, edit: false, remove: true });
  });

  it('are the roles the catalogue gives addPlant, editPlant and delPlant', () => {
    for (const name of ['addPlant', 'editPlant', 'delPlant', 'editPlantEnergyOffset'] as const) {
      const roles = (findAction(name)?.access as { roles?: readonly number[] }).roles;
      expect([...(roles ?? [])].sort(), name).toEqual([...PLANT_WRITER_ROLES].sort());
    }
    const buttons = { addPlant: 'project_add', editPlant: 'project_edit', editPlantEnergyOffset: 'project_edit', delPlant: 'project_delete' };
    for (const [name, button] of Object.entries(buttons)) {
      expect((findAction(name)?.access as { button?: string }).button, name).toBe(button);
    }
    const bind = findAction('addCollectorToPlant')?.access as { roles?: readonly number[]; button?: string };
    expect([...(bind.roles ?? [])].sort()).toEqual([...DATALOGGER_BINDER_ROLES].sort());
    expect(bind.button).toBe('datalogger_add');
  });
});
