import { z } from 'zod';
import { wireInt } from './common.js';

/**
 * Parameter helpers and constants of the telemetry actions (plants, dataloggers, devices,
 * overview). Kept apart from the action modules: the catalogue spreads those modules, so they
 * export actions (and types) only.
 */

/** Plant status (the vendor leaves the numbers unspecified; Sunwatch uses the device codes). */
export const PLANT_STATUS = {
  /** At least one device online, none in alarm. */
  NORMAL: 0,
  /** Every datalogger/device offline, or nothing bound yet. */
  OFFLINE: 1,
  /** A device in fault or error. */
  FAULT: 2,
  /** Devices online but all in standby. */
  STANDBY: 3,
  /** A device with a warning. */
  WARNING: 4,
} as const;

/** Keys of queryPlantCurrentData `par`. */
export const PLANT_CURRENT_KEYS = [
  'ENERGY_TODAY',
  'ENERGY_MONTH',
  'ENERGY_YEAR',
  'ENERGY_TOTAL',
  'ENERGY_PROCEEDS',
  'ENERGY_CO2',
  'CURRENT_POWER',
  'CURRENT_TEMP',
  'CURRENT_RADIANT',
  'BATTERY_SOC',
  'ENERGY_COAL',
  'ENERGY_SO2',
] as const;
export type PlantCurrentKey = (typeof PLANT_CURRENT_KEYS)[number];

/** `queryPlants` orderBy values (vendor-actions.md §2). */
export const PLANT_ORDER_BY = [
  'ascPlantName',
  'descPlantName',
  'ascInstall',
  'descInstall',
  'ascStatus',
  'descStatus',
] as const;

/** "YYYY-MM-DD" (a trailing time is accepted and ignored). */
export const wireDay = () =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/)
    .transform((s) => s.slice(0, 10).replace(/-(\d)(?=-|$)/g, '-0$1'));
/** "YYYY-MM" (also "YYYY-MM-DD…", whose month is taken). */
export const wireMonth = () =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{1,2}(?:-\d{1,2}.*)?$/)
    .transform((s) => {
      const [y, m] = s.split('-');
      return `${y}-${m!.padStart(2, '0')}`;
    });
/** "YYYY" (also a longer date, whose year is taken). */
export const wireYear = () =>
  z
    .string()
    .trim()
    .regex(/^\d{4}(?:-.*)?$/)
    .transform((s) => s.slice(0, 4));

export const BATCH_MAX = 256;

/** `pn` as a comma list of 1..256 PNs. */
export const pnList = () =>
  z
    .string()
    .min(1)
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(64)).min(1));

/** The device tuple; at least `sn`, or `pn` with `devaddr`, must be given (else err 7). */
export const deviceTuple = {
  pn: z.string().max(64).optional(),
  devcode: wireInt().optional(),
  devaddr: wireInt().optional(),
  sn: z.string().max(64).optional(),
};

export interface DeviceTuple {
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
}

/** `device=pn,devcode,devaddr,sn;…` (at most 256 tuples; parts may be empty except pn or sn). */
export const deviceList = () =>
  z
    .string()
    .min(1)
    .transform((s) =>
      s
        .split(';')
        .map((t) => t.trim())
        .filter(Boolean)
        .map((t) => {
          const [pn = '', devcode = '', devaddr = '', sn = ''] = t.split(',').map((x) => x.trim());
          const out: { pn: string; devcode?: number; devaddr?: number; sn: string } = { pn, sn };
          if (devcode !== '') out.devcode = Number(devcode);
          if (devaddr !== '') out.devaddr = Number(devaddr);
          return out;
        }),
    )
    .pipe(
      z
        .array(
          z.object({
            pn: z.string(),
            devcode: z.number().int().optional(),
            devaddr: z.number().int().optional(),
            sn: z.string(),
          }),
        )
        .min(1),
    );

export const ENERGY_CHART_VIEWS = ['day', 'month', 'year', 'total'] as const;
export type EnergyChartView = (typeof ENERGY_CHART_VIEWS)[number];
