import { z } from 'zod';

/**
 * Issue 15, tariffs and income (docs/money/tariffs.md). A plant's prices are effective-dated
 * tariffs: each applies from its start instant until the next one starts, so a price change never
 * rewrites the past. A tariff may carry time-of-use periods (peak, off-peak …): weekdays × hours of
 * the plant's local time with their own prices; hours no period covers use the tariff's base prices.
 */

/** The six prices of a tariff, named as addPlant/editPlant's `profit.*` parameters. */
export const TARIFF_PRICE_KEYS = [
  'unitProfit',
  'soldProfit',
  'selfProfit',
  'purchProfit',
  'consProfit',
  'feedProfit',
] as const;
export type TariffPriceKey = (typeof TARIFF_PRICE_KEYS)[number];
export type TariffPrices = Record<TariffPriceKey, number>;

/** Period kinds (a label for the UI; the prices are what counts). */
export const TOU_KINDS = ['peak', 'shoulder', 'offpeak', 'superoffpeak', 'custom'] as const;
export type TouKind = (typeof TOU_KINDS)[number];

/** At most this many periods per tariff; a name of at most TOU_NAME_MAX characters. */
export const TOU_PERIODS_MAX = 24;
export const TOU_NAME_MAX = 32;
/** Highest price accepted per kWh (any currency). */
export const TARIFF_PRICE_MAX = 1_000_000;

/**
 * One time-of-use period: `weekdays` 0 (Sunday) .. 6 (Saturday), local hours [from, to) with
 * 0 ≤ from < to ≤ 24, and the prices that differ from the tariff's base (absent: the base price).
 */
export interface TouPeriod {
  kind: TouKind;
  name: string;
  weekdays: number[];
  from: number;
  to: number;
  prices: Partial<TariffPrices>;
}

const priceValue = z.coerce.number().min(0).max(TARIFF_PRICE_MAX);

export const touPeriodSchema = z.object({
  kind: z.enum(TOU_KINDS),
  name: z.string().trim().max(TOU_NAME_MAX).default(''),
  weekdays: z.array(z.number().int().min(0).max(6)).min(1).max(7),
  from: z.number().int().min(0).max(23),
  to: z.number().int().min(1).max(24),
  prices: z.partialRecord(z.enum(TARIFF_PRICE_KEYS), priceValue).default({}),
});

/** Why a period list is refused (the first problem found). */
export type TouProblem = 'hours' | 'weekdays' | 'overlap' | 'count';
export interface TouIssue {
  index: number;
  problem: TouProblem;
  /** With `overlap`: the earlier period it overlaps. */
  other?: number;
}

/**
 * Checks a period list beyond its shape: at most TOU_PERIODS_MAX periods, from < to, weekdays
 * without repeats, and no two periods sharing a weekday-hour. Null when valid.
 */
export function touIssue(periods: ReadonlyArray<Pick<TouPeriod, 'weekdays' | 'from' | 'to'>>): TouIssue | null {
  if (periods.length > TOU_PERIODS_MAX) return { index: TOU_PERIODS_MAX, problem: 'count' };
  const owner = new Map<number, number>();
  for (let i = 0; i < periods.length; i++) {
    const p = periods[i]!;
    const hoursOk = Number.isInteger(p.from) && Number.isInteger(p.to) && p.from >= 0 && p.to <= 24 && p.from < p.to;
    if (!hoursOk) return { index: i, problem: 'hours' };
    const days = new Set(p.weekdays);
    if (
      days.size !== p.weekdays.length ||
      days.size === 0 ||
      p.weekdays.some((d) => !Number.isInteger(d) || d < 0 || d > 6)
    ) {
      return { index: i, problem: 'weekdays' };
    }
    for (const d of days) {
      for (let h = p.from; h < p.to; h++) {
        const slot = d * 24 + h;
        const prev = owner.get(slot);
        if (prev !== undefined) return { index: i, problem: 'overlap', other: prev };
        owner.set(slot, i);
      }
    }
  }
  return null;
}

/** The period covering a local weekday and hour, if any. */
export function touPeriodAt<P extends Pick<TouPeriod, 'weekdays' | 'from' | 'to'>>(
  periods: readonly P[],
  weekday: number,
  hour: number,
): P | undefined {
  return periods.find((p) => p.weekdays.includes(weekday) && hour >= p.from && hour < p.to);
}

/** The prices in force in a period (its own, else the base). */
export function touPrices(base: TariffPrices, period: Pick<TouPeriod, 'prices'> | undefined): TariffPrices {
  if (!period) return base;
  const out = { ...base };
  for (const k of TARIFF_PRICE_KEYS) {
    const v = period.prices[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * Energy flows of an income figure (kWh) and what each earns or costs:
 * - generation × unitProfit (the plant's classic "income"),
 * - sold (exported) × soldProfit, plus sold × feedProfit (a feed-in premium on exported energy),
 * - self-use (generated − sold, ≥ 0, per hour) × selfProfit (the bill it avoids),
 * - bought (imported) × purchProfit (a cost),
 * - consumption × consProfit (its value, shown, not netted: bought energy is already a cost).
 * `earnings` = sold + feed-in + self-use; `net` = earnings − purchase cost.
 */
export interface IncomeFigure {
  currency: string;
  generated: string;
  sold: string;
  selfUse: string;
  bought: string;
  used: string;
  generationIncome: string;
  soldIncome: string;
  feedIncome: string;
  selfUseIncome: string;
  purchaseCost: string;
  consumptionValue: string;
  earnings: string;
  net: string;
}
