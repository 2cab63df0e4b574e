import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { ENERGY_COUNTERS, type EnergyCounterName } from '@sunwatch/protocol';
import type { DeviceDaysTable } from '../../db/schema-telemetry.js';

/**
 * Day rollups (architecture.md §5). `device_days` keeps, per device per local day (YYYYMMDD in the
 * plant's timezone), the min and max of each cumulative kWh counter seen that day. Those are
 * order-independent and idempotent (a re-sent sample changes neither), so ingestion can update
 * them with plain `min()/max()` upserts in any order. The ENERGY of a day is derived here:
 *
 *   energy(D) = max_D − max_P   where P is the previous day on which that counter had data,
 *             = max_D − min_D   when there is no such day (first day of the device),
 *             = max_D − min_D   when max_D < max_P (the counter was reset: count from the day's min).
 *
 * Using the previous day's max (not today's min) keeps the energy produced between the last
 * sample of P and the first sample of D, so the days of a device sum to its counter's growth.
 * Day / month / year figures of plants and fleets are sums of their devices' day energies (`energyTotals`).
 *
 * LIFETIME TOTALS (docs/decisions.md, "Telemetry (issue 3)") are NOT sums of days — those only cover what
 * Sunwatch has seen. A device's total of a kind is its cumulative counter:
 *
 *   total = last + carry
 *   last  = max of the latest day on which that counter had data (what the device's display shows),
 *   carry = Σ over reset days D (max_D < max_P) of (max_P − min_D): the counter value lost at each reset,
 *
 * so a counter that never went backwards gives exactly its latest value, and one that was reset keeps
 * counting on from where it was (= min of its first day + Σ of its day energies). A plant's total is the
 * sum over its source devices (`plantSourceSql`) plus the plant's `energy_offset` (generated only); a
 * fleet's the sum over its plants. `counterResetCarry` / `deviceLifetime` (JS), `latestCounterSql`,
 * the `r` column of `kindDayEnergySql` and `lifetimeTotals` (SQL) are that one definition.
 */

/** A day after every stored day (no upper bound). */
export const MAX_DAY = 99_991_231;

/** Column prefix in device_days per energy kind. */
export const KIND_COLUMN: Record<EnergyCounterName, 'gen' | 'chg' | 'dis' | 'sold' | 'bought' | 'used'> = {
  generated: 'gen',
  charged: 'chg',
  discharged: 'dis',
  sold: 'sold',
  bought: 'bought',
  used: 'used',
};

export type EnergyByKind = Record<EnergyCounterName, number>;

export interface DayEnergy extends EnergyByKind {
  day: number;
}

export type DeviceDayRow = Pick<
  DeviceDaysTable,
  | 'day'
  | 'gen_min'
  | 'gen_max'
  | 'chg_min'
  | 'chg_max'
  | 'dis_min'
  | 'dis_max'
  | 'sold_min'
  | 'sold_max'
  | 'bought_min'
  | 'bought_max'
  | 'used_min'
  | 'used_max'
>;

/** kWh rounded to 1e-6 so sums of decimal counters carry no binary noise. */
export function roundKwh(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
}

export function zeroEnergy(): EnergyByKind {
  return { generated: 0, charged: 0, discharged: 0, sold: 0, bought: 0, used: 0 };
}

/** Energy of one counter on a day, given that day's min/max and the previous data day's max. */
export function counterDayEnergy(min: number, max: number, prevMax: number | undefined): number {
  if (prevMax === undefined || max < prevMax) return roundKwh(max - min);
  return roundKwh(max - prevMax);
}

/** Reset carry of one counter on a day: what the counter lost when it went below the previous data day's max. */
export function counterResetCarry(min: number, max: number, prevMax: number | undefined): number {
  if (prevMax === undefined || max >= prevMax) return 0;
  return roundKwh(prevMax - min);
}

/**
 * Lifetime totals of ONE device from ALL its `device_days` rows (any order): per kind, the latest
 * day's max plus the reset carry (see above); 0 for a kind without data. JS twin of `lifetimeTotals`.
 */
export function deviceLifetime(rows: readonly DeviceDayRow[]): EnergyByKind {
  const sorted = [...rows].sort((a, b) => a.day - b.day);
  const out = zeroEnergy();
  for (const kind of ENERGY_COUNTERS) {
    const col = KIND_COLUMN[kind];
    let prev: number | undefined;
    let carry = 0;
    for (const r of sorted) {
      const min = r[`${col}_min`];
      const max = r[`${col}_max`];
      if (min === null || max === null) continue;
      carry += counterResetCarry(min, max, prev);
      prev = max;
    }
    out[kind] = prev === undefined ? 0 : roundKwh(prev + carry);
  }
  return out;
}

/**
 * Day energies of ONE device from its `device_days` rows (any order). Days without data for a
 * kind count 0 for that kind. When the rows start after the device's first day, pass the rows of
 * earlier days too (or at least the last one with data) so the first day is not counted max − min.
 */
export function dayEnergy(rows: readonly DeviceDayRow[]): DayEnergy[] {
  const sorted = [...rows].sort((a, b) => a.day - b.day);
  const prev: Partial<Record<EnergyCounterName, number>> = {};
  return sorted.map((r) => {
    const e: DayEnergy = { day: r.day, ...zeroEnergy() };
    for (const kind of ENERGY_COUNTERS) {
      const col = KIND_COLUMN[kind];
      const min = r[`${col}_min`];
      const max = r[`${col}_max`];
      if (min === null || max === null) continue;
      e[kind] = counterDayEnergy(min, max, prev[kind]);
      prev[kind] = max;
    }
    return e;
  });
}

/** Period key of a YYYYMMDD day: the day itself, YYYYMM, YYYY, or 0 for the total. */
export type Period = 'day' | 'month' | 'year' | 'total';
export function periodOf(day: number, period: Period): number {
  switch (period) {
    case 'day':
      return day;
    case 'month':
      return Math.floor(day / 100);
    case 'year':
      return Math.floor(day / 10000);
    case 'total':
      return 0;
  }
}

/** Sums day energies per period (in JS), ordered by period. */
export function sumByPeriod(days: readonly DayEnergy[], period: Period): Array<{ period: number } & EnergyByKind> {
  const out = new Map<number, { period: number } & EnergyByKind>();
  for (const d of days) {
    const k = periodOf(d.day, period);
    let acc = out.get(k);
    if (!acc) out.set(k, (acc = { period: k, ...zeroEnergy() }));
    for (const kind of ENERGY_COUNTERS) acc[kind] = roundKwh(acc[kind] + d[kind]);
  }
  return [...out.values()].sort((a, b) => a.period - b.period);
}

/** Which devices an aggregate covers: explicit devices, the devices of plants, or every device. */
export type EnergyScope = { deviceIds: readonly number[] } | { projectIds: readonly number[] } | { all: true };

/**
 * Plant sources (docs/decisions.md, "Telemetry (issue 3)"): a plant's or fleet's energy of a kind is
 * taken from some of its devices only, so one battery reported by a hybrid inverter AND its BMS is
 * not counted twice:
 * - charged / discharged: from battery devices (devtype 1792) when the plant has any, else from the
 *   energy-storage machines / inverters (every device that is neither a meter nor a battery);
 * - sold / bought: from meters (devtype 1024) when the plant has any, else from the inverters;
 * - generated / used: from inverters, micro-inverters and energy-storage machines (never meters or batteries).
 * Per-device figures are never filtered. `plantSourceSql` (SQL) and `countsForPlant` (JS) are the
 * one definition every plant/fleet aggregate uses.
 */
export const DEVTYPE_METER = 1024;
export const DEVTYPE_BATTERY = 1792;

/** The devtype a plant prefers for a kind when it has one (undefined: inverters only). */
function preferredDevtype(kind: EnergyCounterName): number | undefined {
  if (kind === 'charged' || kind === 'discharged') return DEVTYPE_BATTERY;
  if (kind === 'sold' || kind === 'bought') return DEVTYPE_METER;
  return undefined;
}

/** Whether a device of `devtype` counts towards its plant's `kind` energy, given what the plant has. */
export function countsForPlant(
  kind: EnergyCounterName,
  devtype: number,
  plant: { hasBattery: boolean; hasMeter: boolean },
): boolean {
  const inverter = devtype !== DEVTYPE_METER && devtype !== DEVTYPE_BATTERY;
  const pref = preferredDevtype(kind);
  if (pref === undefined) return inverter;
  if (devtype === pref) return true;
  return inverter && !(pref === DEVTYPE_BATTERY ? plant.hasBattery : plant.hasMeter);
}

/** `countsForPlant` over a list of devices (plants known from the list itself): the ids that count. */
export function plantSourceIds(
  kind: EnergyCounterName,
  devices: ReadonlyArray<{ id: number; devtype: number; project_id: number | null }>,
): Set<number> {
  const battery = new Set<number | null>();
  const meter = new Set<number | null>();
  for (const d of devices) {
    if (d.project_id === null) continue;
    if (d.devtype === DEVTYPE_BATTERY) battery.add(d.project_id);
    if (d.devtype === DEVTYPE_METER) meter.add(d.project_id);
  }
  const out = new Set<number>();
  for (const d of devices) {
    const has = { hasBattery: battery.has(d.project_id), hasMeter: meter.has(d.project_id) };
    if (countsForPlant(kind, d.devtype, has)) out.add(d.id);
  }
  return out;
}

/** SQL twin of `countsForPlant` over the devices row `alias` (its plant looked up by `project_id`). */
export function plantSourceSql(kind: EnergyCounterName, alias = 'dv'): RawBuilder<SqlBool> {
  const t = sql.ref(`${alias}.devtype`);
  const inverter = sql`${t} not in (${DEVTYPE_METER}, ${DEVTYPE_BATTERY})`;
  const pref = preferredDevtype(kind);
  if (pref === undefined) return sql<SqlBool>`${inverter}`;
  return sql<SqlBool>`(${t} = ${pref} or (${inverter} and not exists (select 1 from devices pb
    where pb.project_id = ${sql.ref(`${alias}.project_id`)} and pb.devtype = ${pref})))`;
}

function scopeFilter(scope: EnergyScope, kind: EnergyCounterName): RawBuilder<unknown> {
  if ('deviceIds' in scope) {
    if (scope.deviceIds.length === 0) return sql`1 = 0`;
    return sql`device_id in (${sql.join(scope.deviceIds.map((id) => sql`${id}`))})`;
  }
  if ('all' in scope) return sql`device_id in (select dv.id from devices dv where ${plantSourceSql(kind, 'dv')})`;
  if (scope.projectIds.length === 0) return sql`1 = 0`;
  return sql`device_id in (select dv.id from devices dv where dv.project_id in (${sql.join(
    scope.projectIds.map((id) => sql`${id}`),
  )}) and ${plantSourceSql(kind, 'dv')})`;
}

/**
 * SQL (both engines) for the day energies of one kind: one row (device_id, day, e) per device-day
 * on which that counter had data (plants / all: only the plant sources of `kind`), with the definition above,
 * and `r`, that day's reset carry (lifetime totals). The window runs over the rows WITH
 * data only (`where <col>_max is not null`), so "the previous day with data" is exactly `lag()`.
 * Days up to `toDay` are scanned so the first day of the range sees its predecessor.
 */
export function kindDayEnergySql(kind: EnergyCounterName, scope: EnergyScope, toDay: number): RawBuilder<unknown> {
  const col = KIND_COLUMN[kind];
  const min = sql.ref(`${col}_min`);
  const max = sql.ref(`${col}_max`);
  return sql`select device_id, day, ${sql.lit(kind)} as kind,
      case when lag(${max}) over w is null or ${max} < lag(${max}) over w then ${max} - ${min}
           else ${max} - lag(${max}) over w end as e,
      case when ${max} < lag(${max}) over w then lag(${max}) over w - ${min} else 0 end as r
    from device_days
    where ${max} is not null and day <= ${toDay} and ${scopeFilter(scope, kind)}
    window w as (partition by device_id order by day)`;
}

export interface EnergyTotalsQuery {
  scope: EnergyScope;
  /** Inclusive YYYYMMDD range (local days of each device's plant). */
  fromDay: number;
  toDay: number;
  period: Period;
  /** Also group by device (per-device figures); default false = summed over the scope. */
  perDevice?: boolean;
}

export interface EnergyTotalsRow extends EnergyByKind {
  period: number;
  /** Only with `perDevice`. */
  deviceId?: number;
}

/**
 * Energy per period (day / month / year / total) for devices, plants (`projectIds`) or the whole
 * fleet, summed in the database from `device_days` — for "today / this month / this year / total"
 * cards and bar charts. Example: plant 7's monthly generation in 2025 =
 * `energyTotals(db, { scope: { projectIds: [7] }, fromDay: 20250101, toDay: 20251231, period: 'month' })`.
 */
export async function energyTotals(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  q: EnergyTotalsQuery,
): Promise<EnergyTotalsRow[]> {
  const bucket =
    q.period === 'day'
      ? sql`day`
      : q.period === 'month'
        ? sql`(day / 100)`
        : q.period === 'year'
          ? sql`(day / 10000)`
          : sql`0`;
  const union = sql.join(
    ENERGY_COUNTERS.map((k) => kindDayEnergySql(k, q.scope, q.toDay)),
    sql` union all `,
  );
  const dev = q.perDevice ? sql`device_id, ` : sql``;
  const rows = await sql<{ p: number | string; device_id?: number; kind: EnergyCounterName; e: number | string }>`
    select ${dev}${bucket} as p, kind, sum(e) as e
    from (${union}) x
    where day >= ${q.fromDay} and day <= ${q.toDay}
    group by ${dev}${q.period === 'total' ? sql`` : sql`${bucket}, `}kind`.execute(db);
  const out = new Map<string, EnergyTotalsRow>();
  for (const r of rows.rows) {
    const p = Number(r.p);
    const key = `${r.device_id ?? ''}:${p}`;
    let acc = out.get(key);
    if (!acc) {
      acc = { period: p, ...zeroEnergy() };
      if (q.perDevice) acc.deviceId = Number(r.device_id);
      out.set(key, acc);
    }
    acc[r.kind] = roundKwh(Number(r.e));
  }
  return [...out.values()].sort((a, b) => (a.deviceId ?? 0) - (b.deviceId ?? 0) || a.period - b.period);
}

/**
 * SQL scalar (both engines): the latest value of `kind`'s counter of the device `deviceId` (a column
 * reference) — the max of its latest day with data. One descending lookup of the `(device_id, day)`
 * key per device, never a scan of its history.
 */
export function latestCounterSql(kind: EnergyCounterName, deviceId: RawBuilder<unknown>): RawBuilder<number | null> {
  const max = sql.ref(`lc.${KIND_COLUMN[kind]}_max`);
  return sql<number | null>`(select ${max} from device_days lc
    where lc.device_id = ${deviceId} and ${max} is not null order by lc.day desc limit 1)`;
}

/**
 * SQL scalar: the max of `kind`'s counter on the data day before the `device_days` row `alias` (null on
 * its first day) — one indexed lookup.
 */
export function prevCounterSql(kind: EnergyCounterName, alias: string): RawBuilder<number | null> {
  const pmax = sql.ref(`pc.${KIND_COLUMN[kind]}_max`);
  return sql<number | null>`(select ${pmax} from device_days pc
    where pc.device_id = ${sql.ref(`${alias}.device_id`)} and pc.day < ${sql.ref(`${alias}.day`)} and ${pmax} is not null
    order by pc.day desc limit 1)`;
}

/**
 * Lifetime totals of one kind per device of a scope (plants / all: only the plant sources of `kind`):
 * latest counter + reset carry (definition at the top). Devices without data for `kind` are absent.
 * Reads the scope's `device_days` rows once (window), so use it for bounded scopes (a device, a page of
 * plants); fleet-wide figures cache the carry (`modules/energy/energy.repository.ts`, `fleetEnergyByDevice`).
 */
export async function lifetimeTotals(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  kind: EnergyCounterName,
  scope: EnergyScope,
): Promise<Map<number, number>> {
  const rows = await sql<{ device_id: number; t: number | string }>`
    select x.device_id, ${lifetimeAggregateSql(kind, 'x')} as t
    from (${kindDayEnergySql(kind, scope, MAX_DAY)}) x
    group by x.device_id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.device_id), roundKwh(Number(r.t))]));
}

/**
 * The lifetime total as an aggregate over `kindDayEnergySql` rows `alias` (ALL days of the device, i.e.
 * built with `toDay = MAX_DAY`) grouped by `alias.device_id`: latest counter + Σ reset carry.
 */
export function lifetimeAggregateSql(kind: EnergyCounterName, alias: string): RawBuilder<number> {
  return sql<number>`(coalesce(${latestCounterSql(kind, sql.ref(`${alias}.device_id`))}, 0) + sum(${sql.ref(`${alias}.r`)}))`;
}
