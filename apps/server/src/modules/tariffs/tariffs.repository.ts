import { sql } from 'kysely';
import { energyCounters, TARIFF_PRICE_KEYS, type TariffPrices, type TouPeriod } from '@sunwatch/protocol';
import { plantScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import type { PlantTariffsTable } from '../../db/schema-tariffs.js';
import type { Selectable } from 'kysely';
import { currentDb } from '../../db/transaction.js';
import { definitionOf, toSample } from '../devices/device-sample.js';
import { energyTotals, plantSourceIds } from '../telemetry/rollups.js';
import type { Flow, IncomeAcc, TariffRec } from './income.js';

export type TariffRow = Selectable<PlantTariffsTable>;

/** The plant columns a tariff mirrors (protocol price key → projects column). */
export const PLANT_PRICE_COLUMNS = {
  unitProfit: 'unit_profit',
  soldProfit: 'price_sell',
  selfProfit: 'price_self',
  purchProfit: 'price_buy',
  consProfit: 'price_use',
  feedProfit: 'price_feed',
} as const satisfies Record<keyof TariffPrices, string>;

/** The plant_tariffs column of each price. */
export const TARIFF_PRICE_COLUMNS = {
  unitProfit: 'price_gen',
  soldProfit: 'price_sell',
  selfProfit: 'price_self',
  purchProfit: 'price_buy',
  consProfit: 'price_use',
  feedProfit: 'price_feed',
} as const satisfies Record<keyof TariffPrices, keyof PlantTariffsTable>;

export interface PlantPrices {
  id: number;
  currency: string;
  unit_profit: number;
  price_sell: number;
  price_self: number;
  price_buy: number;
  price_use: number;
  price_feed: number;
}

export function pricesOfRow(r: TariffRow): TariffPrices {
  const out = {} as TariffPrices;
  for (const k of TARIFF_PRICE_KEYS) out[k] = Number(r[TARIFF_PRICE_COLUMNS[k]]);
  return out;
}

export function parsePeriods(json: string): TouPeriod[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as TouPeriod[]) : [];
  } catch {
    return [];
  }
}

export function tariffRec(r: TariffRow): TariffRec {
  return {
    id: Number(r.id),
    from: Number(r.effective_from),
    currency: r.currency,
    prices: pricesOfRow(r),
    periods: parsePeriods(r.periods),
  };
}

/** A frozen day's columns → accumulator. */
const ACC_COLUMNS = {
  generated: 'generated',
  sold: 'sold',
  selfUse: 'self_use',
  bought: 'bought',
  used: 'used',
  genIncome: 'gen_income',
  soldIncome: 'sold_income',
  feedIncome: 'feed_income',
  selfIncome: 'self_income',
  buyCost: 'buy_cost',
  useValue: 'use_value',
} as const satisfies Record<keyof IncomeAcc, string>;

function accOf(r: Record<string, unknown>): IncomeAcc {
  const out = {} as IncomeAcc;
  for (const [k, c] of Object.entries(ACC_COLUMNS)) out[k as keyof IncomeAcc] = Number(r[c] ?? 0);
  return out;
}

const sums = sql.join(Object.values(ACC_COLUMNS).map((c) => sql`sum(${sql.ref(c)}) as ${sql.ref(c)}`));

/** Tariffs, readings and frozen income (issue 15). Uses the transaction open in the context, if any. */
export class TariffsRepository {
  constructor(private readonly root: Db) {}
  private get db(): Db {
    return currentDb(this.root);
  }

  async tariffsOf(projectId: number): Promise<TariffRow[]> {
    return this.db
      .selectFrom('plant_tariffs')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('effective_from', 'asc')
      .execute();
  }

  async countOf(projectId: number): Promise<number> {
    const r = await this.db
      .selectFrom('plant_tariffs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async find(id: number): Promise<TariffRow | undefined> {
    return this.db.selectFrom('plant_tariffs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(
    v: Omit<TariffRow, 'id' | 'mirrored' | 'created_usr'> & { mirrored: number; created_usr: string },
  ): Promise<number> {
    const r = await this.db.insertInto('plant_tariffs').values(v).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async update(id: number, v: Partial<TariffRow>): Promise<void> {
    await this.db.updateTable('plant_tariffs').set(v).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('plant_tariffs').where('id', '=', id).execute();
  }

  /** Sets the plant's price columns to a tariff's (they show the tariff in force). */
  async mirror(projectId: number, currency: string, prices: TariffPrices, now: number): Promise<void> {
    const set: Record<string, unknown> = { currency, updated_at: now };
    for (const k of TARIFF_PRICE_KEYS) set[PLANT_PRICE_COLUMNS[k]] = prices[k];
    await this.db.updateTable('projects').set(set).where('id', '=', projectId).execute();
  }

  /** Tariffs that have started but whose prices the plant does not show yet. */
  async dueMirrors(now: number, limit = 500): Promise<TariffRow[]> {
    return this.db
      .selectFrom('plant_tariffs')
      .selectAll()
      .where('mirrored', '=', 0)
      .where('effective_from', '<=', now)
      .orderBy('effective_from', 'asc')
      .limit(limit)
      .execute();
  }

  async plantPrices(projectId: number): Promise<PlantPrices | undefined> {
    return this.db
      .selectFrom('projects')
      .select(['id', 'currency', 'unit_profit', 'price_sell', 'price_self', 'price_buy', 'price_use', 'price_feed'])
      .where('id', '=', projectId)
      .executeTakeFirst();
  }

  /** The devices of a plant that count for each flow (plant sources, rollups.ts). */
  async sources(projectId: number): Promise<{ devcode: Map<number, number>; byFlow: Record<Flow, Set<number>> }> {
    const devs = await this.db
      .selectFrom('devices')
      .select(['id', 'devtype', 'devcode', 'project_id'])
      .where('project_id', '=', projectId)
      .execute();
    const list = devs.map((d) => ({ id: Number(d.id), devtype: Number(d.devtype), project_id: d.project_id }));
    return {
      devcode: new Map(devs.map((d) => [Number(d.id), Number(d.devcode)])),
      byFlow: {
        generated: plantSourceIds('generated', list),
        sold: plantSourceIds('sold', list),
        bought: plantSourceIds('bought', list),
        used: plantSourceIds('used', list),
      },
    };
  }

  /**
   * A device's counter readings over [start, end), with the last reading before and the first
   * reading at/after the range (so intervals crossing its ends can be split). Undecodable samples are skipped.
   */
  async readings(
    deviceId: number,
    devcode: number,
    start: number,
    end: number,
  ): Promise<Array<{ ts: number; c: Partial<Record<Flow, number>> }>> {
    let def;
    try {
      def = definitionOf(devcode);
    } catch {
      return [];
    }
    const before = await this.db
      .selectFrom('samples')
      .select(['ts', 'data'])
      .where('device_id', '=', deviceId)
      .where('ts', '<', start)
      .orderBy('ts', 'desc')
      .limit(1)
      .execute();
    const inside = await this.db
      .selectFrom('samples')
      .select(['ts', 'data'])
      .where('device_id', '=', deviceId)
      .where('ts', '>=', start)
      .where('ts', '<', end)
      .orderBy('ts', 'asc')
      .execute();
    const after = await this.db
      .selectFrom('samples')
      .select(['ts', 'data'])
      .where('device_id', '=', deviceId)
      .where('ts', '>=', end)
      .orderBy('ts', 'asc')
      .limit(1)
      .execute();
    return [...before, ...inside, ...after].map((r) => ({
      ts: Number(r.ts),
      c: energyCounters(def, toSample(def, r.data)) as Partial<Record<Flow, number>>,
    }));
  }

  /** Day energies of the plant from the day rollups (days whose samples are gone). */
  async dayEnergies(projectId: number, fromDay: number, toDay: number) {
    return energyTotals(this.db, { scope: { projectIds: [projectId] }, fromDay, toDay, period: 'day' });
  }

  /** The first local day with rolled-up data of any of the plant's devices (null: none). */
  async firstDataDay(projectId: number): Promise<number | null> {
    const r = await sql<{ d: number | string | null }>`select min(dd.day) as d from device_days dd
      join devices dv on dv.id = dd.device_id where dv.project_id = ${projectId}`.execute(this.db);
    const d = r.rows[0]?.d;
    return d === null || d === undefined ? null : Number(d);
  }

  async lastFrozenDay(projectId: number): Promise<number | null> {
    const r = await this.db
      .selectFrom('plant_income_days')
      .select((eb) => eb.fn.max('day').as('d'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return r?.d === null || r?.d === undefined ? null : Number(r.d);
  }

  async insertFrozen(
    projectId: number,
    rows: ReadonlyArray<{ day: number; currency: string; acc: IncomeAcc }>,
    now: number,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200).map((r) => {
        const v: Record<string, unknown> = { project_id: projectId, day: r.day, currency: r.currency, frozen_at: now };
        for (const [k, c] of Object.entries(ACC_COLUMNS)) v[c] = r.acc[k as keyof IncomeAcc];
        return v as never;
      });
      await this.db
        .insertInto('plant_income_days')
        .values(chunk)
        .onConflict((oc) => oc.columns(['project_id', 'day', 'currency']).doNothing())
        .execute();
    }
  }

  /** Frozen sums of a plant from `fromDay` on, per currency. */
  async frozenSince(projectId: number, fromDay: number): Promise<Map<string, IncomeAcc>> {
    const r = await sql<Record<string, unknown>>`select currency, ${sums} from plant_income_days
      where project_id = ${projectId} and day >= ${fromDay} group by currency`.execute(this.db);
    return new Map(r.rows.map((x) => [String(x.currency), accOf(x)]));
  }

  /** Frozen sums per month (YYYYMM) and currency over [fromDay, toDay]. */
  async frozenMonths(projectId: number, fromDay: number, toDay: number) {
    const r = await sql<Record<string, unknown>>`select day / 100 as m, currency, ${sums} from plant_income_days
      where project_id = ${projectId} and day >= ${fromDay} and day <= ${toDay} group by day / 100, currency`.execute(
      this.db,
    );
    return r.rows.map((x) => ({ month: Number(x.m), currency: String(x.currency), acc: accOf(x) }));
  }

  /** Frozen sums of one day per currency for several plants (fleet pages). */
  async frozenDay(projectIds: readonly number[], day: number) {
    if (projectIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('plant_income_days')
      .selectAll()
      .where('project_id', 'in', projectIds)
      .where('day', '=', day)
      .execute();
    return rows.map((x) => ({ projectId: Number(x.project_id), currency: x.currency, acc: accOf(x as never) }));
  }

  /** Frozen sums per currency over the plants of a scope since `fromDay`, and how many plants. */
  async fleetSince(scope: TelemetryScope, fromDay: number) {
    const r = await sql<Record<string, unknown>>`select i.currency, count(distinct i.project_id) as plants, ${sql.join(
      Object.values(ACC_COLUMNS).map((c) => sql`sum(${sql.ref(`i.${c}`)}) as ${sql.ref(c)}`),
    )}
      from plant_income_days i join projects p on p.id = i.project_id
      where i.day >= ${fromDay} and ${plantScopeSql(scope, 'p')} group by i.currency`.execute(this.db);
    return r.rows.map((x) => ({ currency: String(x.currency), plants: Number(x.plants), acc: accOf(x) }));
  }

  /**
   * Frozen generation per plant and currency (kWh, income) and each plant's newest frozen day: one
   * query over the plants of a scope, or over a list of plants (chunks of 500).
   */
  async frozenGen(target: TelemetryScope | readonly number[]) {
    const out = new Map<number, { last: number; byCurrency: Map<string, { kwh: number; income: number }> }>();
    const read = async (where: ReturnType<typeof sql>) => {
      const r = await sql<Record<string, unknown>>`select i.project_id, i.currency, max(i.day) as last,
          sum(i.generated) as kwh, sum(i.gen_income) as income
        from plant_income_days i join projects p on p.id = i.project_id
        where ${where} group by i.project_id, i.currency`.execute(this.db);
      for (const x of r.rows) {
        const id = Number(x.project_id);
        let e = out.get(id);
        if (!e) out.set(id, (e = { last: -1, byCurrency: new Map() }));
        e.last = Math.max(e.last, Number(x.last));
        e.byCurrency.set(String(x.currency), { kwh: Number(x.kwh ?? 0), income: Number(x.income ?? 0) });
      }
    };
    if (Array.isArray(target)) {
      const ids = target as readonly number[];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await read(sql`i.project_id in (${sql.join(chunk)})`);
      }
    } else await read(plantScopeSql(target as TelemetryScope, 'p'));
    return out;
  }

  /** The tariffs of several plants (by plant, oldest first) and the price columns of those plants. */
  async tariffsOfPlants(ids: readonly number[]) {
    const tariffs = new Map<number, TariffRow[]>();
    const prices = new Map<number, PlantPrices>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = [...ids.slice(i, i + 500)];
      const rows = await this.db
        .selectFrom('plant_tariffs')
        .selectAll()
        .where('project_id', 'in', chunk)
        .orderBy('project_id')
        .orderBy('effective_from', 'asc')
        .execute();
      for (const r of rows) {
        const list = tariffs.get(Number(r.project_id));
        if (list) list.push(r);
        else tariffs.set(Number(r.project_id), [r]);
      }
      const cols = await this.db
        .selectFrom('projects')
        .select(['id', 'currency', 'unit_profit', 'price_sell', 'price_self', 'price_buy', 'price_use', 'price_feed'])
        .where('id', 'in', chunk)
        .execute();
      for (const c of cols) prices.set(Number(c.id), c);
    }
    return { tariffs, prices };
  }

  /** The devices (id, devcode, devtype, plant) of several plants. */
  async devicesOfPlants(ids: readonly number[]) {
    const out: Array<{ id: number; devcode: number; devtype: number; project_id: number | null }> = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('devices')
        .select(['id', 'devtype', 'devcode', 'project_id'])
        .where('project_id', 'in', [...ids.slice(i, i + 500)])
        .execute();
      for (const d of rows)
        out.push({ id: Number(d.id), devcode: Number(d.devcode), devtype: Number(d.devtype), project_id: d.project_id });
    }
    return out;
  }

  /**
   * Counter readings of several devices over [start, end), each with its last reading before and first
   * reading at/after the range (as `readings`), in three queries per 200 devices.
   */
  async readingsOf(
    devices: ReadonlyArray<{ id: number; devcode: number }>,
    start: number,
    end: number,
  ): Promise<Map<number, Array<{ ts: number; c: Partial<Record<Flow, number>> }>>> {
    const raw = new Map<number, Array<{ ts: number; data: unknown }>>();
    const push = (rows: Array<{ device_id: unknown; ts: unknown; data: unknown }>) => {
      for (const r of rows) {
        const id = Number(r.device_id);
        const list = raw.get(id);
        const x = { ts: Number(r.ts), data: r.data };
        if (list) list.push(x);
        else raw.set(id, [x]);
      }
    };
    for (let i = 0; i < devices.length; i += 200) {
      const ids = devices.slice(i, i + 200).map((d) => d.id);
      const list = sql.join(ids);
      const before = await sql<{ device_id: unknown; ts: unknown; data: unknown }>`select s.device_id, s.ts, s.data
        from samples s where s.device_id in (${list}) and s.ts = (select max(s2.ts) from samples s2
          where s2.device_id = s.device_id and s2.ts < ${start})`.execute(this.db);
      const inside = await this.db
        .selectFrom('samples')
        .select(['device_id', 'ts', 'data'])
        .where('device_id', 'in', ids)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .execute();
      const after = await sql<{ device_id: unknown; ts: unknown; data: unknown }>`select s.device_id, s.ts, s.data
        from samples s where s.device_id in (${list}) and s.ts = (select min(s2.ts) from samples s2
          where s2.device_id = s.device_id and s2.ts >= ${end})`.execute(this.db);
      push(before.rows);
      push(inside);
      push(after.rows);
    }
    const out = new Map<number, Array<{ ts: number; c: Partial<Record<Flow, number>> }>>();
    for (const d of devices) {
      let def;
      try {
        def = definitionOf(d.devcode);
      } catch {
        continue;
      }
      const rows = (raw.get(d.id) ?? []).sort((a, b) => a.ts - b.ts);
      out.set(
        d.id,
        rows.map((r) => ({
          ts: r.ts,
          c: energyCounters(def, toSample(def, r.data as never)) as Partial<Record<Flow, number>>,
        })),
      );
    }
    return out;
  }

  /** Frozen generation (kWh, income) of a plant per day and currency over [fromDay, toDay]. */
  async frozenGenDays(projectId: number, fromDay: number, toDay: number) {
    const rows = await this.db
      .selectFrom('plant_income_days')
      .select(['day', 'currency', 'generated', 'gen_income'])
      .where('project_id', '=', projectId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .execute();
    return rows.map((r) => ({
      day: Number(r.day),
      currency: r.currency,
      kwh: Number(r.generated),
      income: Number(r.gen_income),
    }));
  }

  /** Plants (id, time zone) whose frozen days lag behind; for the freeze job. */
  async plantsToFreeze(afterId: number, limit: number) {
    return this.db
      .selectFrom('projects')
      .select(['id', 'tz_offset'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
