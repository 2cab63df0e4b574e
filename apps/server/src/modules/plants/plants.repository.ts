import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { ProjectsTable } from '../../db/schema-telemetry.js';
import { plantScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import { likePattern } from '../../db/like.js';

export type PlantRow = Selectable<ProjectsTable> & { owner_usr: string | null; status: number };

/**
 * Plant status from its devices (PLANT_STATUS): nothing bound or all offline → 1; a device in
 * fault/error/protocol error → 2; a warning → 4; one online → 0; else standby → 3.
 */
export const plantStatusSql = (alias = 'p') => sql<number>`(select case
    when count(*) = 0 then 1
    when sum(case when sd.status in (2, 5, 6) then 1 else 0 end) > 0 then 2
    when sum(case when sd.status = 4 then 1 else 0 end) > 0 then 4
    when sum(case when sd.status = 0 then 1 else 0 end) > 0 then 0
    when sum(case when sd.status = 3 then 1 else 0 end) > 0 then 3
    else 1 end
  from devices sd where sd.project_id = ${sql.ref(`${alias}.id`)})`;

export interface PlantFilter {
  status?: number | undefined;
  plantName?: string | undefined;
  ownerId?: number | undefined;
  /** Only plants with coordinates. */
  located?: boolean | undefined;
}

export type PlantOrder = 'ascPlantName' | 'descPlantName' | 'ascInstall' | 'descInstall' | 'ascStatus' | 'descStatus';

export class PlantsRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  private filtered(scope: TelemetryScope, f: PlantFilter) {
    let q = this.db
      .selectFrom('projects as p')
      .leftJoin('accounts as o', 'o.id', 'p.owner_id')
      .where(plantScopeSql(scope, 'p'));
    if (f.plantName) q = q.where(sql<SqlBool>`lower(p.name) like ${likePattern(f.plantName)} escape '\\'`);
    if (f.ownerId !== undefined) q = q.where('p.owner_id', '=', f.ownerId);
    if (f.status !== undefined) q = q.where(sql<SqlBool>`${plantStatusSql('p')} = ${f.status}`);
    if (f.located) q = q.where('p.lon', 'is not', null).where('p.lat', 'is not', null);
    return q;
  }

  private columns(q: ReturnType<PlantsRepository['filtered']>) {
    return q.selectAll('p').select(['o.usr as owner_usr', plantStatusSql('p').as('status')]);
  }

  async list(
    scope: TelemetryScope,
    f: PlantFilter,
    order: PlantOrder,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: PlantRow[] }> {
    const c = await this.filtered(scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    let q = this.columns(this.filtered(scope, f));
    const dir = order.startsWith('asc') ? 'asc' : 'desc';
    if (order.endsWith('PlantName')) q = q.orderBy('p.name', dir);
    else if (order.endsWith('Install')) q = q.orderBy('p.install_at', dir);
    else q = q.orderBy('status', dir);
    const rows = await q
      .orderBy('p.id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows: rows.map(norm) };
  }

  async all(scope: TelemetryScope, f: PlantFilter = {}, limit = 5000): Promise<PlantRow[]> {
    const rows = await this.columns(this.filtered(scope, f)).orderBy('p.id').limit(limit).execute();
    return rows.map(norm);
  }

  async find(scope: TelemetryScope, id: number): Promise<PlantRow | undefined> {
    const row = await this.columns(this.filtered(scope, {})).where('p.id', '=', id).executeTakeFirst();
    return row ? norm(row) : undefined;
  }

  /** A plant by id, without a scope check (the caller has checked access to it). */
  async findById(id: number): Promise<PlantRow | undefined> {
    return this.find({ kind: 'all', accountId: 0 }, id);
  }

  /** The dataloggers bound to a plant (no scope check: the caller has checked the plant). */
  async dataloggersOf(plantId: number) {
    return this.db
      .selectFrom('dataloggers')
      .select(['id', 'pn', 'alias', 'status'])
      .where('project_id', '=', plantId)
      .orderBy('id')
      .execute();
  }

  /** Dataloggers and devices per plant. */
  async counts(ids: readonly number[]): Promise<Map<number, { collectors: number; devices: number }>> {
    const out = new Map<number, { collectors: number; devices: number }>();
    if (ids.length === 0) return out;
    for (const id of ids) out.set(id, { collectors: 0, devices: 0 });
    const dl = await this.db
      .selectFrom('dataloggers')
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ids)
      .groupBy('project_id')
      .execute();
    for (const r of dl) out.get(Number(r.project_id))!.collectors = Number(r.n);
    const dv = await this.db
      .selectFrom('devices')
      .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', ids)
      .groupBy('project_id')
      .execute();
    for (const r of dv) out.get(Number(r.project_id))!.devices = Number(r.n);
    return out;
  }

  /** Plant counts by status in scope. */
  async statusCounts(scope: TelemetryScope): Promise<Array<{ status: number; n: number }>> {
    const rows = await sql<{ status: number; n: number }>`
      select s.status as status, count(*) as n from (
        select ${plantStatusSql('p')} as status from projects p where ${plantScopeSql(scope, 'p')}
      ) s group by s.status`.execute(this.db);
    return rows.rows.map((r) => ({ status: Number(r.status), n: Number(r.n) }));
  }
}

function norm<T extends { status: unknown }>(r: T): T & { status: number } {
  return { ...r, status: Number(r.status) };
}
