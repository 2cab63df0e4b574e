import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import {
  PLANT_CURRENT_KEYS,
  PLANT_ORDER_BY,
  wireDay,
  wireMonth,
  wireYear,
  type PlantCurrentKey,
} from './telemetry-params.js';

/**
 * Plant actions (wire-protocol.md §6 "Account and plants"). Conventions (§5): measured values
 * are JSON strings, ids/status integers, timestamps "YYYY-MM-DD HH:MM:SS" in the plant's
 * timezone, lists `{total,page,pagesize,…}` with page from 0. Another tenant's plant → err 260.
 */

export interface PlantAddressWire {
  country: string;
  province: string;
  city: string;
  county: string;
  town: string;
  /** Issue 10. */
  village: string;
  address: string;
  /** Degrees as a string; "" when unset. */
  lon: string;
  lat: string;
  /** Seconds east of UTC (28800 = UTC+8). */
  timezone: number;
}

export interface PlantProfitWire {
  /** Income per kWh generated. */
  unitProfit: string;
  currency: string;
  /** kg saved per kWh. */
  coal: string;
  co2: string;
  so2: string;
  /** Selling / purchase / consumption prices per kWh. */
  soldProfit: string;
  purchProfit: string;
  consProfit: string;
  /** Issue 10: self-consumption and feed-in prices, ISO country of the currency. */
  selfProfit: string;
  feedProfit: string;
  currencyCountry: string;
}

/** The plant object of queryPlantInfo and queryPlants `plant[x]`. */
export interface PlantWire {
  pid: number;
  /** Owner account. */
  uid: number;
  /** Owner username (Sunwatch extra). */
  usr: string;
  name: string;
  status: number;
  /** kWh added to the measured total. */
  energyOffset: string;
  address: PlantAddressWire;
  profit: PlantProfitWire;
  /** kW. */
  nominalPower: string;
  /** kWh per year. */
  energyYearEstimate: string;
  designCompany: string;
  installer: string;
  remark: string;
  picBig: string;
  picSmall: string;
  isDefault: boolean;
  install: string;
  gts: string;
}

export interface PlantListDat {
  total: number;
  page: number;
  pagesize: number;
  plant: PlantWire[];
}

const plantId = () => wireInt().min(1);

export const queryPlants = defineAction({
  name: 'queryPlants',
  summary: 'Plants the caller may see, paged; filter by status, fuzzy plantName; orderBy name/install/status.',
  params: actionParams({
    page: page(),
    pagesize: pageSize(),
    status: wireInt().optional(),
    orderBy: z.enum(PLANT_ORDER_BY).default('ascPlantName'),
    plantName: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<PlantListDat>(),
});

export const queryPlantsInfo = defineAction({
  name: 'queryPlantsInfo',
  summary: 'Every plant the caller may see: owner uid/usr, pid, name and status.',
  params: actionParams({}),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ info: Array<{ uid: number; usr: string; pid: number; pname: string; status: number }> }>(),
});

/** A row of the web plant list: figures in kW / kWh as strings. */
export interface WebPlantRow {
  pid: number;
  uid: number;
  usr: string;
  name: string;
  status: number;
  /** Current output power, kW. */
  outputPower: string;
  /** Today's energy, kWh. */
  energy: string;
  energyMonth: string;
  energyYear: string;
  energyTotal: string;
  /** Today's income (energy × unitProfit) in `profit.currency`. */
  profitToday: string;
  profitTotal: string;
  /** outputPower / nominalPower, percent. */
  powerEfficiency: string;
  nominalPower: string;
  /** Last data time ("" when none). */
  lts: string;
  install: string;
  gts: string;
  address: PlantAddressWire;
  profit: PlantProfitWire;
  /** Dataloggers and devices bound to the plant. */
  collectors: number;
  devices: number;
  /**
   * Sunwatch: consumption power (kW), grid power at the plant's connection (kW, + import /
   * − export) and energy consumed today (kWh), from its meters / hybrid inverters; "--" when
   * the plant's devices cannot tell (a grid-tie inverter without a meter).
   */
  loadPower: string;
  gridPower: string;
  /** Sunwatch: battery power (kW, + discharge / − charge) of the plant's batteries; "--" when none reports one. */
  batteryPower: string;
  energyUsed: string;
}

export const webQueryPlants = defineAction({
  name: 'webQueryPlants',
  summary: 'Web plant list with current power and energy today/month/year/total, paged.',
  params: actionParams({
    page: page(),
    pagesize: pageSize(),
    status: wireInt().optional(),
    /** Web list filter: 0 all, n → status n−1 (statusFromListFilter). */
    statusFilter: wireInt().min(0).optional(),
    orderBy: z.enum(PLANT_ORDER_BY).default('ascPlantName'),
    plantName: z.string().max(64).optional(),
    /** Only the plants of this owner account. */
    uid: wireInt().optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; plant: WebPlantRow[] }>(),
});

export const queryPlantInfo = defineAction({
  name: 'queryPlantInfo',
  summary: 'One plant by plantid.',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<PlantWire>(),
});

export interface PlantDeviceStatusDat {
  status: number;
  collector: Array<{
    pn: string;
    alias: string;
    status: number;
    device: Array<{
      devcode: number;
      devaddr: number;
      sn: string;
      alias: string;
      status: number;
      devtype: number;
      comStatus: 0 | 1;
    }>;
  }>;
}

export const queryPlantDeviceStatus = defineAction({
  name: 'queryPlantDeviceStatus',
  summary: 'Plant status with its dataloggers and their devices (comStatus 1 = fresh data).',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<PlantDeviceStatusDat>(),
});

export const queryPlantCurrentData = defineAction({
  name: 'queryPlantCurrentData',
  summary: 'Plant figures by key (ENERGY_TODAY … BATTERY_SOC), in the order of `par`.',
  params: actionParams({
    plantid: plantId(),
    par: z
      .string()
      .min(1)
      .transform((s) =>
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(PLANT_CURRENT_KEYS)).min(1)),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<Array<{ key: PlantCurrentKey; val: string }>>(),
});

/** A device row of queryPlantDeviceDesignatedInformation; the asked parameters are extra keys. */
export type DesignatedDeviceRow = {
  devcode: number;
  sn: string;
  devaddr: number;
  status: number;
  cpn: string;
  alias: string;
  lts: string;
} & Record<string, string | number>;

export const queryPlantDeviceDesignatedInformation = defineAction({
  name: 'queryPlantDeviceDesignatedInformation',
  summary: 'Devices of a plant by devtype with the asked parameters (field ids or ENERGY_TODAY-style keys).',
  params: actionParams({
    plantid: plantId(),
    devtype: wireInt().optional(),
    parameter: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ device: DesignatedDeviceRow[] }>(),
});

export interface ValTs {
  val: string;
  ts: string;
}

export const queryPlantActiveOuputPowerOneDay = defineAction({
  name: 'queryPlantActiveOuputPowerOneDay',
  summary: 'Plant output power (kW) over one local day, at upload cadence; err 12 when no data.',
  params: actionParams({ plantid: plantId(), date: wireDay() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ outputPower: ValTs[] }>(),
});

export const queryPlantEnergyMonthPerDay = defineAction({
  name: 'queryPlantEnergyMonthPerDay',
  summary: 'Plant energy (kWh) per day of a month, the whole month ("0.0000" for gaps).',
  params: actionParams({ plantid: plantId(), date: wireMonth() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ perday: ValTs[] }>(),
});

export const queryPlantEnergyYearPerMonth = defineAction({
  name: 'queryPlantEnergyYearPerMonth',
  summary: 'Plant energy (kWh) per month of a year, 12 values.',
  params: actionParams({ plantid: plantId(), date: wireYear() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ permonth: ValTs[] }>(),
});

export const queryPlantEnergyTotalPerYear = defineAction({
  name: 'queryPlantEnergyTotalPerYear',
  summary: 'Plant energy (kWh) per year from the install year to this year.',
  params: actionParams({ plantid: plantId() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ peryear: ValTs[] }>(),
});

export const queryPlantEnergyDay = defineAction({
  name: 'queryPlantEnergyDay',
  summary: 'Plant energy (kWh) of one day (default today).',
  params: actionParams({ plantid: plantId(), date: wireDay().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ energy: string }>(),
});

export const queryPlantEnergyMonth = defineAction({
  name: 'queryPlantEnergyMonth',
  summary: 'Plant energy (kWh) of one month (default this month).',
  params: actionParams({ plantid: plantId(), date: wireMonth().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ energy: string }>(),
});

export const queryPlantEnergyYear = defineAction({
  name: 'queryPlantEnergyYear',
  summary: 'Plant energy (kWh) of one year (default this year).',
  params: actionParams({ plantid: plantId(), date: wireYear().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ energy: string }>(),
});

export const queryPlantEnergyTotal = defineAction({
  name: 'queryPlantEnergyTotal',
  summary: 'Plant energy (kWh) since commissioning, plus the energy offset.',
  params: actionParams({ plantid: plantId(), date: z.string().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ energy: string }>(),
});

export const queryPlantActiveOuputPowerCurrent = defineAction({
  name: 'queryPlantActiveOuputPowerCurrent',
  summary: 'Plant output power now (kW), from the latest values of its devices.',
  params: actionParams({ plantid: plantId(), date: z.string().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ outputPower: string }>(),
});

/** A plant pin of the map views. */
export interface PlantMapPin {
  pid: number;
  name: string;
  status: number;
  lon: string;
  lat: string;
  /** kW. */
  outputPower: string;
  nominalPower: string;
  /** Today's energy, kWh. */
  energy: string;
  country: string;
  city: string;
  address: string;
}

export const webQueryPlantsMap = defineAction({
  name: 'webQueryPlantsMap',
  summary: 'Plants with coordinates, status and current power for the map views (at most 5000).',
  params: actionParams({
    status: wireInt().optional(),
    plantName: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; plant: PlantMapPin[] }>(),
});
