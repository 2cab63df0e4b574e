import { describe, expect, it } from 'vitest';
import { findAction } from '@sunwatch/protocol';
import { DATALOGGER_BINDER_ROLES, PLANT_WRITER_ROLES, plantWriteAccessFor } from './use-plant-writes-access';

describe('plant write buttons', () => {
  it('owners write their plants; viewers and group accounts never', () => {
    expect(plantWriteAccessFor({ role: 0 })).toEqual({ write: true, chooseOwner: false, addDatalogger: true });
    expect(plantWriteAccessFor({ role: 5 })).toEqual({ write: false, chooseOwner: false, addDatalogger: false });
    expect(plantWriteAccessFor({ role: 3 })).toEqual({ write: false, chooseOwner: false, addDatalogger: false });
    expect(plantWriteAccessFor(undefined)).toEqual({ write: false, chooseOwner: false, addDatalogger: false });
  });

  it('administrators write and name the owner; a sub-administrator needs device management', () => {
    // administrators add dataloggers to their stock (the datalogger screens), not to a plant
    expect(plantWriteAccessFor({ role: 1 })).toEqual({ write: true, chooseOwner: true, addDatalogger: false });
    expect(plantWriteAccessFor({ role: 2 })).toEqual({ write: true, chooseOwner: true, addDatalogger: false });
    const limited = { modules: ['account_manag'], firstPages: [], secondPages: [], buttons: [] };
    expect(plantWriteAccessFor({ role: 2, permissions: limited }).write).toBe(false);
  });

  it('are the roles the catalogue gives addPlant, editPlant and delPlant', () => {
    for (const name of ['addPlant', 'editPlant', 'delPlant', 'editPlantEnergyOffset'] as const) {
      const roles = (findAction(name)?.access as { roles?: readonly number[] }).roles;
      expect([...(roles ?? [])].sort(), name).toEqual([...PLANT_WRITER_ROLES].sort());
    }
    const bind = findAction('addCollectorToPlant')?.access as { roles?: readonly number[]; button?: string };
    expect([...(bind.roles ?? [])].sort()).toEqual([...DATALOGGER_BINDER_ROLES].sort());
    expect(bind.button).toBe('datalogger_add');
  });
});
