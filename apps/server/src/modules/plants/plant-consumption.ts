import { powerOf, type DeviceDefinition, type EnergyCounterName } from '@sunwatch/protocol';
import { DEVTYPE_BATTERY, DEVTYPE_METER } from '../telemetry/rollups.js';

/** One device of a plant as the plant's power balance sees it. */
export interface BalanceDevice {
  devtype: number;
  def: DeviceDefinition;
  /** Latest values; undefined when the device never sent any. */
  values: Record<string, number> | undefined;
  online: boolean;
  /** Today's energy (kWh) per kind of this device (kinds it does not measure absent or 0). */
  today?: Partial<Record<EnergyCounterName, number>>;
}

/** A plant's consumption and grid exchange; undefined when its devices cannot tell. */
export interface PlantBalance {
  /** Consumption (load) power, W. */
  loadW: number | undefined;
  /** Grid power at the plant's connection, W: + import, − export. */
  gridW: number | undefined;
  /** Energy consumed today, kWh. */
  usedToday: number | undefined;
  /**
   * Battery power, W: + discharge / − charge; undefined when no device of the plant reports one.
   * Measured on its own (battery devices, else the inverters' battery ports), whether or not the
   * grid exchange is known.
   */
  batteryW?: number | undefined;
}

/**
 * Consumption and grid exchange of a plant from its devices (docs/web/figures.md):
 * - the plant's grid exchange is what its meters measure; without a meter, what its inverters
 *   that supply the loads themselves (those with a `load` power: hybrids, off-grid) draw from the grid;
 * - consumption is the load power of such inverters when the plant has any; else, with a meter,
 *   the balance generation + grid import (− export) + battery discharge (− charge);
 * - consumed energy today likewise: the inverters' `used` counters, else generated + bought − sold
 *   + discharged − charged with a meter. A plant with neither (a grid-tie inverter alone) cannot
 *   know its consumption: undefined, shown as "--".
 * - battery power: what the plant's batteries (BMS devices) report when any of them measures it,
 *   else what its inverters measure at their battery ports (a hybrid with its battery behind it);
 *   never both, so a battery seen by its BMS and its inverter counts once. Undefined when no
 *   device measures a battery power (no battery, or one reporting only its state of charge).
 * Offline devices contribute no power.
 */
export function plantBalance(devices: readonly BalanceDevice[]): PlantBalance {
  const inverters = devices.filter((d) => d.devtype !== DEVTYPE_METER && d.devtype !== DEVTYPE_BATTERY);
  const meters = devices.filter((d) => d.devtype === DEVTYPE_METER && d.def.power.grid);
  const batteries = devices.filter((d) => d.devtype === DEVTYPE_BATTERY);
  const supplying = inverters.filter((d) => d.def.power.load);
  const live = (d: BalanceDevice, node: 'pv' | 'generator' | 'grid' | 'battery' | 'load') =>
    d.online && d.values ? (powerOf(d.def, { values: d.values }, node) ?? 0) : 0;
  const sum = (xs: readonly BalanceDevice[], f: (d: BalanceDevice) => number) => xs.reduce((a, d) => a + f(d), 0);
  const todayOf = (xs: readonly BalanceDevice[], kind: EnergyCounterName) => sum(xs, (d) => d.today?.[kind] ?? 0);

  let gridW: number | undefined;
  if (meters.length > 0) gridW = sum(meters, (d) => live(d, 'grid'));
  else if (supplying.some((d) => d.def.power.grid)) gridW = sum(supplying, (d) => live(d, 'grid'));

  let loadW: number | undefined;
  let usedToday: number | undefined;
  const hasBattery = batteries.length > 0;
  const batteryW = () =>
    hasBattery ? sum(batteries, (d) => live(d, 'battery')) : sum(inverters, (d) => live(d, 'battery'));
  const batteryNet = (kind: 'discharged' | 'charged') =>
    hasBattery ? todayOf(batteries, kind) : todayOf(inverters, kind);
  if (supplying.length > 0) {
    loadW = sum(supplying, (d) => live(d, 'load'));
    if (supplying.some((d) => d.def.energy.used)) usedToday = todayOf(supplying, 'used');
  } else if (meters.length > 0) {
    const generation = sum(inverters, (d) => live(d, 'pv') + live(d, 'generator'));
    loadW = Math.max(0, generation + gridW! + batteryW());
    usedToday = Math.max(
      0,
      todayOf(inverters, 'generated') +
        todayOf(meters, 'bought') -
        todayOf(meters, 'sold') +
        batteryNet('discharged') -
        batteryNet('charged'),
    );
  }
  if (usedToday !== undefined) usedToday = Math.round(usedToday * 10000) / 10000;
  const batteryPorts = batteries.some((d) => d.def.power.battery) ? batteries : inverters.filter((d) => d.def.power.battery);
  const measuredBatteryW = batteryPorts.length > 0 ? sum(batteryPorts, (d) => live(d, 'battery')) : undefined;
  return { loadW, gridW, usedToday, batteryW: measuredBatteryW };
}
