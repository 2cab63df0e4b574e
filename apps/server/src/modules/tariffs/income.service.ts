import { TARIFF_PRICE_KEYS, touPeriodAt, touPrices, type TariffPrices } from '@sunwatch/protocol';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { Measured, PlantGenIncome, PlantIncomeSource } from '../../shared/plant-income.js';
import { addDays, dayStartMs, localDay } from '../../shared/local-time.js';
import {
  addAcc,
  FLOWS,
  HourBuckets,
  priced,
  spreadReadings,
  tariffAt,
  zeroAcc,
  type Flow,
  type IncomeAcc,
  type TariffRec,
} from './income.js';
import { plantSourceIds } from '../telemetry/rollups.js';
import { tariffRec, type PlantPrices, type TariffsRepository } from './tariffs.repository.js';

/** A day closes (and its income is frozen) this long after its local midnight ends: late samples still count. */
export const FREEZE_GRACE_MS = 2 * 3_600_000;
/** Days computed per pass while freezing (bounded memory on a long backfill). */
const FREEZE_CHUNK_DAYS = 31;

export type DayIncome = Map<number, Map<string, IncomeAcc>>;

/** The tariff taken from a plant's own price columns (a plant without tariff rows yet). */
export function plantTariff(p: PlantPrices): TariffRec {
  const prices: TariffPrices = {
    unitProfit: Number(p.unit_profit),
    soldProfit: Number(p.price_sell),
    selfProfit: Number(p.price_self),
    purchProfit: Number(p.price_buy),
    consProfit: Number(p.price_use),
    feedProfit: Number(p.price_feed),
  };
  return { id: 0, from: 0, currency: p.currency, prices, periods: [] };
}

export function samePrices(a: TariffPrices, b: TariffPrices): boolean {
  return TARIFF_PRICE_KEYS.every((k) => Number(a[k]) === Number(b[k]));
}

/**
 * Income of plants (issue 15, docs/money/tariffs.md): Σ energy flows × the tariff in force when
 * each was measured, per local day and currency. Closed days are frozen into plant_income_days the
 * first time they are needed (or by the freeze job) and read from there ever after.
 */
export class IncomeService implements PlantIncomeSource {
  constructor(
    private readonly repo: TariffsRepository,
    private readonly now: () => number,
  ) {}

  async tariffs(projectId: number): Promise<TariffRec[]> {
    const rows = await this.repo.tariffsOf(projectId);
    if (rows.length > 0) return rows.map(tariffRec);
    const p = await this.repo.plantPrices(projectId);
    return p ? [plantTariff(p)] : [];
  }

  /** Income of the plant's local days [fromDay, toDay], per day and currency (computed, never frozen). */
  async compute(
    projectId: number,
    tz: number,
    fromDay: number,
    toDay: number,
    only?: { flows: readonly Flow[]; tariffs: TariffRec[] },
  ): Promise<DayIncome> {
    const tariffs = only?.tariffs ?? (await this.tariffs(projectId));
    const out: DayIncome = new Map();
    if (tariffs.length === 0 || fromDay > toDay) return out;
    const start = dayStartMs(fromDay, tz);
    const end = dayStartMs(addDays(toDay, 1), tz);
    const buckets = new HourBuckets(tariffs, tz);
    const src = await this.repo.sources(projectId);
    const covered = new Set<number>();
    for (const [deviceId, devcode] of src.devcode) {
      const flows = (only?.flows ?? FLOWS).filter((f) => src.byFlow[f].has(deviceId));
      if (flows.length === 0) continue;
      const readings = await this.repo.readings(deviceId, devcode, start, end);
      for (const r of readings) if (r.ts >= start && r.ts < end) covered.add(localDay(r.ts, tz));
      for (const flow of flows) {
        const list: Array<{ ts: number; v: number }> = [];
        for (const r of readings) {
          const v = r.c[flow];
          if (v !== undefined) list.push({ ts: r.ts, v });
        }
        spreadReadings(buckets, flow, list);
      }
    }
    for (const [day, m] of buckets.byDay()) if (day >= fromDay && day <= toDay) out.set(day, m);
    // Days whose samples are gone (retention) but whose day rollups remain: day energy × the base
    // prices of the tariff in force at the day's start (no time-of-use split is possible).
    const days = await this.repo.dayEnergies(projectId, fromDay, toDay);
    for (const d of days) {
      if (covered.has(d.period) || out.has(d.period)) continue;
      const e: Record<Flow, number> = { generated: d.generated, sold: d.sold, bought: d.bought, used: d.used };
      if (only) for (const f of FLOWS) if (!only.flows.includes(f)) e[f] = 0;
      if (FLOWS.every((f) => !e[f])) continue;
      const t = tariffAt(tariffs, dayStartMs(d.period, tz));
      out.set(d.period, new Map([[t.currency, priced(e, t.prices)]]));
    }
    return out;
  }

  /** The last closed local day of a plant now. */
  closedDay(tz: number): number {
    return addDays(localDay(this.now() - FREEZE_GRACE_MS, tz), -1);
  }

  /** Freezes the plant's closed days not frozen yet (every day from its first data day; empty days as zero rows). */
  async freeze(projectId: number, tz: number): Promise<number> {
    const closed = this.closedDay(tz);
    const last = await this.repo.lastFrozenDay(projectId);
    const first = last === null ? await this.repo.firstDataDay(projectId) : addDays(last, 1);
    if (first === null || first > closed) return 0;
    const tariffs = await this.tariffs(projectId);
    if (tariffs.length === 0) return 0;
    let n = 0;
    for (let from = first; from <= closed; from = addDays(from, FREEZE_CHUNK_DAYS)) {
      const to = Math.min(addDays(from, FREEZE_CHUNK_DAYS - 1), closed);
      const income = await this.compute(projectId, tz, from, to);
      const rows: Array<{ day: number; currency: string; acc: IncomeAcc }> = [];
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const m = income.get(d);
        if (m && m.size > 0) for (const [currency, acc] of m) rows.push({ day: d, currency, acc });
        else rows.push({ day: d, currency: tariffAt(tariffs, dayStartMs(d, tz)).currency, acc: zeroAcc() });
      }
      await this.repo.insertFrozen(projectId, rows, this.now());
      n += rows.length;
    }
    return n;
  }

  /**
   * Income per currency since `fromDay` (a local day) up to today: frozen closed days plus the
   * open days computed now. `live` may be passed when the caller already computed the open days.
   */
  async since(projectId: number, fromDay: number, live: DayIncome): Promise<Map<string, IncomeAcc>> {
    const out = await this.repo.frozenSince(projectId, fromDay);
    for (const [day, m] of live) {
      if (day < fromDay) continue;
      for (const [currency, acc] of m) {
        let cur = out.get(currency);
        if (!cur) out.set(currency, (cur = zeroAcc()));
        addAcc(cur, acc);
      }
    }
    return out;
  }

  /** The open days (after the last closed day, up to today) computed now. */
  async live(projectId: number, tz: number): Promise<DayIncome> {
    const today = localDay(this.now(), tz);
    return this.compute(projectId, tz, addDays(this.closedDay(tz), 1), today);
  }

  /** Income of one local day per currency: frozen when closed, else computed. */
  async day(projectId: number, tz: number, day: number): Promise<Map<string, IncomeAcc>> {
    if (day <= this.closedDay(tz)) {
      await this.freeze(projectId, tz);
      const rows = await this.repo.frozenDay([projectId], day);
      if (rows.length > 0) return new Map(rows.map((r) => [r.currency, r.acc]));
    }
    return (await this.compute(projectId, tz, day, day)).get(day) ?? new Map();
  }

  /**
   * Generation income of plants for the screens (docs/money/tariffs.md, "One income on every
   * screen"): total = Σ frozen genIncome + the open days computed now + the opening balance (the
   * lifetime kWh the tariff days did not measure × the plant's first tariff); today = today's open
   * day. Frozen sums come from one query (over `scope` when given, else the plants' ids); plants whose
   * frozen days lag are frozen first; the open days (today and, within the grace, yesterday) are
   * computed for the generation flow only, tariffs, devices and samples read in batches per time zone
   * (no per-plant query; the day-rollup fallback of `compute` for pruned samples is not needed there).
   */
  async generation(
    plants: ReadonlyArray<{ id: number; tz: number; lifetime: number }>,
    scope?: TelemetryScope,
  ): Promise<Map<number, PlantGenIncome>> {
    const out = new Map<number, PlantGenIncome>();
    if (plants.length === 0) return out;
    const now = this.now();
    const ids = plants.map((p) => p.id);
    const frozen = await this.repo.frozenGen(scope ?? ids);
    const { tariffs: rowsOf, prices } = await this.repo.tariffsOfPlants(ids);
    const devices = await this.repo.devicesOfPlants(ids);
    // Plants whose frozen days lag (the tariff-income job has not reached them) are frozen first;
    // a plant without devices has nothing to freeze.
    const withDevices = new Set(devices.map((d) => d.project_id));
    const lagging = plants.filter(
      (p) => withDevices.has(p.id) && (frozen.get(p.id)?.last ?? -1) < this.closedDay(p.tz),
    );
    const refreeze: number[] = [];
    for (const p of lagging) if ((await this.freeze(p.id, p.tz)) > 0) refreeze.push(p.id);
    if (refreeze.length > 0) for (const [id, f] of await this.repo.frozenGen(refreeze)) frozen.set(id, f);
    const sources = plantSourceIds('generated', devices);
    const devsOf = new Map<number, Array<{ id: number; devcode: number }>>();
    for (const d of devices) {
      if (d.project_id === null || !sources.has(d.id)) continue;
      const list = devsOf.get(d.project_id);
      if (list) list.push(d);
      else devsOf.set(d.project_id, [d]);
    }
    // The open days' samples of every plant of one time zone in one batch (the window is the same).
    const byTz = new Map<number, Array<{ id: number; tz: number; lifetime: number }>>();
    for (const p of plants) {
      const list = byTz.get(p.tz);
      if (list) list.push(p);
      else byTz.set(p.tz, [p]);
    }
    for (const [tz, group] of byTz) {
      const today = localDay(now, tz);
      const from = addDays(this.closedDay(tz), 1);
      const start = dayStartMs(from, tz);
      const end = dayStartMs(addDays(today, 1), tz);
      const readings = await this.repo.readingsOf(
        group.flatMap((p) => devsOf.get(p.id) ?? []),
        start,
        end,
      );
      for (const p of group) {
        const own = rowsOf.get(p.id);
        const pp = prices.get(p.id);
        const tariffs = own && own.length > 0 ? own.map(tariffRec) : pp ? [plantTariff(pp)] : [];
        if (tariffs.length === 0) continue;
        const buckets = new HourBuckets(tariffs, tz);
        for (const d of devsOf.get(p.id) ?? []) {
          const list: Array<{ ts: number; v: number }> = [];
          for (const r of readings.get(d.id) ?? []) if (r.c.generated !== undefined) list.push({ ts: r.ts, v: r.c.generated });
          spreadReadings(buckets, 'generated', list);
        }
        const live: DayIncome = new Map();
        for (const [day, m] of buckets.byDay()) if (day >= from && day <= today) live.set(day, m);
        out.set(p.id, this.plantGen(p, tariffs, frozen.get(p.id)?.byCurrency, live, today, now));
      }
    }
    return out;
  }

  private plantGen(
    p: { tz: number; lifetime: number },
    tariffs: readonly TariffRec[],
    frozen: ReadonlyMap<string, { kwh: number; income: number }> | undefined,
    live: DayIncome,
    today: number,
    now: number,
  ): PlantGenIncome {
    const total = new Map<string, number>();
    const add = (c: string, v: number) => total.set(c, (total.get(c) ?? 0) + v);
    let measured = 0;
    for (const [c, f] of frozen ?? []) {
      add(c, f.income);
      measured += f.kwh;
    }
    for (const m of live.values())
      for (const [c, acc] of m) {
        add(c, acc.genIncome);
        measured += acc.generated;
      }
    // The opening balance: what the tariff days did not measure, at the first tariff.
    const first = tariffs[0]!;
    const opening = (p.lifetime - measured) * first.prices.unitProfit;
    if (opening !== 0 || !total.has(first.currency)) add(first.currency, opening);
    const t: Measured = { kwh: 0, income: new Map() };
    for (const [c, acc] of live.get(today) ?? []) {
      t.kwh += acc.generated;
      t.income.set(c, acc.genIncome);
    }
    const cur = tariffAt(tariffs, now);
    const local = new Date(now + p.tz * 1000);
    const period = touPeriodAt(cur.periods, local.getUTCDay(), local.getUTCHours());
    return { total, today: t, now: { currency: cur.currency, price: touPrices(cur.prices, period).unitProfit } };
  }

  /** Generation income of a plant's days [fromDay, toDay] per bucket (PlantIncomeSource.buckets). */
  async buckets(
    projectId: number,
    tz: number,
    fromDay: number,
    toDay: number,
    bucket: 'day' | 'month' | 'year' | 'none',
  ): Promise<Map<number, Measured & { fallback: { currency: string; price: number } }>> {
    const out = new Map<number, Measured & { fallback: { currency: string; price: number } }>();
    const tariffs = await this.tariffs(projectId);
    if (tariffs.length === 0 || fromDay > toDay) return out;
    await this.freeze(projectId, tz);
    const keyOf = (day: number) =>
      bucket === 'day' ? day : bucket === 'month' ? Math.floor(day / 100) : bucket === 'year' ? Math.floor(day / 10000) : 0;
    const startOf = (key: number) =>
      bucket === 'day' ? key : bucket === 'month' ? key * 100 + 1 : bucket === 'year' ? key * 10000 + 101 : fromDay;
    const at = (key: number) => {
      const t = tariffAt(tariffs, dayStartMs(Math.max(fromDay, startOf(key)), tz));
      const m: Measured & { fallback: { currency: string; price: number } } = {
        kwh: 0,
        income: new Map(),
        fallback: { currency: t.currency, price: t.prices.unitProfit },
      };
      return m;
    };
    const put = (day: number, currency: string, kwh: number, income: number) => {
      const key = keyOf(day);
      let b = out.get(key);
      if (!b) out.set(key, (b = at(key)));
      b.kwh += kwh;
      b.income.set(currency, (b.income.get(currency) ?? 0) + income);
    };
    for (const r of await this.repo.frozenGenDays(projectId, fromDay, toDay)) put(r.day, r.currency, r.kwh, r.income);
    const closed = this.closedDay(tz);
    const today = localDay(this.now(), tz);
    if (toDay > closed) {
      const live = await this.compute(projectId, tz, Math.max(fromDay, addDays(closed, 1)), Math.min(toDay, today), {
        flows: ['generated'],
        tariffs,
      });
      for (const [day, m] of live) for (const [c, acc] of m) put(day, c, acc.generated, acc.genIncome);
    }
    // Buckets without a measured day still get their fallback price.
    for (let d = fromDay; d <= toDay; ) {
      const key = keyOf(d);
      if (!out.has(key)) out.set(key, at(key));
      if (bucket === 'none') break;
      d = bucket === 'day' ? addDays(d, 1) : bucket === 'month' ? (key % 100 === 12 ? key + 89 : key + 1) * 100 + 1 : (key + 1) * 10000 + 101;
    }
    return out;
  }

  /** Mirrors the tariffs that started since into their plants' price columns. */
  async mirrorDue(): Promise<number> {
    const now = this.now();
    const due = await this.repo.dueMirrors(now);
    for (const row of due) {
      // Only the newest started tariff of a plant is its current one.
      const all = await this.tariffs(Number(row.project_id));
      const cur = tariffAt(all, now);
      await this.repo.mirror(Number(row.project_id), cur.currency, cur.prices, now);
      await this.repo.update(Number(row.id), { mirrored: 1 });
    }
    return due.length;
  }

  /** One pass of the freeze job over every plant (batches of 200). */
  async freezeAll(): Promise<number> {
    let n = 0;
    for (let after = 0; ;) {
      const batch = await this.repo.plantsToFreeze(after, 200);
      if (batch.length === 0) break;
      for (const p of batch) n += await this.freeze(Number(p.id), Number(p.tz_offset));
      after = Number(batch[batch.length - 1]!.id);
    }
    return n;
  }
}
