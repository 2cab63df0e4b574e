/**
 * The alarm vocabulary the first screen needs, as plain constants: importing them from the protocol
 * package at run time brings its device definitions and zod into the page's first load (issue 8
 * budget). `vocabulary.test.ts` checks every value against the protocol's one definition
 * (`packages/protocol/src/alarms/types.ts`), so a contract change fails a test.
 */
import type { AlarmDeviceType } from '@sunwatch/protocol';

/** i18n keys of the levels 0 warning, 1 error, 2 fault, 3 offline (protocol ALARM_LEVEL_KEYS). */
export const LEVEL_KEYS = ['warning', 'error', 'fault', 'offline'] as const;

/** The spec's device types of alarm (protocol ALARM_DEVICE_TYPES). */
export const DEVICE_TYPES: readonly AlarmDeviceType[] = [
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
];

/** "GMT+1", "GMT-3:30": a plant's offset (protocol timezoneLabel). */
export function offsetLabel(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const h = Math.floor(abs / 3600);
  const m = Math.round((abs % 3600) / 60);
  return `GMT${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}
