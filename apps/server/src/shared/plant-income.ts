/**
 * One income on every screen (issue 15, docs/money/tariffs.md "One income on every screen"): the
 * shape in which the tariffs module hands a plant's generation income to the screens that show it
 * next to their own energy figures (fleet home, plant list and page, device statistics, reports).
 * Free of any module so that every module may use it.
 */

/** Money per currency (never summed across currencies). */
export type Money = Map<string, number>;

/** Generation income (kWh × the tariff in force when measured) and the kWh the tariff path measured. */
export interface Measured {
  kwh: number;
  income: Money;
}

export interface PlantGenIncome {
  /** Σ frozen days + the open days computed now + the opening balance, per currency. */
  total: Money;
  /** Today (the plant's local day), computed now. */
  today: Measured;
  /** The price of one kWh generated now: the tariff in force, with its time-of-use period of this hour. */
  now: { currency: string; price: number };
}

export interface PlantIncomeSource {
  /**
   * Generation income of plants. `lifetime`: the plant's lifetime generated kWh as the screens show it
   * (lifetime counters + energy offset); what the tariff days did not measure is the opening balance.
   * `scope` (the access module's TelemetryScope of the caller, covering every plant passed): the frozen
   * sums are then read by one query over the scope instead of over the plants' ids.
   */
  generation(
    plants: ReadonlyArray<{ id: number; tz: number; lifetime: number }>,
    scope?: object,
  ): Promise<Map<number, PlantGenIncome>>;
  /**
   * Generation income of a plant's local days [fromDay, toDay] grouped by bucket key (day YYYYMMDD,
   * month YYYYMM, year YYYY, or 0 for 'none'): frozen days plus the open days computed now. `fallback`
   * is the base price of the tariff in force at the bucket's first day (for a bucket the tariff days did
   * not measure).
   */
  buckets(
    projectId: number,
    tz: number,
    fromDay: number,
    toDay: number,
    bucket: 'day' | 'month' | 'year' | 'none',
  ): Promise<Map<number, Measured & { fallback: { currency: string; price: number } }>>;
}

/**
 * The money of `kwh` (a rollup figure a screen shows) at the average price of the kWh the tariff
 * path measured over the same period: the tariff figure itself when both measured the same energy,
 * else scaled by kwh / measured kWh; nothing measured: `kwh` × `fallback`'s price. At a constant
 * price this is kwh × price; a price change never moves a period that ended before it.
 */
export function priceLike(
  kwh: number,
  measured: Measured | undefined,
  fallback: { currency: string; price: number } | undefined,
): Money {
  if (measured && measured.kwh > 0) {
    if (Math.abs(measured.kwh - kwh) < 1e-9) return new Map(measured.income);
    return new Map([...measured.income].map(([c, v]) => [c, (v * kwh) / measured.kwh]));
  }
  if (!fallback || !kwh) return new Map();
  return new Map([[fallback.currency, kwh * fallback.price]]);
}

/** Average generation price of a plant's lifetime (total income in `currency` / lifetime kWh); 0 when none. */
export function lifetimePrice(g: PlantGenIncome | undefined, lifetime: number, currency: string): number {
  if (!g || !(lifetime > 0)) return g?.now.currency === currency ? g.now.price : 0;
  return (g.total.get(currency) ?? 0) / lifetime;
}
