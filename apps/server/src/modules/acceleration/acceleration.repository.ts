import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import type { AccelerationChangesTable, AccelerationOrdersTable } from '../../db/schema-acceleration.js';
import { currentDb } from '../../db/transaction.js';

export type AccelerationOrderRecord = Selectable<AccelerationOrdersTable> & {
  alias: string | null;
  change: string | null;
  applied_at: number | null;
};
export type AccelerationChangeRecord = Selectable<AccelerationChangesTable> & { order_no: string };

/** The datalogger facts an acceleration needs. */
export interface AccelerationDatalogger {
  id: number;
  pn: string;
  alias: string;
  comm_method: string;
  collect_interval: number;
  load_count: number;
  owner_id: number | null;
  status: number;
}

/** Who may see which orders: the datalogger scope, and for an owner only the orders of its ownership. */
export interface OrderScope {
  scope: TelemetryScope;
  ownerId?: number;
}

export interface Paging {
  page: number;
  pagesize: number;
}

const num = (v: unknown) => Number(v);

/**
 * SQL of acceleration orders (issue 15): orders, their interval changes, the candidates of the
 * purchase page. Every list is scoped by the access predicates of the datalogger it concerns.
 */
export class AccelerationRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async datalogger(pn: string): Promise<AccelerationDatalogger | undefined> {
    const r = await this.db
      .selectFrom('dataloggers')
      .select(['id', 'pn', 'alias', 'comm_method', 'collect_interval', 'load_count', 'owner_id', 'status'])
      .where('pn', '=', pn)
      .executeTakeFirst();
    return r
      ? {
          ...r,
          id: num(r.id),
          collect_interval: num(r.collect_interval),
          load_count: num(r.load_count),
          owner_id: r.owner_id === null ? null : num(r.owner_id),
          status: num(r.status),
        }
      : undefined;
  }

  /** The devcodes of the datalogger's devices, one entry per device. */
  async deviceDevcodes(dataloggerId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('devices')
      .select('devcode')
      .where('datalogger_id', '=', dataloggerId)
      .execute();
    return rows.map((r) => num(r.devcode));
  }

  /**
   * Wi-Fi dataloggers in the scope (an owner: its own), matching `search` on PN or alias. Wi-Fi is
   * decided by `comm_method` (protocol isWifiCommMethod: "wifi" / "wi-fi", any case).
   */
  async candidates(
    s: OrderScope,
    search: string,
    p: Paging,
  ): Promise<{ total: number; rows: AccelerationDatalogger[] }> {
    let q = this.db
      .selectFrom('dataloggers as dl')
      .where(dataloggerScopeSql(s.scope, 'dl'))
      .where(sql<SqlBool>`lower(trim(dl.comm_method)) in ('wifi', 'wi-fi')`);
    if (s.ownerId !== undefined) q = q.where('dl.owner_id', '=', s.ownerId);
    if (search !== '') {
      const like = likePattern(search);
      q = q.where(sql<SqlBool>`(lower(dl.pn) like ${like} escape '\\' or lower(dl.alias) like ${like} escape '\\')`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .select([
        'dl.id',
        'dl.pn',
        'dl.alias',
        'dl.comm_method',
        'dl.collect_interval',
        'dl.load_count',
        'dl.owner_id',
        'dl.status',
      ])
      .orderBy('dl.pn')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return {
      total: num(total?.n ?? 0),
      rows: rows.map((r) => ({
        ...r,
        id: num(r.id),
        collect_interval: num(r.collect_interval),
        load_count: num(r.load_count),
        owner_id: r.owner_id === null ? null : num(r.owner_id),
        status: num(r.status),
      })),
    };
  }

  async insertOrder(row: Insertable<AccelerationOrdersTable>): Promise<number> {
    const r = await this.db.insertInto('acceleration_orders').values(row).returning('id').executeTakeFirstOrThrow();
    return num(r.id);
  }

  private orders() {
    return this.db
      .selectFrom('acceleration_orders as o')
      .leftJoin('dataloggers as dl', 'dl.id', 'o.datalogger_id')
      .leftJoin('acceleration_changes as c', 'c.order_id', 'o.id');
  }

  private scoped<Q extends ReturnType<AccelerationRepository['orders']>>(q: Q, s: OrderScope): Q {
    let r = q.where(dataloggerScopeSql(s.scope, 'dl')) as Q;
    if (s.ownerId !== undefined) r = r.where('o.owner_id', '=', s.ownerId) as Q;
    return r;
  }

  async listOrders(
    s: OrderScope,
    f: { search: string; status?: string; type?: string },
    p: Paging,
  ): Promise<{ total: number; rows: AccelerationOrderRecord[] }> {
    let q = this.scoped(this.orders(), s);
    if (f.status) q = q.where('o.status', '=', f.status);
    if (f.type) q = q.where('o.type', '=', f.type);
    if (f.search !== '') {
      const like = likePattern(f.search);
      q = q.where(sql<SqlBool>`(lower(o.order_no) like ${like} escape '\\' or lower(o.pn) like ${like} escape '\\')`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('o')
      .select(['dl.alias as alias', 'c.status as change', 'c.applied_at as applied_at'])
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return { total: num(total?.n ?? 0), rows: rows as AccelerationOrderRecord[] };
  }

  /** One order by number; `s` undefined: unscoped (payments, jobs). */
  async orderByNo(orderNo: string, s?: OrderScope): Promise<AccelerationOrderRecord | undefined> {
    let q = this.orders().where('o.order_no', '=', orderNo);
    if (s) q = this.scoped(q, s);
    const r = await q
      .selectAll('o')
      .select(['dl.alias as alias', 'c.status as change', 'c.applied_at as applied_at'])
      .executeTakeFirst();
    return r as AccelerationOrderRecord | undefined;
  }

  async listChanges(
    s: OrderScope,
    f: { search: string; status?: string },
    p: Paging,
  ): Promise<{ total: number; rows: AccelerationChangeRecord[] }> {
    let q = this.db
      .selectFrom('acceleration_changes as c')
      .innerJoin('acceleration_orders as o', 'o.id', 'c.order_id')
      .leftJoin('dataloggers as dl', 'dl.id', 'c.datalogger_id')
      .where(dataloggerScopeSql(s.scope, 'dl'));
    if (s.ownerId !== undefined) q = q.where('o.owner_id', '=', s.ownerId);
    if (f.status) q = q.where('c.status', '=', f.status);
    if (f.search !== '') {
      const like = likePattern(f.search);
      q = q.where(sql<SqlBool>`(lower(o.order_no) like ${like} escape '\\' or lower(c.pn) like ${like} escape '\\')`);
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('c')
      .select('o.order_no')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return { total: num(total?.n ?? 0), rows: rows as AccelerationChangeRecord[] };
  }

  /** Compare-and-set of an order's state: true when this call moved it. */
  async moveOrder(id: number, from: readonly string[], set: Updateable<AccelerationOrdersTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('acceleration_orders')
      .set(set)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async insertChange(row: Insertable<AccelerationChangesTable>): Promise<void> {
    await this.db.insertInto('acceleration_changes').values(row).execute();
  }

  /** Pending changes whose lease is free, oldest first. */
  async duePending(now: number, limit: number): Promise<AccelerationChangeRecord[]> {
    const rows = await this.db
      .selectFrom('acceleration_changes as c')
      .innerJoin('acceleration_orders as o', 'o.id', 'c.order_id')
      .selectAll('c')
      .select('o.order_no')
      .where('c.status', '=', 'pending')
      .where('c.lease_until', '<=', now)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .limit(limit)
      .execute();
    return rows as AccelerationChangeRecord[];
  }

  /** Takes a change's lease (compare-and-set on the lease seen); true when this instance holds it now. */
  async claim(id: number, seenUntil: number, owner: string, until: number): Promise<boolean> {
    const r = await this.db
      .updateTable('acceleration_changes')
      .set({ lease_owner: owner, lease_until: until })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('lease_until', '=', seenUntil)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Updates a change this instance holds the lease of. */
  async updateChange(id: number, owner: string, set: Updateable<AccelerationChangesTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('acceleration_changes')
      .set(set)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async setCollectInterval(dataloggerId: number, interval: number, now: number): Promise<void> {
    await this.db
      .updateTable('dataloggers')
      .set({ collect_interval: interval, updated_at: now })
      .where('id', '=', dataloggerId)
      .execute();
  }

  /** Unpaid orders created before `before` (the payment window passed). */
  async lapsedUnpaid(before: number, limit: number): Promise<Array<{ id: number; order_no: string }>> {
    const rows = await this.db
      .selectFrom('acceleration_orders')
      .select(['id', 'order_no'])
      .where('status', '=', 'unpaid')
      .where('created_at', '<', before)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: num(r.id), order_no: r.order_no }));
  }
}
