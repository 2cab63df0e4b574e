import { ALARM_LEVEL, DEVTYPE } from '../roles.js';
import { getDefinition } from '../devices/registry.js';

/**
 * Alarm vocabulary shared by server, web and simulator (issue 11; spec §3 "Alarm", §4 "Alarm").
 * Levels are ALARM_LEVEL of roles.ts (0 warning, 1 error, 2 fault, 3 offline).
 */
export const ALARM_LEVELS = [ALARM_LEVEL.WARNING, ALARM_LEVEL.ERROR, ALARM_LEVEL.FAULT, ALARM_LEVEL.OFFLINE] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];
/** i18n keys of the levels, in ALARM_LEVELS order. */
export const ALARM_LEVEL_KEYS = ['warning', 'error', 'fault', 'offline'] as const;
export type AlarmLevelKey = (typeof ALARM_LEVEL_KEYS)[number];

/** Alarm status (`handle` on the wire): 0 untreated, 1 processed. */
export const ALARM_HANDLE = { UNTREATED: 0, PROCESSED: 1 } as const;
export type AlarmHandle = (typeof ALARM_HANDLE)[keyof typeof ALARM_HANDLE];

/** The code of the datalogger offline alarm (level 3), as ERR_COLLECTOR_OFFLINE. */
export const OFFLINE_ALARM_CODE = 263;

/**
 * The spec's "device type of alarm" (§3): inverter, env-monitor, smart meter, combiner box, camera,
 * battery, charger, energy storage controller, anti-islanding, microinverter; plus `datalogger`
 * for the offline alarm of a datalogger (no device). `atype` on the wire.
 */
export const ALARM_DEVICE_TYPES = [
  'inverter',
  'env-monitor',
  'meter',
  'combiner-box',
  'camera',
  'battery',
  'charger',
  'storage-controller',
  'anti-islanding',
  'micro-inverter',
  'datalogger',
] as const;
export type AlarmDeviceType = (typeof ALARM_DEVICE_TYPES)[number];

/** Device type of alarm of a device wire devtype when its definition does not tell. */
const BY_DEVTYPE: Record<number, AlarmDeviceType> = {
  [DEVTYPE.INVERTER]: 'inverter',
  [DEVTYPE.ENV_MONITOR]: 'env-monitor',
  [DEVTYPE.METER]: 'meter',
  [DEVTYPE.COMBINER_BOX]: 'combiner-box',
  [DEVTYPE.BATTERY]: 'battery',
  [DEVTYPE.CHARGER]: 'charger',
  [DEVTYPE.ENERGY_STORAGE]: 'storage-controller',
};

/**
 * The device type of an alarm: from the device's definition (a micro-inverter definition is a
 * `micro-inverter` although its wire devtype is 512), else from its wire devtype; `datalogger`
 * for an alarm without device (devcode null).
 */
export function alarmDeviceType(devcode: number | null, devtype: number | null): AlarmDeviceType {
  if (devcode === null) return 'datalogger';
  const def = getDefinition(devcode);
  if (def?.category === 'micro-inverter') return 'micro-inverter';
  return BY_DEVTYPE[def?.devtype ?? devtype ?? -1] ?? 'inverter';
}
