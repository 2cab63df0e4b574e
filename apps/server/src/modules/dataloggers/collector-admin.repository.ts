import { sql, type Selectable, type SqlBool } from 'kysely';
import { SUNSET_NETWORKS } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { DataloggersTable } from '../../db/schema-telemetry.js';
import { currentDb } from '../../db/transaction.js';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import { likePattern } from '../../db/like.js';
import { cardStatusSql, cellularSql } from './flow-card-sql.js';

export type CollectorRecord = Selectable<DataloggersTable>;

/** queryGprsCollector's filters; `cardStatus` is a CARD_STATUSES index. */
export interface GprsFilter {
  pn?: string | undefined;
  ccid?: string | undefined;
  load?: number | undefined;
  search?: string | undefined;
  network?: string | undefined;
  cardStatus?: number | undefined;
}

/** What a reset deleted. */
export interface ResetCounts {
  devices: number;
  samples: number;
  latest: number;
  days: number;
  alarms: number;
  follows: number;
}

/** The SQL of datalogger management (issue 10). */
export class CollectorAdminRepository {
  constructor(
    private readonly root: Db,
    private readonly now: () => number,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async byPn(pn: string): Promise<CollectorRecord | undefined> {
    const row = await this.db.selectFrom('dataloggers').selectAll().where('pn', '=', pn).executeTakeFirst();
    return row ? { ...row, id: Number(row.id) } : undefined;
  }

  async byPns(pns: readonly string[]): Promise<Map<string, CollectorRecord>> {
    if (pns.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('dataloggers')
      .selectAll()
      .where('pn', 'in', [...pns])
      .execute();
    return new Map(rows.map((r) => [r.pn, { ...r, id: Number(r.id) }]));
  }

  async plantOf(ownerId: number, plantId: number): Promise<{ id: number; tz_offset: number } | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select(['id', 'tz_offset'])
      .where('id', '=', plantId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return row ? { id: Number(row.id), tz_offset: Number(row.tz_offset) } : undefined;
  }

  async plantName(plantId: number | null): Promise<{ name: string; tz: number } | undefined> {
    if (plantId == null) return undefined;
    const row = await this.db
      .selectFrom('projects')
      .select(['name', 'tz_offset'])
      .where('id', '=', plantId)
      .executeTakeFirst();
    return row ? { name: row.name, tz: Number(row.tz_offset) } : undefined;
  }

  async usrOf(ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
    const want = [...new Set(ids.filter((i): i is number => i != null))];
    if (want.length === 0) return new Map();
    const rows = await this.db.selectFrom('accounts').select(['id', 'usr']).where('id', 'in', want).execute();
    return new Map(rows.map((r) => [Number(r.id), r.usr]));
  }

  /**
   * The dealer (distributor, not a sub-administrator) nearest above an account on its path, which
   * becomes the admin of a datalogger the account binds while none administers it.
   */
  async dealerAbove(path: string, self: number): Promise<number | undefined> {
    const ids = path
      .split('/')
      .filter((s) => s !== '')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n !== self);
    if (ids.length === 0) return undefined;
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'path'])
      .where('id', 'in', ids)
      .where('role', '=', 2)
      .where('admin_of', 'is', null)
      .execute();
    rows.sort((a, b) => b.path.length - a.path.length);
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  async deviceCount(dataloggerId: number): Promise<number> {
    const r = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('datalogger_id', '=', dataloggerId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async update(id: number, patch: Partial<Omit<CollectorRecord, 'id'>>): Promise<void> {
    await this.db
      .updateTable('dataloggers')
      .set({ ...patch, updated_at: this.now() })
      .where('id', '=', id)
      .execute();
  }

  /** The plant of the datalogger's devices follows the datalogger's. */
  async setDevicesPlant(dataloggerId: number, projectId: number | null): Promise<void> {
    await this.db
      .updateTable('devices')
      .set({ project_id: projectId })
      .where('datalogger_id', '=', dataloggerId)
      .execute();
  }

  /** An account's follows of the datalogger's devices (its management right is gone). */
  async dropFollows(dataloggerId: number, accountId: number): Promise<void> {
    await this.db
      .deleteFrom('device_follows')
      .where('account_id', '=', accountId)
      .where('device_id', 'in', (eb) => eb.selectFrom('devices').select('id').where('datalogger_id', '=', dataloggerId))
      .execute();
  }

  /**
   * Reset: the datalogger's devices and ALL their data — samples, latest values, daily rollups,
   * alarms (its own and its devices'), follows — and nothing of any other datalogger. The
   * datalogger row stays (it registers again), its load count goes to 0.
   */
  async deleteAllData(dataloggerId: number): Promise<ResetCounts> {
    const devIds = (
      await this.db.selectFrom('devices').select('id').where('datalogger_id', '=', dataloggerId).execute()
    ).map((r) => Number(r.id));
    const n = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
    const counts: ResetCounts = { devices: 0, samples: 0, latest: 0, days: 0, alarms: 0, follows: 0 };
    // In chunks: PostgreSQL and SQLite both take a bounded number of bound parameters.
    for (let i = 0; i < devIds.length; i += 500) {
      const ids = devIds.slice(i, i + 500);
      counts.samples += n(await this.db.deleteFrom('samples').where('device_id', 'in', ids).executeTakeFirst());
      counts.latest += n(await this.db.deleteFrom('device_latest').where('device_id', 'in', ids).executeTakeFirst());
      counts.days += n(await this.db.deleteFrom('device_days').where('device_id', 'in', ids).executeTakeFirst());
      counts.follows += n(await this.db.deleteFrom('device_follows').where('device_id', 'in', ids).executeTakeFirst());
    }
    counts.alarms = n(await this.db.deleteFrom('alarms').where('datalogger_id', '=', dataloggerId).executeTakeFirst());
    counts.devices = n(
      await this.db.deleteFrom('devices').where('datalogger_id', '=', dataloggerId).executeTakeFirst(),
    );
    await this.update(dataloggerId, { load_count: 0 });
    return counts;
  }

  /** The cellular dataloggers of the scope with the list's filters (status filter aside). */
  private gprsBase(scope: TelemetryScope, f: GprsFilter) {
    let q = this.db.selectFrom('dataloggers as dl').where(dataloggerScopeSql(scope, 'dl')).where(cellularSql('dl'));
    if (f.pn?.trim()) q = q.where(sql`lower(dl.pn)`, 'like', sql`${likePattern(f.pn.trim())} escape '\\'`);
    if (f.ccid?.trim()) q = q.where(sql`lower(dl.ccid)`, 'like', sql`${likePattern(f.ccid.trim())} escape '\\'`);
    if (f.search?.trim()) {
      const p = likePattern(f.search.trim());
      q = q.where(sql<SqlBool>`(lower(dl.pn) like ${p} escape '\\' or lower(dl.ccid) like ${p} escape '\\')`);
    }
    if (f.load !== undefined) q = q.where('dl.load_count', '=', f.load);
    if (f.network !== undefined) q = q.where('dl.card_network', '=', f.network);
    return q;
  }

  /**
   * GPRS (cellular) dataloggers of the scope: fuzzy PN, fuzzy CCID, load, and the web's search,
   * derived card status (as of now) and network; paged, each row with its derived `card_code`.
   */
  async gprs(
    scope: TelemetryScope,
    f: GprsFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: Array<CollectorRecord & { card_code: number }> }> {
    const now = this.now();
    let q = this.gprsBase(scope, f);
    if (f.cardStatus !== undefined) q = q.where(cardStatusSql(now, 'dl'), '=', f.cardStatus);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .selectAll('dl')
      .select(cardStatusSql(now, 'dl').as('card_code'))
      .orderBy('dl.id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows: rows.map((r) => ({ ...r, id: Number(r.id), card_code: Number(r.card_code) })) };
  }

  /** Cards per derived status (0..4) and 2G cards, over the list's filters without the status one. */
  async gprsStats(scope: TelemetryScope, f: GprsFilter): Promise<{ byStatus: Map<number, number>; sunset: number }> {
    const code = cardStatusSql(this.now(), 'dl');
    const rows = await this.gprsBase(scope, f)
      .select([code.as('code'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(code)
      .execute();
    const sunset = await this.gprsBase(scope, f)
      .where('dl.card_network', 'in', [...SUNSET_NETWORKS])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { byStatus: new Map(rows.map((r) => [Number(r.code), Number(r.n)])), sunset: Number(sunset.n) };
  }
}
