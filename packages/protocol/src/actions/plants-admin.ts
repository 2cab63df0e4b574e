import { z } from 'zod';
import { defineAction, result, UPLOAD_RULES } from './define.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { wireDay, wireMonth, wireYear } from './telemetry-params.js';
import {
  currencySchema,
  latitudeSchema,
  longitudeSchema,
  priceSchema,
  timezoneSchema,
  PLANT_IMAGE_URL,
  PLANT_NAME_MAX,
} from '../rules.js';
import type { ValTs } from './plants.js';

/**
 * Issue 10: plant (project) management and the fleet energy queries (vendor-actions.md §5,
 * SM chapter 3). Wire conventions as in plants.ts: numbers in `dat` are JSON strings, ids
 * integers, timestamps "YYYY-MM-DD HH:MM:SS" in the plant's time zone.
 *
 * Parameters are the vendor's dotted names (`address.timezone`, `profit.soldProfit`, …).
 * Edit semantics (vendor §0): a parameter not passed is left unchanged; an empty value clears a
 * text field (`&remark=`), the coordinates (`&address.lon=`) or a picture; an empty price is 0.
 *
 * Writes: the plant's owner, or an administrator (manufacturer, distributor, their
 * sub-administrators, the operator) whose tree holds the plant's owner. Group accounts and
 * viewers never write (err 11). A plant outside the caller's scope answers err 260.
 */

/** A text parameter of at most `max` characters. */
const text = (max: number) => z.string().trim().max(max).optional();
/** Degrees, or "" to clear (edit). */
const coord = (schema: z.ZodType<number>) => z.union([z.literal(''), schema]).optional();
const price = () => priceSchema.optional();
const plantId = () => wireInt().min(1);
/** "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS" in the plant's time zone, or "" to clear (edit). */
const installDate = () =>
  z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?$/),
    ])
    .optional();
/** A picture URL returned by uploadPlantImage, or "" to remove the picture. */
const picture = () => z.union([z.literal(''), z.string().regex(PLANT_IMAGE_URL)]).optional();
/** Plant name: 1..64 characters (vendor editPlant). */
const plantName = () => z.string().trim().min(1).max(PLANT_NAME_MAX);

/** Every field addPlant and editPlant take besides name / plantid (all optional on the wire). */
const plantFields = {
  'address.country': text(128),
  'address.province': text(128),
  'address.city': text(128),
  'address.county': text(128),
  /** District (spec §3 "district"); the vendor's town. */
  'address.town': text(128),
  'address.village': text(128),
  'address.address': text(64),
  'address.lon': coord(longitudeSchema as unknown as z.ZodType<number>),
  'address.lat': coord(latitudeSchema as unknown as z.ZodType<number>),
  /** Income per kWh generated. */
  'profit.unitProfit': price(),
  /** Spec §3 Options (RMB is taken as CNY). */
  'profit.currency': (currencySchema as unknown as z.ZodType<string>).optional(),
  /** ISO country of the currency (vendor field, stored as given). */
  'profit.currencyCountry': text(8),
  /** kg saved per kWh. */
  'profit.coal': price(),
  'profit.co2': price(),
  'profit.so2': price(),
  /** Selling price (energy sold to the grid). */
  'profit.soldProfit': price(),
  /** Self-consumption price. */
  'profit.selfProfit': price(),
  /** Purchase price (energy bought from the grid). */
  'profit.purchProfit': price(),
  /** Consumption price. */
  'profit.consProfit': price(),
  /** Feed-in (grid) price. */
  'profit.feedProfit': price(),
  /** Rated power, kW (> 0 when given). */
  nominalPower: z.coerce.number().positive().max(1e7).optional(),
  /** Expected kWh per year. */
  energyYearEstimate: z.coerce.number().min(0).max(1e12).optional(),
  designCompany: text(64),
  picBig: picture(),
  picSmall: picture(),
  /** Sunwatch: remark (≤ 1024). */
  remark: text(1024),
  /** Sunwatch: install date. */
  install: installDate(),
  /** Sunwatch: installer. */
  installer: text(128),
  /** Sunwatch: make this the owner's default project (1). Clearing is done by choosing another. */
  isDefault: wireBool().optional(),
};

export const addPlant = defineAction({
  name: 'addPlant',
  summary:
    'Create a plant: name and address.timezone required (the time zone cannot change later); `uid` names the owner when an administrator creates it. The first plant of an owner is its default.',
  params: actionParams({
    name: plantName(),
    'address.timezone': timezoneSchema as unknown as z.ZodType<number>,
    /** Sunwatch: the owner (role 0) account, required when an administrator creates the plant. */
    uid: wireInt().min(1).optional(),
    ...plantFields,
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_add' },
  mutates: true,
  result: result<{ pid: number }>(),
});

export const editPlant = defineAction({
  name: 'editPlant',
  summary:
    'Edit a plant: only the parameters passed change ("" clears a text); 271 when nothing changes; the time zone cannot change (6).',
  params: actionParams({
    plantid: plantId(),
    name: plantName().optional(),
    /** Accepted when equal to the plant's (vendor clients resend it); another value → err 6. */
    'address.timezone': (timezoneSchema as unknown as z.ZodType<number>).optional(),
    ...plantFields,
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delPlant = defineAction({
  name: 'delPlant',
  summary:
    'Delete a plant: refused while dataloggers remain (517); the default moves to the owner\'s oldest remaining plant.',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const editPlantEnergyOffset = defineAction({
  name: 'editPlantEnergyOffset',
  summary: 'Set the energy offset (kWh) added to the plant\'s total energy (and its income and savings).',
  params: actionParams({
    plantid: plantId(),
    /** kWh; may be negative to correct an over-count, the total never shows below 0. */
    energyOffset: z.coerce.number().min(-1e9).max(1e9),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const uploadPlantImage = defineAction({
  name: 'uploadPlantImage',
  summary:
    'Sunwatch: upload a plant picture (multipart `file`, jpg/png ≤ 1 MB); returns the picture and its server-made thumbnail as URLs for addPlant/editPlant picBig/picSmall.',
  params: actionParams({}),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag' },
  mutates: true,
  upload: UPLOAD_RULES.projectImage,
  result: result<{ picBig: string; picSmall: string; width: number; height: number }>(),
});

export const queryPlantCount = defineAction({
  name: 'queryPlantCount',
  summary: 'Number of plants the caller sees, optionally of one status; a plant owner or viewer is refused (8).',
  params: actionParams({ status: wireInt().min(0).optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ count: number }>(),
});

/** A row of queryPlantsProfitOneDay. */
export interface PlantProfitDayRow {
  pid: number;
  /** kWh generated that day (the plant's local day). */
  energy: string;
  /** energy × unitProfit. */
  profit: string;
  currency: string;
  /** kg saved that day. */
  coal: string;
  co2: string;
  so2: string;
}

export const queryPlantsProfitOneDay = defineAction({
  name: 'queryPlantsProfitOneDay',
  summary: 'Energy, income and savings of one day per plant (`date` in each plant\'s own time zone, default its today), paged; no plant → 260.',
  params: actionParams({ date: wireDay().optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; plant: PlantProfitDayRow[] }>(),
});

export const queryPlantsEnergyYear = defineAction({
  name: 'queryPlantsEnergyYear',
  summary: 'Energy (kWh) of one year over all the caller\'s plants, each in its own time zone; no plant → 12.',
  params: actionParams({ date: wireYear().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ energy: string }>(),
});

export const queryPlantsEnergyMonthPerDay = defineAction({
  name: 'queryPlantsEnergyMonthPerDay',
  summary: 'Energy (kWh) per day of a month over all the caller\'s plants (each plant\'s local days), the whole month.',
  params: actionParams({ date: wireMonth() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ perday: ValTs[] }>(),
});

export const queryPlantsEnergyYearPerMonth = defineAction({
  name: 'queryPlantsEnergyYearPerMonth',
  summary: 'Energy (kWh) per month of a year over all the caller\'s plants, 12 values.',
  params: actionParams({ date: wireYear() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ permonth: ValTs[] }>(),
});

/** An environment monitor of queryPlantEnvMonitor: the device-info shape plus its live figures. */
export interface PlantEnvMonitorRow {
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  alias: string;
  status: number;
  devtype: number;
  /** Last data time ("" when none). */
  lts: string;
  /** W/m² ("--" when unknown). */
  irradiance: string;
  /** °C. */
  moduleTemp: string;
  ambientTemp: string;
  /** m/s. */
  windSpeed: string;
  /** kWh/m² today. */
  irradiationToday: string;
}

export const queryPlantEnvMonitor = defineAction({
  name: 'queryPlantEnvMonitor',
  summary: 'The environment monitors of a plant with irradiance, temperatures, wind and today\'s irradiation; none → 265.',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ device: PlantEnvMonitorRow[] }>(),
});

/** A device of queryPlantDeviceView. */
export interface PlantViewDevice {
  devcode: number;
  devaddr: number;
  sn: string;
  alias: string;
  status: number;
  devtype: number;
  /** Last data time ("" when none). */
  lts: string;
  /** Output power now, kW ("0.0000" offline). */
  outputPower: string;
  /** Energy generated today, kWh. */
  energyToday: string;
  /** Battery SOC % ("--" without a battery). */
  soc: string;
}

/** A datalogger of queryPlantDeviceView. */
export interface PlantViewCollector {
  pn: string;
  alias: string;
  status: number;
  /** Signal strength 0..100. */
  signal: number;
  firmware: string;
  /** Last report time ("" when none). */
  lts: string;
  device: PlantViewDevice[];
}

/** queryPlantDeviceView: the plant tree plant → dataloggers → devices with key live figures. */
export interface PlantDeviceViewDat {
  pid: number;
  name: string;
  status: number;
  /** Plant output power now, kW. */
  outputPower: string;
  /** Open alarms of the plant's devices and dataloggers. */
  alarms: number;
  collector: PlantViewCollector[];
}

export const queryPlantDeviceView = defineAction({
  name: 'queryPlantDeviceView',
  summary: 'The plant tree: its dataloggers (status, signal, firmware, last report) and their devices with power, energy today and SOC.',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<PlantDeviceViewDat>(),
});
