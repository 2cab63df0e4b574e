import { getDefinition } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { plantBalance, type BalanceDevice } from './plant-consumption.js';

const dev = (
  devcode: number,
  values: Record<string, number> | undefined,
  over: Partial<BalanceDevice> = {},
): BalanceDevice => {
  const def = getDefinition(devcode)!;
  return { devtype: def.devtype, def, values, online: true, ...over };
};

describe('plantBalance (consumption and grid exchange of a plant)', () => {
  it('a grid-tie inverter alone cannot know the consumption: unknown, not 0', () => {
    const b = plantBalance([dev(5121, { pv_output_power: 3000, gd_active_power: 2950 }, { today: { generated: 4 } })]);
    expect(b).toEqual({ loadW: undefined, gridW: undefined, usedToday: undefined, batteryW: undefined });
  });

  it('with a meter: generation + import − export + battery discharge − charge', () => {
    const b = plantBalance([
      dev(5121, { pv_output_power: 3000 }, { today: { generated: 10 } }),
      dev(5124, { gd_active_power: -1200 }, { today: { bought: 2, sold: 5 } }),
      dev(5123, { bt_battery_power: -800 }, { today: { charged: 3, discharged: 1 } }),
    ]);
    expect(b.gridW).toBe(-1200);
    expect(b.loadW).toBe(3000 - 1200 - 800);
    expect(b.usedToday).toBe(10 + 2 - 5 + 1 - 3);
  });

  it('a hybrid supplies the loads itself: its load power and consumption counter; offline devices add no power', () => {
    const b = plantBalance([
      dev(2341, { output_power: 851, pv_output_power: 0 }, { today: { used: 0.6, generated: 0 } }),
    ]);
    expect(b).toMatchObject({ loadW: 851, gridW: undefined, usedToday: 0.6 });
    const off = plantBalance([
      dev(5121, { pv_output_power: 3000 }),
      dev(5124, { gd_active_power: 2100 }, { online: false }),
    ]);
    expect(off.loadW).toBe(3000);
    expect(off.gridW).toBe(0);
  });

  it('battery power whenever a battery reports it, with or without a measured grid exchange', () => {
    // a hybrid without a grid power field (the demo 2341): the grid is unknown, the battery is not
    const hybrid = plantBalance([
      dev(2341, { output_power: 851, pv_output_power: 0, bt_battery_voltage: 52, bt_battery_discharge_current: 10, bt_battery_charging_current: 0 }),
    ]);
    expect(hybrid.gridW).toBeUndefined();
    expect(hybrid.batteryW).toBeCloseTo(520, 6);
    const charging = plantBalance([
      dev(2341, { output_power: 300, pv_output_power: 2000, bt_battery_voltage: 50, bt_battery_discharge_current: 0, bt_battery_charging_current: 20 }),
    ]);
    expect(charging.batteryW).toBeCloseTo(-1000, 6);
    // a grid-tie inverter and a BMS without a meter: no grid, no load, but the battery's power
    const bms = plantBalance([dev(5121, { pv_output_power: 3000 }), dev(5123, { bt_battery_capacity: 64, bt_battery_power: -1500 })]);
    expect(bms).toMatchObject({ gridW: undefined, loadW: undefined, batteryW: -1500 });
    // a BMS and the hybrid it sits behind: the BMS counts, the battery once
    const both = plantBalance([
      dev(2341, { output_power: 100, bt_battery_voltage: 50, bt_battery_discharge_current: 4, bt_battery_charging_current: 0 }),
      dev(5123, { bt_battery_power: 210 }),
    ]);
    expect(both.batteryW).toBe(210);
    // an offline battery adds no power; a plant without a battery has none
    expect(plantBalance([dev(5123, { bt_battery_power: 900 }, { online: false })]).batteryW).toBe(0);
    expect(plantBalance([dev(5121, { pv_output_power: 3000 }), dev(5124, { gd_active_power: 100 })]).batteryW).toBeUndefined();
  });
});
