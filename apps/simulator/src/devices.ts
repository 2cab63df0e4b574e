import { getDefinition, type DeviceDefinition } from '@sunwatch/protocol';
import { hashString, rand } from './models/random.js';
import type { DeviceAlarm } from './alarms.js';
import { envReading } from './models/env.js';
import { seedOf, type DeviceState, type Snapshot } from './plant.js';
import type { DataloggerSpec, DeviceSpec } from './types.js';

/** Field id → value (number, or an enum label). */
export type FieldValues = Record<string, number | string>;

interface Ctx {
  spec: DataloggerSpec;
  dev: DeviceSpec;
  def: DeviceDefinition;
  snap: Snapshot;
  ds: DeviceState;
  alarm: DeviceAlarm | null;
  /** Small symmetric noise in ±amp, deterministic per device, time and salt. */
  jitter(amp: number, salt: number): number;
  gridV: number;
  gridHz: number;
}

const LFP_CELLS = 16;

/**
 * The firmware a simulated device runs when its spec names none, per devcode (those with a version
 * register match the value the register held before issue 13); others run V1.0.0.
 */
const DEFAULT_DEVICE_FIRMWARE: Readonly<Record<number, string>> = {
  2341: 'V72.14',
  5121: 'V3.1.2',
  5123: 'V2.0.5',
};

/** The firmware version a device runs now (its spec's, which a device upgrade changes, else its devcode's default). */
export function deviceFirmware(dev: Pick<DeviceSpec, 'devcode' | 'firmware'>): string {
  return dev.firmware || (DEFAULT_DEVICE_FIRMWARE[dev.devcode] ?? 'V1.0.0');
}

/**
 * A firmware version as a 16-bit version register holds it: the digits of its first three numeric
 * groups in a row ("V3.1.2" → 312, "INV-2.0.0" → 200, "V72.14" → 7214), at most 65535; 0 without digits.
 */
export function firmwareRegister(version: string): number {
  const groups = version.match(/\d+/g)?.slice(0, 3) ?? [];
  if (groups.length === 0) return 0;
  return Math.min(0xffff, Number(groups.join('')));
}

/** LiFePO4 cell voltage for a state of charge (flat middle, steep ends) and a C-rate (+ discharge). */
export function lfpCellVoltage(soc: number, cRate: number): number {
  const s = Math.min(100, Math.max(0, soc)) / 100;
  const ocv = 3.0 + 0.25 * s - 0.12 * Math.exp(-s * 25) + 0.15 * Math.exp((s - 1) * 20);
  return ocv - 0.06 * cRate;
}

function packVoltage(nominal: number, soc: number, cRate: number): number {
  return (lfpCellVoltage(soc, cRate) * LFP_CELLS * nominal) / 51.2;
}

/** Battery figures seen by a device: voltage, charge and discharge current (A ≥ 0). */
function batteryFigures(c: Ctx, nominal: number) {
  const cap = c.spec.system.battery?.capacityKWh ?? 5;
  const cRate = c.snap.batteryW / (cap * 1000);
  const v = packVoltage(nominal, c.snap.soc, cRate) + c.jitter(0.05, 1);
  const iDis = c.snap.batteryW > 0 ? c.snap.batteryW / v : 0;
  const iChg = c.snap.batteryW < 0 ? -c.snap.batteryW / v : 0;
  return { v, iDis, iChg, cRate };
}

function pvVolts(c: Ctx, w: number, base: number): number {
  if (w <= 0 && c.snap.cond.elevation <= 0) return 0;
  const irr = Math.min(1, c.snap.cond.poa / 1000);
  return Math.max(0, base * (0.82 + 0.18 * Math.sqrt(irr)) * (1 - 0.0035 * (c.snap.cond.cellC - 25)) + c.jitter(1, 2));
}

function alarmFields(c: Ctx, ids: string[]): FieldValues {
  const out: FieldValues = {};
  for (const id of ids) out[id] = c.alarm?.fields[id] ?? 0;
  return out;
}

function loadOf(c: Ctx): number {
  return c.snap.loadW;
}

function inverterTemp(c: Ctx, w: number, rated: number): number {
  return c.snap.cond.ambientC + 6 + 22 * Math.min(1.2, w / rated) + c.jitter(0.4, 3);
}

// ---------------------------------------------------------------- vendor off-grid / hybrid inverters

/** The lifetime counters and alarm registers the three off-grid hybrid devcodes share. */
function offGridCountersAndAlarms(c: Ctx): FieldValues {
  return {
    energy_pv_total: c.ds.generated,
    energy_load_total: c.snap.counters.load,
    energy_grid_import_total: c.snap.counters.imported,
    energy_battery_charge_total: c.snap.counters.charged,
    energy_battery_discharge_total: c.snap.counters.discharged,
    ...alarmFields(c, ['fault_code', 'warning_bits']),
  };
}

function dc2341(c: Ctx): FieldValues {
  const pv = c.snap.pvByDevice[c.dev.sn] ?? 0;
  const bat = batteryFigures(c, 51.2);
  const load = loadOf(c);
  const importing = c.snap.gridW > 1;
  const fault = c.alarm?.level === 2;
  return {
    gd_ac_input_frequency: c.gridHz,
    gd_mains_status: 'Mains OK',
    gd_ac_input_voltage: c.gridV,
    gd_ac_input_range: 'Appliance',
    sy_status: fault ? 'Fault Mode' : importing ? 'Line Mode' : 'Invert Mode',
    sy_nonimal_output_apparent_power: 6200,
    sy_nominal_output_voltage: 230,
    sy_nominal_output_frequency: 50,
    sy_main_cpu_version: firmwareRegister(deviceFirmware(c.dev)),
    sy_nonimal_output_active_power: 6200,
    sy_nominal_output_current: 27,
    sy_rated_battery_voltage: 48,
    sy_nominal_ac_current: 27,
    sy_secondary_cpu_version: 1105,
    sy_nominal_ac_voltage: 230,
    sy_battery_piece: '48V(6.2KW)',
    sy_machine_type: 'Hybrid',
    pv_status: c.snap.cond.elevation > 0 ? 'PV Normal' : 'PV Loss',
    pv_output_power: pv,
    pv_input_voltage: pvVolts(c, pv, 360),
    bt_utility_charge: 30,
    bt_battery_equalization_voltage: 58.4,
    bt_battery_charging_current: bat.iChg,
    bt_vulk_charging_voltage: 56.4,
    bt_battery_equalization_interval: 30,
    bt_battery_type: 'User',
    bt_battery_status: bat.iChg > 0.5 ? 'Battery Charge' : bat.iDis > 0.5 ? 'Battery Discharge' : 'Battery Idle',
    bt_battery_equalized_time: 60,
    bt_comeback_utility_iode: 46,
    bt_battery_capacity: c.snap.soc,
    bt_battery_discharge_current: bat.iDis,
    bt_floating_charging_voltage: 54,
    bt_battery_voltage: bat.v,
    bt_battery_mode_voltage: 54,
    bt_battery_equalized_timeout: 120,
    bt_battery_cut_off_voltage: 44,
    bt_total_charge_current: 60,
    bt_charger_source_priority: 'Solar priority',
    bc_output_apparent_power: load / 0.96,
    bc_output_voltage: 230 + c.jitter(0.6, 4),
    bc_load_status: load > 6200 ? 'Load On (Overload)' : 'Load On (Normal)',
    bc_output_frequency: 50 + c.jitter(0.02, 5),
    bc_output_source_priority: 'SBU',
    bc_battery_capacity: (load / 6200) * 100,
    output_power: load,
    ...offGridCountersAndAlarms(c),
  };
}

function dc2376(c: Ctx): FieldValues {
  const pv = c.snap.pvByDevice[c.dev.sn] ?? 0;
  const bat = batteryFigures(c, 51.2);
  const load = loadOf(c);
  const pvV = pvVolts(c, pv, 320);
  const fault = c.alarm?.level === 2;
  const outV = 230 + c.jitter(0.6, 4);
  return {
    gd_eybond_read_15: c.gridV,
    gd_eybond_read_16: c.gridHz,
    gd_grid_active_power: c.snap.gridW,
    gd_eybond_read_45: Math.max(0, c.snap.gridW) / c.gridV,
    sy_eybond_read_14: fault ? 6 : c.snap.gridW > 1 ? 2 : 3,
    sy_eybond_read_38: inverterTemp(c, load, 6000),
    sy_eybond_read_39: inverterTemp(c, pv, 6000) - 3,
    sy_eybond_read_49: 2,
    sy_eybond_read_75: 1,
    pv_eybond_read_32: pvV,
    pv_eybond_read_33: pvV > 0 ? pv / pvV : 0,
    pv_output_power: pv,
    pv_eybond_read_46: bat.iChg,
    bt_eybond_read_28: bat.v,
    bt_eybond_read_29: bat.iChg - bat.iDis,
    bc_eybond_read_23: outV,
    bc_eybond_read_24: load / outV,
    bc_eybond_read_25: 50 + c.jitter(0.02, 5),
    bc_load_active_power: load,
    bc_eybond_read_27: load / 0.95,
    bc_eybond_read_37: (load / 6000) * 100,
    bt_battery_capacity: c.snap.soc,
    battery_active_power: -c.snap.batteryW,
    eybond_read_36: Math.max(0, -c.snap.batteryW),
    ...offGridCountersAndAlarms(c),
  };
}

function dc2428(c: Ctx): FieldValues {
  const pv = c.snap.pvByDevice[c.dev.sn] ?? 0;
  const bat = batteryFigures(c, 25.6);
  const load = loadOf(c);
  const pvV = pvVolts(c, pv, 110);
  return {
    gd_grid_voltage: c.gridV,
    gd_grid_frequency: c.gridHz,
    pv_input_current: pvV > 0 ? pv / pvV : 0,
    pv_output_power: pv,
    pv_voltage: pvV,
    bt_discharge_current: bat.iDis,
    bt_battery_voltage: bat.v,
    bt_charging_current: bat.iChg,
    bt_battery_capacity: c.snap.soc,
    bc_load_percent: (load / 3000) * 100,
    bc_output_frequency: 50 + c.jitter(0.02, 5),
    bc_output_voltage: 230 + c.jitter(0.6, 4),
    load_active_power: load,
    ...offGridCountersAndAlarms(c),
  };
}

// ---------------------------------------------------------------- Sunwatch devices

function sw5121(c: Ctx): FieldValues {
  const out = c.snap.pvByDevice[c.dev.sn] ?? 0;
  const avail = c.snap.pvAvailByDevice[c.dev.sn] ?? 0;
  const dc = out / 0.975;
  const v1 = pvVolts(c, out, 620);
  const v2 = v1 > 0 ? v1 + c.jitter(4, 6) : 0;
  const p1 = dc * 0.52;
  const p2 = dc - p1;
  const phaseI = out / 3 / c.gridV;
  const fault = c.alarm?.level === 2;
  const status = fault ? 'Fault' : out <= 0 ? 'Waiting' : avail > 9900 ? 'Derating' : 'Normal';
  return {
    gd_l1_voltage: c.gridV + c.jitter(1, 11),
    gd_l2_voltage: c.gridV + c.jitter(1, 12),
    gd_l3_voltage: c.gridV + c.jitter(1, 13),
    gd_l1_current: phaseI,
    gd_l2_current: phaseI * (1 + c.jitter(0.01, 14)),
    gd_l3_current: phaseI * (1 + c.jitter(0.01, 15)),
    gd_frequency: c.gridHz,
    gd_active_power: out,
    gd_reactive_power: out > 0 ? out * 0.05 + c.jitter(20, 16) : 0,
    gd_power_factor: out > 0 ? 0.995 : 1,
    sy_status: status,
    sy_inner_temperature: inverterTemp(c, out, 10000) - 8,
    sy_heatsink_temperature: inverterTemp(c, out, 10000),
    sy_energy_today: c.ds.today,
    sy_energy_total: c.ds.generated,
    sy_running_hours: Math.floor(c.ds.runningHours),
    sy_fault_code: c.alarm && c.alarm.fields.sy_fault_code ? c.alarm.fields.sy_fault_code : 0,
    sy_warning_bits: c.alarm?.fields.sy_warning_bits ?? 0,
    sy_firmware_version: firmwareRegister(deviceFirmware(c.dev)),
    pv_pv1_voltage: v1,
    pv_pv1_current: v1 > 0 ? p1 / v1 : 0,
    pv_pv1_power: p1,
    pv_pv2_voltage: v2,
    pv_pv2_current: v2 > 0 ? p2 / v2 : 0,
    pv_pv2_power: p2,
    pv_output_power: out,
  };
}

function sw5122(c: Ctx): FieldValues {
  const out = c.snap.pvByDevice[c.dev.sn] ?? 0;
  const dc = out / 0.96;
  const v1 = pvVolts(c, out, 36);
  const v2 = v1 > 0 ? v1 + c.jitter(0.3, 6) : 0;
  const p1 = dc * 0.5;
  const fault = c.alarm?.level === 2;
  return {
    gd_grid_voltage: c.gridV,
    gd_grid_frequency: c.gridHz,
    gd_output_current: out / c.gridV,
    gd_output_power: out,
    sy_status: fault
      ? 'Fault'
      : out <= 0
        ? c.snap.cond.elevation > 0
          ? 'Waiting'
          : 'Off'
        : out >= 795
          ? 'Derating'
          : 'Normal',
    sy_temperature: inverterTemp(c, out, 800) - 4,
    sy_fault_code: c.alarm?.fields.sy_fault_code ?? 0,
    sy_energy_today: c.ds.today,
    sy_energy_total: c.ds.generated,
    pv_pv1_voltage: v1,
    pv_pv1_current: v1 > 0 ? p1 / v1 : 0,
    pv_pv1_power: p1,
    pv_pv2_voltage: v2,
    pv_pv2_current: v2 > 0 ? (dc - p1) / v2 : 0,
    pv_pv2_power: dc - p1,
    pv_output_power: dc,
  };
}

function sw5123(c: Ctx): FieldValues {
  const bp = c.spec.system.battery;
  const capKWh = bp?.capacityKWh ?? 5.12;
  const fullAh = (capKWh * 1000) / 51.2;
  const bat = batteryFigures(c, 51.2);
  const cell = bat.v / LFP_CELLS;
  const spread = 0.004 + Math.abs(bat.cRate) * 0.01;
  const heat = 2 + Math.abs(bat.cRate) * 8;
  const cellT = c.snap.cond.ambientC * 0.5 + 11 + heat;
  const w = c.snap.batteryW;
  const protection = c.alarm?.fields.sy_protection_bits ?? 0;
  return {
    bt_battery_voltage: bat.v,
    bt_battery_current: w / bat.v,
    bt_battery_power: w,
    bt_battery_capacity: c.snap.soc,
    bt_battery_soh: 98,
    bt_remaining_capacity: (c.snap.soc / 100) * fullAh,
    bt_full_capacity: fullAh,
    bt_cycle_count: Math.floor(c.snap.counters.discharged / capKWh),
    bt_battery_status: protection ? 'Protection' : w < -5 ? 'Charging' : w > 5 ? 'Discharging' : 'Idle',
    bt_cell_voltage_max: cell + spread / 2,
    bt_cell_voltage_min: cell - spread / 2,
    bt_cell_temperature_max: cellT + 1.2,
    bt_cell_temperature_min: cellT - 0.8,
    bt_mos_temperature: cellT + 4 + Math.abs(bat.cRate) * 6,
    bt_charge_voltage_limit: 56.8,
    bt_charge_current_limit: Math.round((bp?.maxChargeW ?? 5000) / 51.2),
    bt_discharge_current_limit: Math.round((bp?.maxDischargeW ?? 5000) / 51.2),
    bt_soc_low_cutoff: bp?.minSoc ?? 10,
    bt_energy_charged_total: c.snap.counters.charged,
    bt_energy_discharged_total: c.snap.counters.discharged,
    sy_firmware_version: firmwareRegister(deviceFirmware(c.dev)),
    sy_cell_count: LFP_CELLS,
    sy_protection_bits: protection,
    sy_alarm_bits: c.alarm?.fields.sy_alarm_bits ?? 0,
  };
}

function sw5124(c: Ctx): FieldValues {
  const g = c.snap.gridW;
  const pf = Math.abs(g) > 50 ? 0.97 : 0.9;
  const split = [0.36, 0.33, 0.31];
  const volts = [c.gridV + c.jitter(1, 11), c.gridV + c.jitter(1, 12), c.gridV + c.jitter(1, 13)];
  const pw = split.map((s) => g * s);
  const amps = pw.map((p, i) => Math.abs(p) / (volts[i]! * pf));
  const q = Math.abs(g) * 0.25;
  return {
    gd_l1_voltage: volts[0]!,
    gd_l2_voltage: volts[1]!,
    gd_l3_voltage: volts[2]!,
    gd_l1_current: amps[0]!,
    gd_l2_current: amps[1]!,
    gd_l3_current: amps[2]!,
    gd_l1_power: pw[0]!,
    gd_l2_power: pw[1]!,
    gd_l3_power: g - Math.round(pw[0]!) - Math.round(pw[1]!),
    gd_active_power: g,
    gd_reactive_power: q,
    gd_apparent_power: Math.sqrt(g * g + q * q),
    gd_power_factor: g < 0 ? -pf : pf,
    gd_frequency: c.gridHz,
    gd_import_energy_total: c.snap.counters.imported,
    gd_export_energy_total: c.snap.counters.exported,
    sy_meter_status: 'Normal',
    sy_ct_ratio: 40,
    sy_alarm_bits: c.alarm?.fields.sy_alarm_bits ?? 0,
  };
}

/** The environment monitor: the site's sun and weather as its sensors read them (models/env.ts). */
function sw5125(c: Ctx): FieldValues {
  const { lat, lon, tzOffset } = c.spec.site;
  const r = envReading({ lat, lon, tzOffset, seed: seedOf(c.spec) }, c.snap.ts, c.snap.cond);
  return {
    sy_irradiance: Math.max(0, r.irradiance + (r.irradiance > 0 ? c.jitter(3, 21) : 0)),
    sy_module_temperature: r.moduleC + c.jitter(0.2, 22),
    sy_ambient_temperature: r.ambientC + c.jitter(0.1, 23),
    sy_wind_speed: r.windMs,
    sy_wind_direction: Math.round(r.windDeg) % 360,
    sy_irradiation_today: r.irradiationKWhM2,
    sy_sensor_status: 'Normal',
    sy_alarm_bits: c.alarm?.fields.sy_alarm_bits ?? 0,
  };
}

const MAPPERS: Record<number, (c: Ctx) => FieldValues> = {
  2341: dc2341,
  2376: dc2376,
  2428: dc2428,
  5121: sw5121,
  5122: sw5122,
  5123: sw5123,
  5124: sw5124,
  5125: sw5125,
};

/** Devcodes the simulator can play. */
export const SIMULATED_DEVCODES: readonly number[] = Object.keys(MAPPERS).map(Number);

/**
 * What a device measures in a plant snapshot, as field values of its definition (numbers not yet
 * quantised; enum fields as labels or raw states).
 */
export function deviceValues(spec: DataloggerSpec, dev: DeviceSpec, snap: Snapshot, ds: DeviceState): FieldValues {
  const def = getDefinition(dev.devcode);
  const mapper = MAPPERS[dev.devcode];
  if (!def || !mapper) throw new RangeError(`devcode ${dev.devcode} is not simulated`);
  const seed = hashString(`${spec.pn}/${dev.sn}/jitter`);
  const slot = Math.floor(snap.ts / 1000);
  const hz = spec.site.gridHz ?? 50;
  return mapper({
    spec,
    dev,
    def,
    snap,
    ds,
    alarm: snap.alarms[dev.sn] ?? null,
    jitter: (amp, salt) => (rand(seed, slot, salt) * 2 - 1) * amp,
    gridV: (spec.site.gridV ?? 230) + (rand(seed, slot, 90) * 2 - 1) * 2.5,
    gridHz: hz + (rand(seed, slot, 91) * 2 - 1) * 0.04,
  });
}
