import type { AlarmDeviceType, AlarmRule } from '@sunwatch/protocol';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import { ALARM_TZ, alarmDeviceTypeSql, anyRuleSql, DATALOGGER_TZS_SQL } from './alarm-sql.js';

const FALSE = sql<SqlBool>`1 = 0`;
/**
 * At most this many dataloggers in scope: the list and count name them (the per-datalogger index
 * path, no newest-first walk over everyone's alarms); more: a semi-join.
 */
const SMALL_SCOPE = 64;

/** What an alarm list or count is narrowed to (all optional; instants are epoch ms, half-open). */
export interface AlarmFilter {
  deviceId?: number | undefined;
  plantId?: number | undefined;
  handle?: number | undefined;
  levels?: readonly number[] | undefined;
  devtype?: number | undefined;
  atype?: readonly AlarmDeviceType[] | undefined;
  code?: number | undefined;
  /** One alarm (a mail's link). */
  id?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** 1 ongoing, 2 ended. */
  state?: number | undefined;
  pname?: string | undefined;
  province?: string | undefined;
  city?: string | undefined;
  county?: string | undefined;
  town?: string | undefined;
  pn?: string | undefined;
  sn?: string | undefined;
  search?: string | undefined;
  ownerId?: number | undefined;
  /** Rules whose `hide` applies, and what to do with the alarms they match: 0 exclude, 1 include, 2 only. */
  hideRules?: readonly AlarmRule[] | undefined;
  hidden?: number | undefined;
  /** Keyset: only alarms after this one in the newest-first order (the alarm export walks in batches). */
  before?: { startedAt: number; id: number } | undefined;
}

/** One alarm with what its wire row needs. */
export interface AlarmListRow {
  id: number;
  datalogger_id: number;
  device_id: number | null;
  level: number;
  code: number;
  started_at: number;
  ended_at: number | null;
  handled: number;
  handled_usr: string;
  handled_at: number | null;
  pn: string;
  dl_alias: string;
  sn: string | null;
  devcode: number | null;
  devaddr: number | null;
  devtype: number | null;
  dev_alias: string | null;
  pid: number | null;
  pname: string | null;
  p_address: string | null;
  p_city: string | null;
  p_province: string | null;
  p_country: string | null;
  owner_id: number | null;
  owner_usr: string | null;
  tz: number;
}

/** The SQL of alarms: lists, counts, statistics, handling, rules. Every read is scoped through the datalogger. */
export class AlarmsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /**
   * The alarms of `f` over `a` alone: the caller's scope and the datalogger/plant filters become a
   * set of dataloggers (explicit ids when it is small: the per-datalogger index path; else a
   * semi-join), device filters and hiding rules semi-joins (alarm-sql.ts). `wide` (a semi-join
   * scope) lets the list walk `alarms_started_idx` newest first (`+` keeps SQLite off the
   * datalogger index there); counts iterate the datalogger set over the narrow covering index
   * `alarms_dl_list_idx`.
   */
  private async where(scope: TelemetryScope, f: AlarmFilter, forList: boolean) {
    const dls = await this.dataloggerSet(scope, f);
    const tzs = (f.hideRules ?? []).some((r) => r.enabled && r.stime !== r.etime) ? await this.tzs() : [];
    const conds: RawBuilder<SqlBool>[] = [];
    if (dls.ids) {
      if (dls.ids.length === 0) return FALSE;
      conds.push(sql<SqlBool>`a.datalogger_id in (${sql.join(dls.ids)})`);
    } else {
      // A device filter is far narrower than a wide datalogger set: let it choose the index.
      const offIndex = forList || f.deviceId !== undefined || !!f.sn;
      conds.push(sql<SqlBool>`${offIndex ? sql`+a.datalogger_id` : sql`a.datalogger_id`} in (${dls.sub})`);
    }
    if (f.deviceId !== undefined) conds.push(sql<SqlBool>`a.device_id = ${f.deviceId}`);
    if (f.handle !== undefined) conds.push(sql<SqlBool>`a.handled = ${f.handle}`);
    if (f.levels && f.levels.length > 0) conds.push(sql<SqlBool>`a.level in (${sql.join([...f.levels])})`);
    if (f.devtype !== undefined)
      conds.push(sql<SqlBool>`a.device_id in (select d.id from devices d where d.devtype = ${f.devtype})`);
    if (f.atype && f.atype.length > 0) conds.push(alarmDeviceTypeSql(f.atype, true));
    if (f.code !== undefined) conds.push(sql<SqlBool>`a.code = ${f.code}`);
    if (f.id !== undefined) conds.push(sql<SqlBool>`a.id = ${f.id}`);
    if (f.from !== undefined) conds.push(sql<SqlBool>`a.started_at >= ${f.from}`);
    if (f.to !== undefined) conds.push(sql<SqlBool>`a.started_at < ${f.to}`);
    if (f.state === 1) conds.push(sql<SqlBool>`a.ended_at is null`);
    if (f.state === 2) conds.push(sql<SqlBool>`a.ended_at is not null`);
    if (f.sn) conds.push(sql<SqlBool>`a.device_id in (select d.id from devices d where d.sn = ${f.sn})`);
    if (f.search) {
      const like = likePattern(f.search);
      conds.push(sql<SqlBool>`(a.datalogger_id in (select dl.id from dataloggers dl where lower(dl.pn) like ${like} escape '\\')
        or a.device_id in (select d.id from devices d where lower(d.sn) like ${like} escape '\\'))`);
    }
    if (f.ownerId !== undefined) conds.push(sql<SqlBool>`a.owner_id = ${f.ownerId}`);
    const b = f.before;
    if (b) conds.push(sql<SqlBool>`(a.started_at < ${b.startedAt} or (a.started_at = ${b.startedAt} and a.id < ${b.id}))`);
    const rules = f.hideRules ?? [];
    if (rules.length > 0 && f.hidden !== 1) conds.push(sql<SqlBool>`${anyRuleSql(rules, tzs)} = ${f.hidden === 2 ? 1 : 0}`);
    if (rules.length === 0 && f.hidden === 2) return FALSE;
    return sql<SqlBool>`${sql.join(conds, sql` and `)}`;
  }

  /** Every timezone alarms are read in (few; for the join-free time slots of hiding rules). */
  private async tzs(): Promise<number[]> {
    const r = await DATALOGGER_TZS_SQL.execute(this.db);
    return r.rows.map((x) => Number(x.tz));
  }

  /** The dataloggers of the scope and the datalogger/plant filters: ids when at most SMALL_SCOPE, else a sub-select. */
  private async dataloggerSet(scope: TelemetryScope, f: AlarmFilter) {
    const q = () => {
      let s = this.db.selectFrom('dataloggers as dl').select('dl.id').where(dataloggerScopeSql(scope, 'dl'));
      if (f.plantId !== undefined) s = s.where('dl.project_id', '=', f.plantId);
      if (f.pn) s = s.where('dl.pn', '=', f.pn);
      const plant: RawBuilder<SqlBool>[] = [];
      if (f.pname) plant.push(sql<SqlBool>`lower(p.name) like ${likePattern(f.pname)} escape '\\'`);
      if (f.province) plant.push(sql<SqlBool>`p.province = ${f.province}`);
      if (f.city) plant.push(sql<SqlBool>`p.city = ${f.city}`);
      if (f.county) plant.push(sql<SqlBool>`p.county = ${f.county}`);
      if (f.town) plant.push(sql<SqlBool>`p.district = ${f.town}`);
      if (plant.length > 0)
        s = s.where(sql<SqlBool>`dl.project_id in (select p.id from projects p where ${sql.join(plant, sql` and `)})`);
      return s;
    };
    const few = await q()
      .limit(SMALL_SCOPE + 1)
      .execute();
    if (few.length <= SMALL_SCOPE) return { ids: few.map((r) => Number(r.id)) };
    return { sub: q() };
  }

  /**
   * The exact number of alarms of `f`. Narrowed only by scope, datalogger/plant, type, status and
   * history (the alarm page's first look): a sum over `alarm_counts`, a few rows per datalogger.
   * Otherwise a count over `a` alone (alarms_dl_list_idx, device indexes, semi-joins).
   */
  async count(scope: TelemetryScope, f: AlarmFilter): Promise<number> {
    const liveRules = (f.hideRules ?? []).filter((r) => r.enabled);
    const byCounters =
      f.deviceId === undefined &&
      f.devtype === undefined &&
      !(f.atype && f.atype.length > 0) &&
      f.code === undefined &&
      f.id === undefined &&
      f.from === undefined &&
      f.to === undefined &&
      !f.sn &&
      !f.search &&
      f.ownerId === undefined &&
      f.before === undefined &&
      (liveRules.length === 0 || f.hidden === 1) &&
      f.hidden !== 2;
    if (byCounters) {
      const dls = await this.dataloggerSet(scope, f);
      if (dls.ids && dls.ids.length === 0) return 0;
      let q = this.db
        .selectFrom('alarm_counts as c')
        .select(sql<number>`coalesce(sum(c.n), 0)`.as('n'))
        .where(dls.ids ? sql<SqlBool>`c.datalogger_id in (${sql.join(dls.ids)})` : sql<SqlBool>`c.datalogger_id in (${dls.sub})`);
      if (f.handle !== undefined) q = q.where('c.handled', '=', f.handle);
      if (f.levels && f.levels.length > 0) q = q.where('c.level', 'in', [...f.levels]);
      if (f.state === 1) q = q.where('c.open', '=', 1);
      if (f.state === 2) q = q.where('c.open', '=', 0);
      return Number((await q.executeTakeFirstOrThrow()).n);
    }
    const where = await this.where(scope, f, false);
    const r = await this.db
      .selectFrom('alarms as a')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** A page of alarms, newest first: the page's ids over `a` alone, then their details. */
  async list(scope: TelemetryScope, f: AlarmFilter, offset: number, limit: number): Promise<AlarmListRow[]> {
    const where = await this.where(scope, f, true);
    const page = await this.db
      .selectFrom('alarms as a')
      .select('a.id')
      .where(where)
      .orderBy('a.started_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    if (page.length === 0) return [];
    const ids = page.map((r) => Number(r.id));
    const rows = await this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .leftJoin('devices as d', 'd.id', 'a.device_id')
      .leftJoin('projects as p', 'p.id', 'dl.project_id')
      .leftJoin('accounts as o', 'o.id', 'a.owner_id')
      .select([
        'a.id',
        'a.datalogger_id',
        'a.device_id',
        'a.level',
        'a.code',
        'a.started_at',
        'a.ended_at',
        'a.handled',
        'a.handled_usr',
        'a.handled_at',
        'dl.pn',
        'dl.alias as dl_alias',
        'd.sn',
        'd.devcode',
        'd.devaddr',
        'd.devtype',
        'd.alias as dev_alias',
        'p.id as pid',
        'p.name as pname',
        'p.address as p_address',
        'p.city as p_city',
        'p.province as p_province',
        'p.country as p_country',
        'a.owner_id',
        'o.usr as owner_usr',
        ALARM_TZ.as('tz'),
      ])
      .where('a.id', 'in', ids)
      .execute();
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows
      .map((r) => ({
        ...r,
        id: Number(r.id),
        started_at: Number(r.started_at),
        ended_at: r.ended_at === null ? null : Number(r.ended_at),
        handled_at: r.handled_at === null ? null : Number(r.handled_at),
        tz: Number(r.tz),
      }))
      .sort((x, y) => order.get(x.id)! - order.get(y.id)!) as AlarmListRow[];
  }

  /** Distinct alarm sources (a device, or a datalogger for its own alarms) with an ongoing alarm. */
  async sourcesInAlarm(scope: TelemetryScope, f: AlarmFilter): Promise<number> {
    const where = await this.where(scope, { ...f, state: 1 }, false);
    const r = await this.db
      .selectFrom('alarms as a')
      .select(sql<number>`count(distinct coalesce(a.device_id, -a.datalogger_id))`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Alarm counts per local day number (epoch days in `tz`) and level since `from`. */
  async perDayLevel(
    scope: TelemetryScope,
    f: AlarmFilter,
    tz: number,
  ): Promise<Array<{ day: number; level: number; n: number; untreated: number }>> {
    // A literal (an integer checked here): bound numbers are REAL on SQLite (no integer division),
    // and PostgreSQL needs the same expression text in select and group by.
    if (!Number.isInteger(tz)) throw new Error('tz must be an integer');
    const day = sql<number>`((a.started_at + ${sql.lit(tz * 1000)}) / 86400000)`;
    const where = await this.where(scope, f, false);
    const rows = await this.db
      .selectFrom('alarms as a')
      .where(where)
      .select([
        day.as('day'),
        'a.level',
        (eb) => eb.fn.countAll<number>().as('n'),
        sql<number>`sum(case when a.handled = 0 then 1 else 0 end)`.as('untreated'),
      ])
      .groupBy([day, 'a.level'])
      .execute();
    return rows.map((r) => ({
      day: Number(r.day),
      level: Number(r.level),
      n: Number(r.n),
      untreated: Number(r.untreated),
    }));
  }

  /** The ids among `ids` the scope sees, with their handling state. */
  async visible(scope: TelemetryScope, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .where('a.id', 'in', [...ids])
      .select(['a.id', 'a.handled', 'a.handled_by', 'a.handled_usr', 'a.handled_at'])
      .execute();
  }

  /** Marks the untreated ones among `ids` processed; answers the ids it changed. */
  async handle(ids: readonly number[], by: { accountId: number; usr: string }, at: number): Promise<number[]> {
    if (ids.length === 0) return [];
    const open = await this.db
      .selectFrom('alarms')
      .select('id')
      .where('id', 'in', [...ids])
      .where('handled', '=', 0)
      .execute();
    const changed = open.map((r) => Number(r.id));
    if (changed.length === 0) return [];
    await this.db
      .updateTable('alarms')
      .set({ handled: 1, handled_by: by.accountId, handled_usr: by.usr.slice(0, 64), handled_at: at })
      .where('id', 'in', changed)
      .where('handled', '=', 0)
      .execute();
    return changed;
  }

  /** A plant's timezone (seconds east of UTC). */
  async plantTz(plantId: number): Promise<number> {
    const r = await this.db.selectFrom('projects').select('tz_offset').where('id', '=', plantId).executeTakeFirst();
    return Number(r?.tz_offset ?? 0);
  }

  // ---------------------------------------------------------------------------------------
  // Rules
  // ---------------------------------------------------------------------------------------

  rules(accountId: number) {
    return this.db
      .selectFrom('alarm_rules')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  rule(accountId: number, id: number) {
    return this.db
      .selectFrom('alarm_rules')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async ruleNameTaken(accountId: number, name: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('alarm_rules')
      .select('id')
      .where('account_id', '=', accountId)
      .where(sql<SqlBool>`lower(name) = ${name.toLowerCase()}`);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async ruleCount(accountId: number): Promise<number> {
    const r = await this.db
      .selectFrom('alarm_rules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertRule(row: RuleColumns & { account_id: number; created_at: number; updated_at: number }): Promise<number> {
    const r = await this.db.insertInto('alarm_rules').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async updateRule(accountId: number, id: number, set: Partial<RuleColumns> & { updated_at: number }): Promise<void> {
    await this.db
      .updateTable('alarm_rules')
      .set(set)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  async deleteRule(accountId: number, id: number): Promise<void> {
    await this.db.deleteFrom('alarm_rules').where('account_id', '=', accountId).where('id', '=', id).execute();
  }
}

/** The editable columns of a rule row. */
export interface RuleColumns {
  name: string;
  enabled: number;
  stime: string;
  etime: string;
  atype: string;
  pids: string;
  devices: string;
  levels: string;
  codes: string;
  description: string;
  mute: number;
  hide: number;
}
