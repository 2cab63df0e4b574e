import { controlItems, getDefinition, type ControlDef, type DeviceDefinition } from '@sunwatch/protocol';
import type { BatteryParams } from './models/battery.js';
import type { FieldValues } from './devices.js';
import type { DataloggerSpec } from './types.js';

/**
 * Device settings written by `ctrl` commands (issue 10): per device SN, control id → the value
 * it was set to (the engineering value: an item key as a number, or the scaled number). Kept in
 * the plant state, so they survive a resume and drive the physics (`policyOf`) and the read-back
 * fields of the next frames (`applyReadbacks`).
 */
export type DeviceSettings = Record<string, Record<string, number>>;

/** Output source priority of a hybrid inverter. */
export type OutputPriority = 'utility' | 'solar' | 'sbu';

/** How the plant's hybrid inverter and battery are set up, from the device settings. */
export interface PlantPolicy {
  /**
   * - `sbu` (solar → battery → utility, the default): surplus PV charges the battery, a deficit
   *   is covered by the battery, then by the grid;
   * - `solar` (solar first): surplus PV charges the battery, a deficit comes from the grid (the
   *   battery only backs up a grid outage);
   * - `utility` (utility first): the grid carries the load, PV charges the battery first and
   *   only what is left feeds the load; the battery never discharges while the grid is there.
   */
  priority: OutputPriority;
  /** The grid may charge the battery (charger source "solar and mains"), up to this power, W. */
  gridChargeW: number;
  /** Battery limits overridden by settings (charge/discharge current, cut-off SOC). */
  battery: Partial<Pick<BatteryParams, 'maxChargeW' | 'maxDischargeW' | 'minSoc'>>;
  /** Per PV device SN: the cap of its output as a fraction of its rated power (remote switch, power limit). */
  pvCap: Record<string, number>;
}

const PRIORITY_2341: Record<number, OutputPriority> = { 0: 'utility', 1: 'solar', 2: 'sbu' };
const PRIORITY_2376: Record<number, OutputPriority> = { 0: 'utility', 1: 'solar', 2: 'sbu', 3: 'solar' };
const PRIORITY_2428: Record<number, OutputPriority> = { 12336: 'utility', 12337: 'solar', 12338: 'sbu' };

/** Nominal battery bus voltage of a devcode (current limits → power). */
const BUS_V: Record<number, number> = { 2341: 51.2, 2376: 51.2, 2428: 25.6, 5123: 51.2 };

/**
 * Fields of the simulator's devices that show a setting although the definition declares no
 * read-back (2341 keeps its charge limits in the battery panel).
 */
const EXTRA_READBACKS: Record<number, Record<string, string>> = {
  2341: {
    bat_max_total_charge_current: 'bt_total_charge_current',
    bat_max_utility_charge_current: 'bt_utility_charge',
    bat_sp_bulk_charging_voltage: 'bt_vulk_charging_voltage',
    bat_sp_floting_charging_voltage: 'bt_floating_charging_voltage',
    bat_sp_low_battery_voltage: 'bt_battery_cut_off_voltage',
    bat_sp_battery_mode_voltage: 'bt_battery_mode_voltage',
    bat_sp_utility_mode_voltage: 'bt_comeback_utility_iode',
    bat_sp_battery_equalization_voltage: 'bt_battery_equalization_voltage',
    bat_sp_battery_equalized_time: 'bt_battery_equalized_time',
    bat_sp_battery_equalized_timeout: 'bt_battery_equalized_timeout',
    bat_sp_battery_equalization_interval: 'bt_battery_equalization_interval',
  },
};

/** The field a control's value shows in (definition read-back, else the simulator's own). */
export function readbackOf(def: DeviceDefinition, c: ControlDef): string | undefined {
  return c.readback ?? EXTRA_READBACKS[def.devcode]?.[c.id];
}

/** Overrides the read-back fields of the controls a device was set with. */
export function applyReadbacks(def: DeviceDefinition, values: FieldValues, settings: Record<string, number> | undefined): void {
  if (!settings) return;
  for (const c of def.controls) {
    const v = settings[c.id];
    if (v === undefined) continue;
    const field = readbackOf(def, c);
    if (field && field in values) values[field] = v;
  }
}

/**
 * The current value of a control for a `read` command: what it was set to, else what its
 * read-back field shows in the last frame, else its first item (or the low end of its range).
 */
export function currentControlValue(
  def: DeviceDefinition,
  c: ControlDef,
  settings: Record<string, number> | undefined,
  lastValues: FieldValues | undefined,
): number {
  const set = settings?.[c.id];
  if (set !== undefined) return set;
  const field = readbackOf(def, c);
  const shown = field ? lastValues?.[field] : undefined;
  if (typeof shown === 'number') return shown;
  if (typeof shown === 'string' && field) {
    const f = def.fields.find((x) => x.id === field);
    const key = f?.enum ? Object.entries(f.enum).find(([, label]) => label === shown)?.[0] : undefined;
    if (key !== undefined) return Number(key);
  }
  const items = controlItems(c);
  if (items && items.length > 0) {
    const n = Number(items[0]!.key);
    if (Number.isFinite(n)) return n;
  }
  return c.ranges?.[0]?.min ?? 0;
}

/** The plant's policy from the settings of its devices (defaults: SBU, no grid charging, no caps). */
export function policyOf(spec: DataloggerSpec, settings: DeviceSettings | undefined): PlantPolicy {
  const policy: PlantPolicy = { priority: 'sbu', gridChargeW: 0, battery: {}, pvCap: {} };
  if (!settings) return policy;
  for (const dev of spec.devices) {
    const s = settings[dev.sn];
    if (!s) continue;
    const busV = BUS_V[dev.devcode] ?? 51.2;
    switch (dev.devcode) {
      case 2341: {
        const p = s.los_output_source_priority;
        if (p !== undefined) policy.priority = PRIORITY_2341[p] ?? policy.priority;
        const utilityA = s.bat_max_utility_charge_current ?? 30;
        if (s.bat_charger_source_priority === 1) policy.gridChargeW = utilityA * busV;
        if (s.bat_max_total_charge_current !== undefined)
          policy.battery.maxChargeW = Math.min(policy.battery.maxChargeW ?? Infinity, s.bat_max_total_charge_current * busV);
        break;
      }
      case 2376: {
        const p = s.bse_eybond_ctrl_49;
        if (p !== undefined) policy.priority = PRIORITY_2376[p] ?? policy.priority;
        break;
      }
      case 2428: {
        const p = s.bse_output_source_priority;
        if (p !== undefined) policy.priority = PRIORITY_2428[p] ?? policy.priority;
        if (s.bat_max_charging_current !== undefined)
          policy.battery.maxChargeW = Math.min(policy.battery.maxChargeW ?? Infinity, s.bat_max_charging_current * busV);
        break;
      }
      case 5123: {
        if (s.bat_charge_current_limit !== undefined)
          policy.battery.maxChargeW = Math.min(policy.battery.maxChargeW ?? Infinity, s.bat_charge_current_limit * busV);
        if (s.bat_discharge_current_limit !== undefined) policy.battery.maxDischargeW = s.bat_discharge_current_limit * busV;
        if (s.bat_soc_low_cutoff !== undefined) policy.battery.minSoc = s.bat_soc_low_cutoff;
        break;
      }
      case 5121: {
        let cap = 1;
        if (s.sys_remote_switch === 0) cap = 0;
        else if (s.grd_active_power_limit !== undefined) cap = s.grd_active_power_limit / 100;
        policy.pvCap[dev.sn] = cap;
        break;
      }
      case 5122: {
        const rated = getDefinition(5122)?.ratedPower ?? 800;
        let cap = 1;
        if (s.sys_remote_switch === 0) cap = 0;
        else if (s.grd_output_power_limit !== undefined) cap = Math.min(1, s.grd_output_power_limit / rated);
        policy.pvCap[dev.sn] = cap;
        break;
      }
    }
  }
  return policy;
}
