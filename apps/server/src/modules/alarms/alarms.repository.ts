import type { AlarmDeviceType, AlarmRule } from '@sunwatch/protocol';
import { sql, type SqlBool } from 'kysely';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import { ALARM_TZ, alarmDeviceTypeSql, anyRuleSql } from './alarm-sql.js';

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

  /** alarms a ⋈ dataloggers dl ⟕ devices d ⟕ projects p, scoped and filtered. */
  private base(scope: TelemetryScope, f: AlarmFilter) {
    let q = this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .leftJoin('devices as d', 'd.id', 'a.device_id')
      .leftJoin('projects as p', 'p.id', 'dl.project_id')
      .where(dataloggerScopeSql(scope, 'dl'));
    if (f.deviceId !== undefined) q = q.where('a.device_id', '=', f.deviceId);
    if (f.plantId !== undefined) q = q.where('dl.project_id', '=', f.plantId);
    if (f.handle !== undefined) q = q.where('a.handled', '=', f.handle);
    if (f.levels && f.levels.length > 0) q = q.where('a.level', 'in', [...f.levels]);
    if (f.devtype !== undefined) q = q.where('d.devtype', '=', f.devtype);
    if (f.atype && f.atype.length > 0) q = q.where(alarmDeviceTypeSql(f.atype));
    if (f.code !== undefined) q = q.where('a.code', '=', f.code);
    if (f.id !== undefined) q = q.where('a.id', '=', f.id);
    if (f.from !== undefined) q = q.where('a.started_at', '>=', f.from);
    if (f.to !== undefined) q = q.where('a.started_at', '<', f.to);
    if (f.state === 1) q = q.where('a.ended_at', 'is', null);
    if (f.state === 2) q = q.where('a.ended_at', 'is not', null);
    if (f.pname) q = q.where(sql<SqlBool>`lower(p.name) like ${likePattern(f.pname)} escape '\\'`);
    if (f.province) q = q.where('p.province', '=', f.province);
    if (f.city) q = q.where('p.city', '=', f.city);
    if (f.county) q = q.where('p.county', '=', f.county);
    if (f.town) q = q.where('p.district', '=', f.town);
    if (f.pn) q = q.where('dl.pn', '=', f.pn);
    if (f.sn) q = q.where('d.sn', '=', f.sn);
    if (f.search) {
      const like = likePattern(f.search);
      q = q.where(sql<SqlBool>`(lower(dl.pn) like ${like} escape '\\' or lower(d.sn) like ${like} escape '\\')`);
    }
    if (f.ownerId !== undefined) q = q.where('p.owner_id', '=', f.ownerId);
    const b = f.before;
    if (b)
      q = q.where((eb) =>
        eb.or([
          eb('a.started_at', '<', b.startedAt),
          eb.and([eb('a.started_at', '=', b.startedAt), eb('a.id', '<', b.id)]),
        ]),
      );
    const rules = f.hideRules ?? [];
    if (rules.length > 0 && f.hidden !== 1) q = q.where(sql<number>`${anyRuleSql(rules)}`, '=', f.hidden === 2 ? 1 : 0);
    if (rules.length === 0 && f.hidden === 2) q = q.where(sql<SqlBool>`1 = 0`);
    return q;
  }

  async count(scope: TelemetryScope, f: AlarmFilter): Promise<number> {
    const r = await this.base(scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** A page of alarms, newest first. */
  async list(scope: TelemetryScope, f: AlarmFilter, offset: number, limit: number): Promise<AlarmListRow[]> {
    const rows = await this.base(scope, f)
      .leftJoin('accounts as o', 'o.id', 'p.owner_id')
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
        'p.owner_id',
        'o.usr as owner_usr',
        ALARM_TZ.as('tz'),
      ])
      .orderBy('a.started_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      started_at: Number(r.started_at),
      ended_at: r.ended_at === null ? null : Number(r.ended_at),
      handled_at: r.handled_at === null ? null : Number(r.handled_at),
      tz: Number(r.tz),
    })) as AlarmListRow[];
  }

  /** Distinct alarm sources (a device, or a datalogger for its own alarms) with an ongoing alarm. */
  async sourcesInAlarm(scope: TelemetryScope, f: AlarmFilter): Promise<number> {
    const r = await this.base(scope, { ...f, state: 1 })
      .select(sql<number>`count(distinct coalesce(a.device_id, -a.datalogger_id))`.as('n'))
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
    const rows = await this.base(scope, f)
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
    return this.base(scope, {})
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
