/**
 * The editor's values and their wire form (protocol actions/upgrade-strategies.ts): times are
 * entered in the strategy's own timezone (`YYYY-MM-DD HH:mm`), the timezone in hours east of UTC.
 */
import {
  FIRMWARE_TYPES,
  STRATEGY_NAME_MAX,
  STRATEGY_NAME_MIN,
  firmwareTarget,
  type StrategyFilter,
  type StrategyMethod,
} from '@sunwatch/protocol';
import type { StrategyParams, StrategyRow } from './api/queries';

export interface StrategyFormValues {
  name: string;
  description: string;
  firmware?: string;
  type: number;
  baudRate: number;
  /** Hours east of UTC (quarter hours allowed). */
  timezone: number;
  startTime: string;
  endTime: string;
  method: StrategyMethod;
  reminder: string;
  canaryPercent: number;
  failureThresholdPercent: number;
  /** How the targets are chosen: picked one by one, or a filter resolved at the effective time. */
  selection: 'list' | 'filter';
  /** Associated dataloggers (`PN`) or, for device firmware, devices (`PN:SN`). */
  devices: string[];
  /** The filter of a by-filter strategy (empty texts are left out). */
  filter: FilterValues;
}

/** The editor's filter fields (texts may be empty while typing). */
export interface FilterValues {
  plantid?: number | null;
  loggerType?: string;
  model?: string;
  version?: string;
  search?: string;
  devcode?: number | null;
}

/** The timezone offsets offered, in hours: −12 … +14 by quarter hours that exist. */
export const TIMEZONES = [-12, -11, -10, -9.5, -9, -8, -7, -6, -5, -4, -3.5, -3, -2, -1, 0, 1, 2, 3, 3.5, 4, 4.5, 5, 5.5, 5.75, 6, 6.5, 7, 8, 8.75, 9, 9.5, 10, 10.5, 11, 12, 12.75, 13, 14];

export function tzLabel(hours: number): string {
  const sign = hours < 0 ? '-' : '+';
  const a = Math.abs(hours);
  const h = Math.floor(a);
  const m = Math.round((a - h) * 60);
  return `UTC${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The browser's own offset, in hours (the default timezone of a new strategy). */
export function localTzHours(): number {
  return -new Date().getTimezoneOffset() / 60;
}

/** `YYYY-MM-DD HH:mm` of an instant in a zone `hours` east of UTC. */
export function localTime(ms: number, hours: number): string {
  return new Date(ms + hours * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

export function emptyStrategy(now: number): StrategyFormValues {
  const tz = localTzHours();
  return {
    name: '',
    description: '',
    type: FIRMWARE_TYPES[0].id,
    baudRate: 9600,
    timezone: TIMEZONES.includes(tz) ? tz : 0,
    startTime: localTime(now + 3_600_000, tz),
    endTime: localTime(now + 8 * 86_400_000, tz),
    method: 0,
    reminder: '',
    canaryPercent: 10,
    failureThresholdPercent: 20,
    selection: 'list',
    devices: [],
    filter: {},
  };
}

export function strategyFormOf(row: StrategyRow): StrategyFormValues {
  return {
    name: row.name,
    description: row.description,
    firmware: row.firmware.code,
    type: row.type,
    baudRate: row.baudRate,
    timezone: row.timezone / 3600,
    startTime: row.startTime.slice(0, 16),
    endTime: row.endTime.slice(0, 16),
    method: row.method,
    reminder: row.reminder,
    canaryPercent: row.canaryPercent,
    failureThresholdPercent: row.failureThresholdPercent,
    selection: row.filter ? 'filter' : 'list',
    devices: [],
    filter: row.filter ? { ...row.filter } : {},
  };
}

/** The filter as stored: empty texts and unset numbers left out; devcode only for device firmware. */
export function cleanFilter(f: FilterValues, type: number): StrategyFilter {
  const out: StrategyFilter = {};
  if (f.plantid) out.plantid = f.plantid;
  for (const k of ['loggerType', 'model', 'version', 'search'] as const) {
    const v = f[k]?.trim();
    if (v) out[k] = v;
  }
  if (isDeviceType(type) && f.devcode !== undefined && f.devcode !== null) out.devcode = f.devcode;
  return out;
}

/**
 * Wire parameters; on edit an empty device selection keeps the strategy's devices. A by-filter
 * strategy sends its filter (JSON); a list strategy edited from a filter one sends `null` to drop it.
 */
export function strategyParams(v: StrategyFormValues, editing = false): StrategyParams {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    firmware: v.firmware ?? '',
    type: v.type,
    baudRate: v.baudRate,
    timezone: Math.round(v.timezone * 3600),
    startTime: v.startTime.trim(),
    endTime: v.endTime.trim(),
    method: v.method,
    reminder: v.reminder.trim(),
    canaryPercent: v.canaryPercent,
    failureThresholdPercent: v.failureThresholdPercent,
    ...(v.selection === 'list' && v.devices.length > 0 ? { devices: v.devices.join(',') } : {}),
    ...(v.selection === 'filter' ? { filter: JSON.stringify(cleanFilter(v.filter, v.type)) } : editing ? { filter: 'null' } : {}),
  };
}

/** Client-side checks (the server checks again): the key of the message, by field. */
export function strategyErrors(v: StrategyFormValues, editing: boolean): Partial<Record<keyof StrategyFormValues, string>> {
  const e: Partial<Record<keyof StrategyFormValues, string>> = {};
  const name = v.name.trim();
  if (name.length < STRATEGY_NAME_MIN || name.length > STRATEGY_NAME_MAX) e.name = 'strategies:form.nameRule';
  if (v.description.trim() === '') e.description = 'strategies:form.required';
  if (!v.firmware) e.firmware = 'strategies:form.required';
  const re = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
  if (!re.test(v.startTime.trim())) e.startTime = 'strategies:form.timeRule';
  if (!re.test(v.endTime.trim())) e.endTime = 'strategies:form.timeRule';
  else if (!e.startTime && v.endTime.trim() <= v.startTime.trim()) e.endTime = 'strategies:form.endAfterStart';
  if (v.selection === 'list' && !editing && v.devices.length === 0) {
    e.devices = isDeviceType(v.type) ? 'strategies:form.devicesRuleDevice' : 'strategies:form.devicesRule';
  }
  if (v.selection === 'list' && v.devices.some((d) => d.includes(':') !== isDeviceType(v.type))) e.devices = 'strategies:form.devicesType';
  if (v.selection === 'filter' && isDeviceType(v.type) && (v.filter.devcode === undefined || v.filter.devcode === null)) {
    e.filter = 'strategies:form.devcodeRule';
  }
  return e;
}

/** Whether the firmware type upgrades a device behind the datalogger (picked as `PN:SN`). */
export const isDeviceType = (type: number) => firmwareTarget(type) === 1;
