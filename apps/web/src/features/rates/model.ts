/**
 * Pure helpers of the rate page (issue 15): the tariff form's values ↔ the wire, the week grid of
 * time-of-use periods, money formatting. Period rules are the protocol's (`touIssue`).
 */
import {
  TARIFF_PRICE_KEYS,
  touIssue,
  touPeriodAt,
  type TariffPriceKey,
  type TariffPrices,
  type TouIssue,
  type TouKind,
  type TouPeriod,
} from '@sunwatch/protocol';

/** Monday first (the grid's rows); values are the protocol's 0 = Sunday .. 6 = Saturday. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
export const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The prices a period may override in the form (the rest follow the base). */
export const PERIOD_PRICE_KEYS: readonly TariffPriceKey[] = ['unitProfit', 'purchProfit', 'soldProfit', 'selfProfit'];

export const KIND_COLORS: Record<TouKind, string> = {
  peak: '#f5222d',
  shoulder: '#fa8c16',
  offpeak: '#52c41a',
  superoffpeak: '#13c2c2',
  custom: '#722ed1',
};

/** A period as the form edits it (prices as optional numbers). */
export interface PeriodForm {
  kind: TouKind;
  name?: string;
  weekdays: number[];
  from: number;
  to: number;
  prices?: Partial<Record<TariffPriceKey, number | null>>;
}

export interface TariffFormValues {
  /** "YYYY-MM-DD"; undefined = immediately. */
  from?: string;
  currency: string;
  prices: Partial<Record<TariffPriceKey, number | null>>;
  periods: PeriodForm[];
}

/** Form periods → protocol periods (empty overrides dropped). */
export function periodsOf(list: readonly PeriodForm[]): TouPeriod[] {
  return list.map((p) => {
    const prices: Partial<TariffPrices> = {};
    for (const k of TARIFF_PRICE_KEYS) {
      const v = p.prices?.[k];
      if (v !== undefined && v !== null && Number.isFinite(Number(v))) prices[k] = Number(v);
    }
    return {
      kind: p.kind,
      name: (p.name ?? '').trim(),
      weekdays: [...p.weekdays].sort(),
      from: p.from,
      to: p.to,
      prices,
    };
  });
}

/** The first problem of the form's periods (protocol rules), or null. */
export function periodsIssue(list: readonly PeriodForm[]): TouIssue | null {
  return touIssue(list.map((p) => ({ weekdays: p.weekdays ?? [], from: Number(p.from), to: Number(p.to) })));
}

/** The wire parameters of a tariff form (prices left empty are not sent: copied from the tariff in force). */
export function tariffParams(v: TariffFormValues): Record<string, string | number> {
  const out: Record<string, string | number> = { currency: v.currency, periods: JSON.stringify(periodsOf(v.periods)) };
  if (v.from) out.from = v.from;
  for (const k of TARIFF_PRICE_KEYS) {
    const x = v.prices[k];
    if (x !== undefined && x !== null && Number.isFinite(Number(x))) out[k] = Number(x);
  }
  return out;
}

/** The grid cell of a weekday and hour: the index of the period covering it, else -1. */
export function gridCell(
  periods: ReadonlyArray<Pick<TouPeriod, 'weekdays' | 'from' | 'to'>>,
  weekday: number,
  hour: number,
): number {
  const p = touPeriodAt(periods, weekday, hour);
  return p ? periods.indexOf(p) : -1;
}

/** A decimal money string in a currency, locale-aware ("€2.10"); the code when Intl does not know it. */
export function formatMoney(value: string | number, currency: string, locale: string, digits = 2): string {
  const n = Number(value);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: Math.max(digits, 2),
    }).format(n);
  } catch {
    return `${n.toFixed(digits)} ${currency}`;
  }
}

/** A unit price (up to 4 decimals). */
export function formatPrice(value: number, currency: string, locale: string): string {
  const n = Number(value);
  const digits = Math.min(4, Math.max(2, (String(n).split('.')[1] ?? '').length));
  return formatMoney(n, currency, locale, digits);
}
