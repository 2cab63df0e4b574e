import { z } from 'zod';
import { currencySchema } from '../rules.js';
import { TARIFF_PRICE_MAX, touPeriodSchema, type IncomeFigure, type TariffPrices, type TouPeriod } from '../tariffs.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result } from './define.js';
import { wireDay, wireYear } from './telemetry-params.js';

/**
 * Issue 15, tariffs and income (docs/money/tariffs.md; protocol types in ../tariffs.ts). A plant's
 * tariff history, future tariffs added / edited / deleted (a tariff that has started is immutable:
 * err 8), and the plant's income per day / month / year / total computed with the tariff in force
 * when each kWh was measured. Reads: any account that sees the plant; writes: the roles that may
 * edit plants (owner, manufacturer, distributor, operator) within their scope. A plant outside the
 * caller's scope answers 260 like a missing one.
 */

/** A tariff on the wire. Times are "YYYY-MM-DD HH:MM:SS" in the plant's time zone. */
export interface TariffWire {
  id: number;
  pid: number;
  /** Start (inclusive); "" for the plant's first tariff (it covers everything before the next). */
  from: string;
  /** Epoch ms of the start (0: since always). */
  fromMs: number;
  /** Start of the next tariff ("" while it is the newest). */
  until: string;
  currency: string;
  prices: TariffPrices;
  periods: TouPeriod[];
  /** 'past' (ended), 'current' (in force now) or 'future' (editable and deletable). */
  state: 'past' | 'current' | 'future';
  createdAt: string;
  /** Who created it ('' for the tariff taken over from the plant's prices). */
  createdBy: string;
}

const plantId = () => wireInt().min(1);
const price = () => z.coerce.number().min(0).max(TARIFF_PRICE_MAX).optional();
/** The periods as JSON text (`[]` = none); bad JSON or a bad shape is malformed (6). */
const periodsParam = () =>
  z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    }, z.array(touPeriodSchema).max(64))
    .optional();

const tariffFields = {
  currency: (currencySchema as unknown as z.ZodType<string>).optional(),
  unitProfit: price(),
  soldProfit: price(),
  selfProfit: price(),
  purchProfit: price(),
  consProfit: price(),
  feedProfit: price(),
  periods: periodsParam(),
};

export const queryPlantTariffs = defineAction({
  name: 'queryPlantTariffs',
  summary: "A plant's tariffs, newest first, paged; the first page also names the one in force now.",
  params: actionParams({ plantid: plantId(), page: page(), pagesize: pageSize(100) }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    pid: number;
    /** Seconds east of UTC. */
    timezone: number;
    total: number;
    page: number;
    pagesize: number;
    current: TariffWire;
    tariffs: TariffWire[];
    /** Whether the caller may add or change tariffs of this plant. */
    canEdit: boolean;
  }>(),
});

export const addPlantTariff = defineAction({
  name: 'addPlantTariff',
  summary:
    'Add a tariff: from `from` (a local date after today; absent: from now). Prices, currency and periods not passed are copied from the tariff in force at that time; periods must not overlap (6).',
  params: actionParams({ plantid: plantId(), from: wireDay().optional(), ...tariffFields }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_edit' },
  mutates: true,
  result: result<{ id: number }>(),
});

export const editPlantTariff = defineAction({
  name: 'editPlantTariff',
  summary: 'Edit a future tariff (one that has started: 8); `from` must stay after today.',
  params: actionParams({ id: wireInt().min(1), from: wireDay().optional(), ...tariffFields }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delPlantTariff = defineAction({
  name: 'delPlantTariff',
  summary: 'Delete a future tariff (one that has started: 8).',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'project_edit' },
  mutates: true,
  result: result<undefined>(),
});

/** One month of queryPlantIncome's chart, per currency. */
export interface IncomeMonth extends IncomeFigure {
  /** "YYYY-MM". */
  month: string;
}

export const queryPlantIncome = defineAction({
  name: 'queryPlantIncome',
  summary:
    "A plant's income today, this month, this year and in total (its local calendar), and per month of `year` (default this year); one figure per currency, never summed across currencies.",
  params: actionParams({ plantid: plantId(), year: wireYear().optional() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    pid: number;
    /** The currency of the tariff in force now. */
    currency: string;
    /** The plant's local date today, "YYYY-MM-DD". */
    date: string;
    today: IncomeFigure[];
    month: IncomeFigure[];
    year: IncomeFigure[];
    total: IncomeFigure[];
    /** The chart's year, "YYYY". */
    chartYear: string;
    months: IncomeMonth[];
  }>(),
});

export const queryFleetIncome = defineAction({
  name: 'queryFleetIncome',
  summary:
    'Income of every plant the caller sees over closed days (frozen figures), per currency: this month, this year and total.',
  params: actionParams({}),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    currencies: Array<{
      currency: string;
      plants: number;
      month: IncomeFigure;
      year: IncomeFigure;
      total: IncomeFigure;
    }>;
  }>(),
});
