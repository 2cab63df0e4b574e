import { sql, type RawBuilder } from 'kysely';
import type { EnergyCounterName } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import {
  counterDayEnergy,
  counterResetCarry,
  KIND_COLUMN,
  kindDayEnergySql,
  latestCounterSql,
  lifetimeAggregateSql,
  lifetimeTotals,
  MAX_DAY,
  prevCounterSql,
  roundKwh,
  type EnergyScope,
} from '../telemetry/rollups.js';
import { localDay } from '../../shared/local-time.js';

/**
 * Energy figures of devices and plants, always derived from `device_days` by the rollup SQL of
 * `telemetry/rollups.ts`: today / this month / this year (sums of day energies, kindDayEnergySql) and
 * total (the lifetime counter: latest value + reset carry, `lifetimeTotals`) per device, and per-bucket
 * series.
 */

export interface PeriodEnergy {
  today: number;
  month: number;
  year: number;
  total: number;
}

export const ZERO_PERIOD: PeriodEnergy = { today: 0, month: 0, year: 0, total: 0 };

/**
 * Today / month / year (sums of day energies) and total (lifetime counter, `lifetimeTotals`) of one
 * energy kind per device, "today" being the local day of `tz`. Devices of several timezones: call once
 * per timezone.
 */
export async function periodEnergyByDevice(
  db: Db,
  kind: EnergyCounterName,
  deviceIds: readonly number[],
  now: number,
  tz: number,
): Promise<Map<number, PeriodEnergy>> {
  const out = new Map<number, PeriodEnergy>();
  if (deviceIds.length === 0) return out;
  const today = localDay(now, tz);
  const monthStart = Math.floor(today / 100) * 100 + 1;
  const yearStart = Math.floor(today / 10000) * 10000 + 101;
  // One pass over the devices' rollups: the periods are sums of day energies, the total the lifetime
  // counter (rollups.ts `lifetimeAggregateSql`, the definition of `lifetimeTotals`).
  const rows = await sql<{
    device_id: number;
    d: number | string;
    m: number | string;
    y: number | string;
    t: number | string;
  }>`
    select x.device_id,
      sum(case when x.day = ${today} then x.e else 0 end) as d,
      sum(case when x.day >= ${monthStart} and x.day <= ${today} then x.e else 0 end) as m,
      sum(case when x.day >= ${yearStart} and x.day <= ${today} then x.e else 0 end) as y,
      ${lifetimeAggregateSql(kind, 'x')} as t
    from (${kindDayEnergySql(kind, { deviceIds }, MAX_DAY)}) x
    group by x.device_id`.execute(db);
  for (const r of rows.rows) {
    out.set(Number(r.device_id), {
      today: roundKwh(Number(r.d)),
      month: roundKwh(Number(r.m)),
      year: roundKwh(Number(r.y)),
      total: roundKwh(Number(r.t)),
    });
  }
  return out;
}

export type Bucket = 'day' | 'month' | 'year' | 'none';

/** Energy of one kind summed over the scope per bucket (YYYYMMDD / YYYYMM / YYYY / 0) within [fromDay, toDay]. */
export async function energySeries(
  db: Db,
  kind: EnergyCounterName,
  scope: EnergyScope,
  fromDay: number,
  toDay: number,
  bucket: Bucket,
): Promise<Map<number, number>> {
  const b =
    bucket === 'day'
      ? sql`day`
      : bucket === 'month'
        ? sql`(day / 100)`
        : bucket === 'year'
          ? sql`(day / 10000)`
          : sql`0`;
  const rows = await sql<{ p: number | string; e: number | string }>`
    select ${b} as p, sum(e) as e
    from (${kindDayEnergySql(kind, scope, toDay)}) x
    where day >= ${fromDay}
    ${bucket === 'none' ? sql`` : sql`group by ${b}`}`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.p), roundKwh(Number(r.e))]));
}

const PAST_TTL_MS = 10 * 60_000;
interface PastCache {
  day: number;
  at: number;
  carry: Map<number, number>;
}
/** Past reset carries by `kind:tz`; one per EnergyRepository (one per app and database). */
export type PastCarryCache = Map<string, PastCache>;

/**
 * Reset carry (rollups.ts) of one kind per device over every day BEFORE the local today of `tz`,
 * cached per repository (one per app and database) for up to 10 minutes and until the day changes: past days only change when late
 * data arrives, and finding the resets needs the history (the first call after a start or a day
 * change reads the given devices' rollups once). Devices without any reset carry 0.
 */
export async function pastResetCarryByDevice(
  db: Db,
  kind: EnergyCounterName,
  deviceIds: readonly number[],
  now: number,
  tz: number,
  caches: PastCarryCache,
): Promise<Map<number, number>> {
  const today = localDay(now, tz);
  const key = `${kind}:${tz}`;
  let cache = caches.get(key);
  if (!cache || cache.day !== today || now - cache.at > PAST_TTL_MS) {
    cache = { day: today, at: now, carry: new Map() };
    caches.set(key, cache);
  }
  const missing = deviceIds.filter((id) => !cache.carry.has(id));
  for (let i = 0; i < missing.length; i += 1000) {
    const chunk = missing.slice(i, i + 1000);
    const rows = await sql<{ device_id: number; c: number | string }>`
      select device_id, sum(r) as c
      from (${kindDayEnergySql(kind, { deviceIds: chunk }, today - 1)}) x
      where r > 0
      group by device_id`.execute(db);
    for (const id of chunk) cache.carry.set(id, 0);
    for (const r of rows.rows) cache.carry.set(Number(r.device_id), roundKwh(Number(r.c)));
  }
  return new Map(deviceIds.map((id) => [id, cache.carry.get(id) ?? 0]));
}

/**
 * Fleet-wide today's energy and lifetime total of one kind per device, without scanning history:
 * per device one descending lookup of its latest row with data (the counter), its rows from today on
 * (today's energy, and a reset carry of today) with their previous data day's max, plus the cached
 * reset carry of the past days (`pastResetCarryByDevice`). Same definitions as `dayEnergyByDevice`
 * and `lifetimeTotals`.
 */
export async function fleetEnergyByDevice(
  db: Db,
  kind: EnergyCounterName,
  /** The devices as a subquery selecting their ids (no long parameter lists)… */
  devices: RawBuilder<unknown>,
  /** …and the same ids (for the cache). */
  ids: readonly number[],
  now: number,
  tz: number,
  caches: PastCarryCache,
): Promise<Map<number, { today: number; total: number }>> {
  const today = localDay(now, tz);
  const col = KIND_COLUMN[kind];
  const min = sql.ref(`t.${col}_min`);
  const max = sql.ref(`t.${col}_max`);
  const [rows, past] = await Promise.all([
    sql<{
      device_id: number;
      last: number | string | null;
      day: number | null;
      lo: number | string | null;
      hi: number | string | null;
      prev: number | string | null;
    }>`
      select d.id as device_id, ${latestCounterSql(kind, sql.ref('d.id'))} as last,
        t.day, ${min} as lo, ${max} as hi, ${prevCounterSql(kind, 't')} as prev
      from (${devices}) d
      left join device_days t on t.device_id = d.id and t.day >= ${today} and ${max} is not null`.execute(db),
    pastResetCarryByDevice(db, kind, ids, now, tz, caches),
  ]);
  const out = new Map<number, { today: number; total: number }>();
  for (const r of rows.rows) {
    const id = Number(r.device_id);
    let acc = out.get(id);
    if (!acc) out.set(id, (acc = { today: 0, total: roundKwh(Number(r.last ?? 0) + (past.get(id) ?? 0)) }));
    if (r.day === null || r.lo === null || r.hi === null) continue;
    const prev = r.prev === null ? undefined : Number(r.prev);
    if (Number(r.day) === today) acc.today = counterDayEnergy(Number(r.lo), Number(r.hi), prev);
    acc.total = roundKwh(acc.total + counterResetCarry(Number(r.lo), Number(r.hi), prev));
  }
  return out;
}

/**
 * Energy of one kind per device on ONE local day (`day`, YYYYMMDD), by the rollup definition
 * (max − previous data day's max, or max − min): one indexed lookup of the day's row and of the
 * previous row with data per device — what "today" figures need without scanning history.
 */
export async function dayEnergyByDevice(
  db: Db,
  kind: EnergyCounterName,
  /** Device ids, or a subquery selecting them (no long parameter lists for fleet-wide calls). */
  devices: readonly number[] | RawBuilder<unknown>,
  day: number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const col = KIND_COLUMN[kind];
  const min = sql.ref(`t.${col}_min`);
  const max = sql.ref(`t.${col}_max`);
  const pmax = sql.ref(`p.${col}_max`);
  const query = async (filter: RawBuilder<unknown>) => {
    const rows = await sql<{ device_id: number; lo: number; hi: number; prev: number | null }>`
      select t.device_id, ${min} as lo, ${max} as hi,
        (select ${pmax} from device_days p where p.device_id = t.device_id and p.day < t.day and ${pmax} is not null
          order by p.day desc limit 1) as prev
      from device_days t
      where t.day = ${day} and ${max} is not null and t.device_id in (${filter})`.execute(db);
    for (const r of rows.rows) {
      out.set(
        Number(r.device_id),
        counterDayEnergy(Number(r.lo), Number(r.hi), r.prev === null ? undefined : Number(r.prev)),
      );
    }
  };
  if (!Array.isArray(devices)) {
    await query(devices as RawBuilder<unknown>);
    return out;
  }
  const ids = devices as readonly number[];
  for (let i = 0; i < ids.length; i += 1000) {
    await query(sql.join(ids.slice(i, i + 1000).map((id) => sql`${id}`)));
  }
  return out;
}

/**
 * The energy SQL as a repository (services receive it, tests replace it by a fake): the functions
 * above over one database, plus the lifetime totals of rollups.ts and the first day with data.
 */
export class EnergyRepository {
  /** The past reset carries of fleet-wide figures (`pastResetCarryByDevice`). */
  private readonly pastCarry: PastCarryCache = new Map();

  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  periodByDevice(kind: EnergyCounterName, deviceIds: readonly number[], now: number, tz: number) {
    return periodEnergyByDevice(this.db, kind, deviceIds, now, tz);
  }

  series(kind: EnergyCounterName, scope: EnergyScope, fromDay: number, toDay: number, bucket: Bucket) {
    return energySeries(this.db, kind, scope, fromDay, toDay, bucket);
  }

  dayByDevice(kind: EnergyCounterName, devices: readonly number[] | RawBuilder<unknown>, day: number) {
    return dayEnergyByDevice(this.db, kind, devices, day);
  }

  fleetByDevice(
    kind: EnergyCounterName,
    devices: RawBuilder<unknown>,
    ids: readonly number[],
    now: number,
    tz: number,
  ) {
    return fleetEnergyByDevice(this.db, kind, devices, ids, now, tz, this.pastCarry);
  }

  lifetimeTotals(kind: EnergyCounterName, scope: EnergyScope) {
    return lifetimeTotals(this.db, kind, scope);
  }

  /** The first local day (YYYYMMDD) with a rollup row of the device, if any. */
  async firstDay(deviceId: number): Promise<number | undefined> {
    const first = await this.db
      .selectFrom('device_days')
      .select((eb) => eb.fn.min('day').as('d'))
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return first?.d ? Number(first.d) : undefined;
  }
}
