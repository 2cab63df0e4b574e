import { touPeriodAt, touPrices, type IncomeFigure, type TariffPrices, type TouPeriod } from '@sunwatch/protocol';
import { localDay } from '../../shared/local-time.js';

/**
 * Income arithmetic of issue 15 (docs/money/tariffs.md), free of the database.
 *
 * Energy between two samples of a device (the growth of a cumulative counter) is spread evenly
 * over the time between them, cut at the plant's local hour boundaries and at tariff starts. Each
 * piece lands in a bucket (local hour × tariff), priced with that tariff's time-of-use period for
 * the hour's weekday and hour (else its base prices). A counter that went backwards (reset) adds
 * nothing for that step and counts on from its new value.
 */

export const HOUR_MS = 3_600_000;

export type Flow = 'generated' | 'sold' | 'bought' | 'used';
export const FLOWS: readonly Flow[] = ['generated', 'sold', 'bought', 'used'];

export interface TariffRec {
  id: number;
  /** Epoch ms (0: since always). */
  from: number;
  currency: string;
  prices: TariffPrices;
  periods: TouPeriod[];
}

/** Sums of one currency: kWh per flow and money per component (plain numbers). */
export interface IncomeAcc {
  generated: number;
  sold: number;
  selfUse: number;
  bought: number;
  used: number;
  genIncome: number;
  soldIncome: number;
  feedIncome: number;
  selfIncome: number;
  buyCost: number;
  useValue: number;
}

export function zeroAcc(): IncomeAcc {
  return {
    generated: 0,
    sold: 0,
    selfUse: 0,
    bought: 0,
    used: 0,
    genIncome: 0,
    soldIncome: 0,
    feedIncome: 0,
    selfIncome: 0,
    buyCost: 0,
    useValue: 0,
  };
}

export function addAcc(into: IncomeAcc, a: IncomeAcc): void {
  for (const k of Object.keys(into) as Array<keyof IncomeAcc>) into[k] += a[k];
}

/** The tariff in force at `ts` (tariffs sorted by `from` ascending; the first covers everything before it). */
export function tariffAt(tariffs: readonly TariffRec[], ts: number): TariffRec {
  let t = tariffs[0]!;
  for (const x of tariffs) {
    if (x.from <= ts) t = x;
    else break;
  }
  return t;
}

type Energy = Record<Flow, number>;

/** Energy per (local hour start, tariff) of one plant. */
export class HourBuckets {
  readonly map = new Map<string, { hour: number; tariff: TariffRec; e: Energy }>();
  constructor(
    private readonly tariffs: readonly TariffRec[],
    private readonly tz: number,
  ) {}

  /** Spreads `kwh` of `flow` evenly over (t0, t1]. */
  spread(flow: Flow, kwh: number, t0: number, t1: number): void {
    if (!(kwh > 0)) return;
    if (t1 <= t0) {
      this.add(flow, kwh, t1 - 1);
      return;
    }
    const len = t1 - t0;
    let a = t0;
    while (a < t1) {
      const off = this.tz * 1000;
      const nextHour = Math.floor((a + off) / HOUR_MS) * HOUR_MS + HOUR_MS - off;
      let b = Math.min(nextHour, t1);
      for (const t of this.tariffs) if (t.from > a && t.from < b) b = t.from;
      this.add(flow, (kwh * (b - a)) / len, a);
      a = b;
    }
  }

  private add(flow: Flow, kwh: number, at: number): void {
    const off = this.tz * 1000;
    const hour = Math.floor((at + off) / HOUR_MS) * HOUR_MS - off;
    const tariff = tariffAt(this.tariffs, at);
    const key = `${hour}:${tariff.id}`;
    let b = this.map.get(key);
    if (!b) this.map.set(key, (b = { hour, tariff, e: { generated: 0, sold: 0, bought: 0, used: 0 } }));
    b.e[flow] += kwh;
  }

  /** Income per local day per currency. */
  byDay(): Map<number, Map<string, IncomeAcc>> {
    const out = new Map<number, Map<string, IncomeAcc>>();
    for (const b of this.map.values()) {
      const local = new Date(b.hour + this.tz * 1000);
      const period = touPeriodAt(b.tariff.periods, local.getUTCDay(), local.getUTCHours());
      const acc = priced(b.e, touPrices(b.tariff.prices, period));
      const day = localDay(b.hour, this.tz);
      let m = out.get(day);
      if (!m) out.set(day, (m = new Map()));
      const cur = m.get(b.tariff.currency);
      if (cur) addAcc(cur, acc);
      else m.set(b.tariff.currency, acc);
    }
    return out;
  }
}

/** The money of some energy at some prices (self-use = generated − sold, never below 0). */
export function priced(e: Energy, p: TariffPrices): IncomeAcc {
  const selfUse = Math.max(0, e.generated - e.sold);
  return {
    generated: e.generated,
    sold: e.sold,
    selfUse,
    bought: e.bought,
    used: e.used,
    genIncome: e.generated * p.unitProfit,
    soldIncome: e.sold * p.soldProfit,
    feedIncome: e.sold * p.feedProfit,
    selfIncome: selfUse * p.selfProfit,
    buyCost: e.bought * p.purchProfit,
    useValue: e.used * p.consProfit,
  };
}

/**
 * Counter readings of one device in time order → the growth between consecutive readings spread
 * into `buckets`. Pass the last reading before the range and the first after it too, so the
 * intervals crossing the range's ends are split at them (the caller keeps the days of its range).
 */
export function spreadReadings(
  buckets: HourBuckets,
  flow: Flow,
  readings: ReadonlyArray<{ ts: number; v: number }>,
): void {
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    const d = b.v - a.v;
    if (d > 0) buckets.spread(flow, d, a.ts, b.ts);
  }
}

const money = (x: number) => (Math.round(x * 1e4) / 1e4).toFixed(4);
const kwh = (x: number) => (Math.round(x * 1e4) / 1e4).toFixed(4);

/** An accumulator on the wire (strings with 4 decimals, as the plants module writes money). */
export function figureWire(currency: string, a: IncomeAcc): IncomeFigure {
  const earnings = a.soldIncome + a.feedIncome + a.selfIncome;
  return {
    currency,
    generated: kwh(a.generated),
    sold: kwh(a.sold),
    selfUse: kwh(a.selfUse),
    bought: kwh(a.bought),
    used: kwh(a.used),
    generationIncome: money(a.genIncome),
    soldIncome: money(a.soldIncome),
    feedIncome: money(a.feedIncome),
    selfUseIncome: money(a.selfIncome),
    purchaseCost: money(a.buyCost),
    consumptionValue: money(a.useValue),
    earnings: money(earnings),
    net: money(earnings - a.buyCost),
  };
}
