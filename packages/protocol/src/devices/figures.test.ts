import { describe, expect, it } from 'vitest';
import { DeviceDefinitionSchema } from './types.js';
import { DEVICE_DEFINITIONS, getDefinition } from './registry.js';
import { deviceFigures, figureSpecs } from './figures.js';

const def = (devcode: number) => getDefinition(devcode)!;
const keys = (devcode: number) => figureSpecs(def(devcode)).map((f) => (f.panel ? `${f.key}${f.panel}` : f.key));

describe('figure metadata of the shipped devcodes', () => {
  it('every definition has a category and valid roles', () => {
    for (const d of DEVICE_DEFINITIONS)
      expect(DeviceDefinitionSchema.safeParse(d).success, String(d.devcode)).toBe(true);
    expect(def(2341).category).toBe('hybrid-inverter');
    expect(def(5121).category).toBe('grid-tie-inverter');
  });

  it('names the state-of-charge field of every battery-carrying devcode', () => {
    for (const devcode of [2341, 2376, 2428, 5123]) expect(def(devcode).roles?.soc).toBe('bt_battery_capacity');
    expect(def(5121).roles?.soc).toBeUndefined();
  });

  it('rejects a SOC role on a field that is not a percentage, and unknown panel fields', () => {
    const bad = { ...def(5123), roles: { soc: 'bt_battery_voltage' } };
    expect(DeviceDefinitionSchema.safeParse(bad).error?.issues[0]?.message).toMatch(/must be in %/);
    const unknown = { ...def(5122), roles: { panels: ['pv_pv9_power'] } };
    expect(DeviceDefinitionSchema.safeParse(unknown).error?.issues[0]?.message).toMatch(/unknown field/);
  });

  it('shows per device type what matters for it', () => {
    expect(keys(2341)).toEqual(['power', 'energyToday', 'energyTotal']);
    expect(keys(5121)).toEqual(['power', 'energyToday', 'energyTotal']);
    expect(keys(5122)).toEqual(['power', 'energyToday', 'energyTotal', 'panelPower1', 'panelPower2']);
    expect(keys(5123)).toEqual([
      'soc',
      'chargePower',
      'dischargePower',
      'chargedToday',
      'chargedTotal',
      'dischargedToday',
      'dischargedTotal',
    ]);
    expect(keys(5124)).toEqual([
      'importPower',
      'exportPower',
      'importToday',
      'importTotal',
      'exportToday',
      'exportTotal',
    ]);
  });
});

describe('deviceFigures', () => {
  const energy = { charged: { today: 1.5, total: 5912 }, discharged: { today: 0.5, total: 5400 } };

  it('battery: SOC from its role field, charge power from the signed battery power, energies per kind', () => {
    const f = deviceFigures(def(5123), {
      sample: { values: { bt_battery_capacity: 64, bt_battery_power: -1250 } },
      online: true,
      energy,
    });
    const v = Object.fromEntries(f.map((x) => [x.key, x.value]));
    expect(v).toEqual({
      soc: 64,
      chargePower: 1.25,
      dischargePower: 0,
      chargedToday: 1.5,
      chargedTotal: 5912,
      dischargedToday: 0.5,
      dischargedTotal: 5400,
    });
  });

  it('meter: import and export are the halves of the grid power', () => {
    const importing = deviceFigures(def(5124), {
      sample: { values: { gd_active_power: 2100 } },
      online: true,
      energy: {},
    });
    expect(importing.slice(0, 2).map((x) => x.value)).toEqual([2.1, 0]);
    const exporting = deviceFigures(def(5124), {
      sample: { values: { gd_active_power: -800 } },
      online: true,
      energy: {},
    });
    expect(exporting.slice(0, 2).map((x) => x.value)).toEqual([0, 0.8]);
    // energies not yet rolled up are 0, not unknown
    expect(exporting.slice(2).every((x) => x.value === 0 && x.unit === 'kWh')).toBe(true);
  });

  it('micro-inverter: panel powers in kW; offline devices show no live power', () => {
    const s = { values: { pv_output_power: 410, pv_pv1_power: 230, pv_pv2_power: 180 } };
    const on = deviceFigures(def(5122), { sample: s, online: true, energy: { generated: { today: 1.2, total: 300 } } });
    expect(on.map((x) => x.value)).toEqual([0.41, 1.2, 300, 0.23, 0.18]);
    expect(on.filter((x) => x.key === 'panelPower').map((x) => x.panel)).toEqual([1, 2]);
    const off = deviceFigures(def(5122), { sample: s, online: false, energy: {} });
    expect(off.map((x) => x.value)).toEqual([0, 0, 0, 0, 0]);
  });

  it('no sample: live figures unknown, energies still shown', () => {
    const f = deviceFigures(def(5123), { sample: undefined, online: true, energy });
    expect(f.find((x) => x.key === 'soc')!.value).toBeUndefined();
    expect(f.find((x) => x.key === 'chargedTotal')!.value).toBe(5912);
  });
});
