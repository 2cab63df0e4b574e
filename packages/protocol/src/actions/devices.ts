import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import type { ValTs } from './plants.js';
import {
  deviceList,
  deviceTuple,
  ENERGY_CHART_VIEWS,
  wireDay,
  type DeviceTuple,
  type EnergyChartView,
} from './telemetry-params.js';
import type { ChartFieldWire, EnergyFlow, SPLastData } from '../devices/wire.js';
import type { EnergyCounterName, PowerNode } from '../devices/types.js';
import type { FigureKey, FigureUnit } from '../devices/figures.js';

/**
 * A key figure of a device (devices/figures.ts): the same figure has the same value in every
 * reply that carries it (list rows, statistics). `val` has 4 decimals in `unit`; "--" when not
 * measured. `panel`: the 1-based panel number of a `panelPower` figure.
 */
export interface DeviceFigureWire {
  key: FigureKey;
  unit: FigureUnit;
  val: string;
  panel?: number;
}

/**
 * Device reads (wire-protocol.md §6 "Devices", without the control actions). A device is named
 * by its tuple `pn, devcode, devaddr, sn`; Sunwatch also finds it by `sn` alone, or by `pn` +
 * `devaddr` (+ `devcode`). Another tenant's device → err 258, exactly as an unknown one.
 */

// ------------------------------------------------------------------------------------------
// Lists
// ------------------------------------------------------------------------------------------

export interface WebDeviceRow {
  uid: number;
  usr: string;
  pid: number;
  pname: string;
  sn: string;
  pn: string;
  status: number;
  devalias: string;
  brand: number;
  devtype: number;
  /** Spec §3 device type: 0 other ES, 1 off-grid, 2 inverter, 3 ES integrated. */
  deviceType: number;
  collalias: string;
  devaddr: number;
  devcode: number;
  model: string;
  /** Current output power, kW. */
  outpower: string;
  energyToday: string;
  energyYear: string;
  energyTotal: string;
  /** Today's income in `currency`. */
  profitToday: string;
  currency: string;
  /** Followed by the caller. */
  focus: boolean;
  /** Last data time in the plant's timezone ("" when none). */
  lts: string;
  /** Sunwatch: the key figures of the device's type (battery SOC, meter import/export, …). */
  figures: DeviceFigureWire[];
}

export const webQueryDeviceEs = defineAction({
  name: 'webQueryDeviceEs',
  summary: 'Device list: pid/pn/sn/devtype/devcode filters, `search` (sn, alias or datalogger PN), status; paged.',
  params: actionParams({
    page: page(),
    pagesize: pageSize(),
    pid: wireInt().optional(),
    pn: z.string().max(64).optional(),
    sn: z.string().max(64).optional(),
    devtype: wireInt().optional(),
    devcode: wireInt().optional(),
    /** Vendor filter: the raw status code (0 online, 1 offline, 2 fault, …). */
    status: wireInt().optional(),
    /** Web list filter: 0 all, n → status n−1 (statusFromListFilter). */
    statusFilter: wireInt().min(0).optional(),
    /** Fuzzy device SN / alias or datalogger PN. */
    search: z.string().max(64).optional(),
    /** 1: only the devices the caller follows. */
    focus: wireInt().optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; device: WebDeviceRow[] }>(),
});

/** One row of the operator's platform device list (queryFleetDevices). */
export interface FleetDeviceRow extends DeviceTuple {
  devalias: string;
  status: number;
  model: string;
  /** The plant owner (0 / "" when the datalogger is not bound). */
  uid: number;
  usr: string;
  /** The manufacturer of the datalogger (0 / "" when none). */
  vendorUid: number;
  vendorUsr: string;
  /** The datalogger's alias. */
  collalias: string;
  pid: number;
  pname: string;
}

export const queryFleetDevices = defineAction({
  name: 'queryFleetDevices',
  summary:
    "Sunwatch, operator only: every device of the platform in id order; `search` matches the datalogger PN, the device SN or alias, the owner's username (fuzzy) and the devcode (exact, when a number); `statusFilter` 0 all, n → status n−1; `vendorUid` one manufacturer; paged.",
  params: actionParams({
    search: z.string().max(64).optional(),
    statusFilter: wireInt().min(0).optional(),
    vendorUid: wireInt().optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; device: FleetDeviceRow[] }>(),
});

export interface DeviceInfoRow extends DeviceTuple {
  alias: string;
  /** Seconds east of UTC. */
  timezone: number;
  status: number;
  uid: number;
  pid: number;
  devtype: number;
  /** Sunwatch: the plant's name ("" when the device has no plant). */
  pname: string;
}

const batchDeviceParams = actionParams({ ...deviceTuple, device: deviceList().optional() });

export const queryDeviceInfo = defineAction({
  name: 'queryDeviceInfo',
  summary: 'Device records by tuple, `device=pn,devcode,devaddr,sn;…` (≤ 256, fails fast) or sn.',
  params: batchDeviceParams,
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ device: DeviceInfoRow[] }>(),
});

export const queryDeviceStatus = defineAction({
  name: 'queryDeviceStatus',
  summary: 'Device status by tuple, `device=…;…` (≤ 256, fails fast) or sn.',
  params: batchDeviceParams,
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ device: Array<DeviceTuple & { status: number }> }>(),
});

// ------------------------------------------------------------------------------------------
// Real-time values (device_latest)
// ------------------------------------------------------------------------------------------

const tupleParams = <S extends z.ZodRawShape = Record<never, never>>(extra?: S) =>
  actionParams({ ...deviceTuple, ...(extra ?? ({} as S)) });

export const queryDeviceLastData = defineAction({
  name: 'queryDeviceLastData',
  summary: 'Latest values as a flat list: dat[0] the id, dat[1] the timestamp; err 12 before any data.',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<Array<{ title: string; val: string; unit?: string }>>(),
});

export const querySPDeviceLastData = defineAction({
  name: 'querySPDeviceLastData',
  summary: 'Latest values in the gd_/sy_/pv_/bt_/bc_ panels; err 12 before any data.',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<SPLastData>(),
});

export const webQueryDeviceEnergyFlowEs = defineAction({
  name: 'webQueryDeviceEnergyFlowEs',
  summary: 'Energy-flow diagram of the latest values (powers in kW, status −1/0/1).',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<EnergyFlow>(),
});

export const queryDeviceParsEs = defineAction({
  name: 'queryDeviceParsEs',
  summary: 'Latest values of the visible chart fields, 4 decimals in the chart unit.',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ parameter: Array<{ par: string; name: string; val: string; unit: string }> }>(),
});

export const queryDeviceChartsFieldsEs = defineAction({
  name: 'queryDeviceChartsFieldsEs',
  summary: 'Chartable fields of the device (vendor spellings uint/visable).',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<ChartFieldWire[]>(),
});

export const querySPKeyParameters = defineAction({
  name: 'querySPKeyParameters',
  summary: 'Key parameters the device supports (PV_OUTPUT_POWER, …).',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ keys: string[] }>(),
});

export const queryDeviceRealLastData = defineAction({
  name: 'queryDeviceRealLastData',
  summary: 'Latest value of each chart field, keyed by field id ({val, ts}); err 12 when offline.',
  params: tupleParams({ date: z.string().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<Record<string, ValTs>>(),
});

// ------------------------------------------------------------------------------------------
// Day curves and tables (samples)
// ------------------------------------------------------------------------------------------

export const queryDeviceChartFieldDetailData = defineAction({
  name: 'queryDeviceChartFieldDetailData',
  summary: 'One chart field over one local day ([{key: ts, val}]); a range over several days → err 6.',
  params: tupleParams({
    field: z.string().min(1).max(64),
    precision: wireInt().min(0).max(6).default(4),
    sdate: z.string().min(10),
    edate: z.string().min(10).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<Array<{ key: string; val: string }>>(),
});

export const querySPDeviceKeyParameterOneDay = defineAction({
  name: 'querySPDeviceKeyParameterOneDay',
  summary: 'One key parameter (GRID/PV/LOAD/BATTERY_ACTIVE_POWER, BATTERY_VOLTAGE, BATTERY_SOC) over a day.',
  params: tupleParams({ parameter: z.string().min(1).max(64), date: wireDay() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ detail: ValTs[] }>(),
});

export interface DeviceDayTable {
  title: Array<{ title: string; unit?: string }>;
  row: Array<{ realtime: boolean; field: string[] }>;
}

export const queryDeviceDataOneDay = defineAction({
  name: 'queryDeviceDataOneDay',
  summary: 'Every sample of a local day as rows; field[0] id, field[1] time; err 12 when none.',
  params: tupleParams({ date: wireDay() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<DeviceDayTable>(),
});

export const queryDeviceDataOneDayPaging = defineAction({
  name: 'queryDeviceDataOneDayPaging',
  summary: 'queryDeviceDataOneDay paged (pagesize ≤ 50), newest first, with title[].isDisplay.',
  params: tupleParams({ date: wireDay(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    total: number;
    page: number;
    pagesize: number;
    title: Array<{ title: string; unit?: string; isDisplay: boolean }>;
    row: Array<{ realtime: boolean; field: string[] }>;
  }>(),
});

export const queryPlantDeviceChartsFieldsByType = defineAction({
  name: 'queryPlantDeviceChartsFieldsByType',
  summary: 'Chart fields of a devcode used in a plant: [{optional, name, uint, order}].',
  params: actionParams({
    plantid: wireInt().min(1),
    devtype: wireInt().optional(),
    devcode: wireInt(),
    type: wireInt().optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<Array<{ optional: string; name: string; uint: string; order: number }>>(),
});

export const queryDeviceActiveOuputPowerOneDay24Hour = defineAction({
  name: 'queryDeviceActiveOuputPowerOneDay24Hour',
  summary: 'Device output power (kW) over a local day at upload cadence.',
  params: tupleParams({ date: wireDay() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<ValTs[]>(),
});

// ------------------------------------------------------------------------------------------
// Web extras: statistics, energy charts, parameter analysis, follow
// ------------------------------------------------------------------------------------------

/** kWh (or income) of today / this month / this year / in total, as 4-decimal strings. */
export interface PeriodFigures {
  today: string;
  month: string;
  year: string;
  total: string;
}

export interface DeviceStatisticDat {
  currency: string;
  /** Energy kinds the device measures (its definition's counters). */
  kinds: EnergyCounterName[];
  /** kWh per kind; "0.0000" for kinds the device does not measure. */
  energy: Record<EnergyCounterName, PeriodFigures>;
  /** Generated energy × the plant's unitProfit. */
  income: PeriodFigures;
  /** Last data time ("" when none). */
  lts: string;
  /** Sunwatch: the key figures of the device's type, as in its list row. */
  figures: DeviceFigureWire[];
  /**
   * Sunwatch: energy per kind since the platform first saw the device (sum of its day energies),
   * next to the lifetime `total` of the device's own counter, which includes energy from before.
   */
  sincePlatform: Record<EnergyCounterName, string>;
  /** First day with data on the platform ("YYYY-MM-DD", "" when none). */
  firstDay: string;
}

export const webQueryDeviceStatistic = defineAction({
  name: 'webQueryDeviceStatistic',
  summary: 'Device statistical overview: today/month/year/total of each energy kind and income.',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<DeviceStatisticDat>(),
});

export interface DeviceEnergyChartDat {
  view: EnergyChartView;
  /** Bucket timestamps: hours of the day / days of the month / months / years. */
  ts: string[];
  /** One series per measured kind, values (kWh) aligned with `ts`. */
  series: Array<{ kind: EnergyCounterName; val: string[] }>;
  /** Income per bucket (generated × unitProfit). */
  income: string[];
  currency: string;
  /**
   * Sunwatch, day view only: the power of each node the device has (kW, Sunwatch sign: grid +
   * import, battery + discharge), one point per sample as measured, in the plant's local time.
   */
  power?: Array<{ node: PowerNode; points: ValTs[] }>;
}

export const webQueryDeviceEnergyChart = defineAction({
  name: 'webQueryDeviceEnergyChart',
  summary: 'Device energy per hour (day view), per day (month), per month (year) or per year (total).',
  params: tupleParams({
    view: z.enum(ENERGY_CHART_VIEWS),
    /** YYYY-MM-DD (day), YYYY-MM (month), YYYY (year); default the current period. */
    date: z.string().max(19).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<DeviceEnergyChartDat>(),
});

export interface ParamCurve {
  field: string;
  name: string;
  unit: string;
  data: Array<{ ts: string; val: string }>;
}

export const webQueryDeviceParamCurves = defineAction({
  name: 'webQueryDeviceParamCurves',
  summary:
    'Parameter analysis: 1–7 chart fields (≤ 4 with mode=compare, ≤ 2 units) over sdate..edate (≤ 31 days); err 6 with the rule.',
  params: tupleParams({
    fields: z
      .string()
      .min(1)
      .transform((s) =>
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    sdate: wireDay(),
    edate: wireDay(),
    mode: z.enum(['display', 'compare']).default('display'),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ curves: ParamCurve[] }>(),
});

export const focusDevice = defineAction({
  name: 'focusDevice',
  summary: 'Follow a device (shown with focus=true in webQueryDeviceEs).',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const unfocusDevice = defineAction({
  name: 'unfocusDevice',
  summary: 'Stop following a device.',
  params: tupleParams(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});
