import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import { likePattern } from '../../db/like.js';

export interface DataloggerRow {
  id: number;
  pn: string;
  alias: string;
  status: number;
  firmware: string;
  signal: number;
  load_count: number;
  collect_interval: number;
  tz_offset: number;
  owner_id: number | null;
  owner_usr: string | null;
  project_id: number | null;
  pname: string | null;
  p_tz: number | null;
  model: string;
  type_code: string;
  last_seen_at: number | null;
  created_at: number;
  devices: number;
}

export interface DataloggerFilter {
  pid?: number | undefined;
  pn?: string | undefined;
  status?: number | undefined;
  devtype?: number | undefined;
  search?: string | undefined;
}

export class DataloggersRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  private filtered(scope: TelemetryScope, f: DataloggerFilter) {
    let q = this.db
      .selectFrom('dataloggers as dl')
      .leftJoin('projects as p', 'p.id', 'dl.project_id')
      .leftJoin('accounts as o', 'o.id', 'dl.owner_id')
      .where(dataloggerScopeSql(scope, 'dl'));
    if (f.pid !== undefined) q = q.where('dl.project_id', '=', f.pid);
    if (f.pn) q = q.where('dl.pn', '=', f.pn);
    if (f.status !== undefined) q = q.where('dl.status', '=', f.status);
    if (f.devtype !== undefined) {
      q = q.where(
        sql<SqlBool>`exists (select 1 from devices x where x.datalogger_id = dl.id and x.devtype = ${f.devtype})`,
      );
    }
    if (f.search) {
      const p = likePattern(f.search);
      q = q.where(sql<SqlBool>`(lower(dl.pn) like ${p} escape '\\' or lower(dl.alias) like ${p} escape '\\')`);
    }
    return q;
  }

  private columns(q: ReturnType<DataloggersRepository['filtered']>) {
    return q.select([
      'dl.id',
      'dl.pn',
      'dl.alias',
      'dl.status',
      'dl.firmware',
      'dl.signal',
      'dl.load_count',
      'dl.collect_interval',
      'dl.tz_offset',
      'dl.owner_id',
      'o.usr as owner_usr',
      'dl.project_id',
      'p.name as pname',
      'p.tz_offset as p_tz',
      'dl.model',
      'dl.type_code',
      'dl.last_seen_at',
      'dl.created_at',
      sql<number>`(select count(*) from devices c where c.datalogger_id = dl.id)`.as('devices'),
    ]);
  }

  async list(
    scope: TelemetryScope,
    f: DataloggerFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: DataloggerRow[] }> {
    const c = await this.filtered(scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await this.columns(this.filtered(scope, f))
      .orderBy('dl.id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows: rows.map(norm) };
  }

  /** Dataloggers by PN, without a scope check (the caller has checked access to them). */
  async byPns(pns: readonly string[]): Promise<DataloggerRow[]> {
    if (pns.length === 0) return [];
    const rows = await this.columns(this.filtered({ kind: 'all', accountId: 0 }, {}))
      .where('dl.pn', 'in', [...pns])
      .execute();
    return rows.map(norm);
  }

  async devicesOf(dataloggerId: number) {
    return this.db
      .selectFrom('devices')
      .select(['sn', 'devcode', 'devaddr', 'alias', 'devtype', 'status'])
      .where('datalogger_id', '=', dataloggerId)
      .orderBy('devaddr')
      .orderBy('id')
      .execute();
  }

  async statusCounts(scope: TelemetryScope): Promise<Array<{ status: number; n: number }>> {
    const rows = await this.db
      .selectFrom('dataloggers as dl')
      .where(dataloggerScopeSql(scope, 'dl'))
      .select(['dl.status as status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('dl.status')
      .execute();
    return rows.map((r) => ({ status: Number(r.status), n: Number(r.n) }));
  }
}

function norm<T extends { devices: unknown }>(r: T): T & { devices: number } {
  return { ...r, devices: Number(r.devices) };
}
