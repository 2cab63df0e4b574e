import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { subtreeRange } from '../../db/dialect.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import {
  normalizeOrder,
  type RechargeOrderFilter,
  type RechargeOrderRecord,
} from '../recharge-orders/recharge-orders.repository.js';

/**
 * Where-clause: the recharge order row `alias` is visible to `scope` (access.repository.ts's
 * telemetry scope, so an order is seen by whoever sees its account or its cards):
 * - placed by an account in one of the scope's subtrees (`roots`);
 * - or holding a card of a datalogger the scope sees (`dataloggerScopeSql`: owned in the subtrees,
 *   managed `admin_id` or made `vendor_id` by one of the scope's admin accounts), matched by PN;
 * - or its `vendor_id` is one of the scope's admin accounts (a manufacturer's own orders).
 * Everything for `all`; nothing for a viewer.
 */
export function rechargeOrderScopeSql(scope: TelemetryScope, alias = 'o'): RawBuilder<SqlBool> {
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'viewer':
      return sql<SqlBool>`1 = 0`;
    case 'tree': {
      const parts: RawBuilder<SqlBool>[] = [];
      if (scope.roots.length > 0) {
        const ranges = sql.join(
          scope.roots.map((p) => {
            const r = subtreeRange(p);
            return sql`(acc.path >= ${r.from} and acc.path < ${r.to})`;
          }),
          sql` or `,
        );
        parts.push(
          sql<SqlBool>`${sql.ref(`${alias}.account_id`)} in (select acc.id from accounts acc where ${ranges})`,
        );
      }
      parts.push(
        sql<SqlBool>`exists (select 1 from recharge_order_items sri inner join dataloggers sdl on sdl.pn = sri.pn where sri.order_id = ${sql.ref(`${alias}.id`)} and ${dataloggerScopeSql(scope, 'sdl')})`,
      );
      if (scope.adminIds.length > 0) {
        const ids = sql.join(scope.adminIds.map((id) => sql`${id}`));
        parts.push(sql<SqlBool>`${sql.ref(`${alias}.vendor_id`)} in (${ids})`);
      }
      return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
    }
  }
}

/** Keyset position of the export's walk (newest first). */
export interface RecordCursor {
  createdAt: number;
  id: number;
}

/**
 * SQL of the caller-scoped recharge records (issue 15 rechargeRecord): the recharge_orders of
 * migration 0037 read through `rechargeOrderScopeSql`. Joins the caller's transaction.
 */
export class RechargeRecordsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  private filtered(scope: TelemetryScope, f: RechargeOrderFilter) {
    let q = this.db.selectFrom('recharge_orders as o').where(rechargeOrderScopeSql(scope, 'o'));
    if (f.status !== undefined) q = q.where('o.status', '=', f.status);
    if (f.area !== undefined) q = q.where('o.area', '=', f.area);
    if (f.method !== undefined) q = q.where('o.method', '=', f.method);
    if (f.start !== undefined) q = q.where('o.created_at', '>=', f.start);
    if (f.end !== undefined) q = q.where('o.created_at', '<=', f.end);
    const s = f.search?.trim();
    if (s) {
      const p = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(o.order_no) like ${p} escape '\\' or exists (select 1 from recharge_order_items i where i.order_id = o.id and (lower(i.pn) like ${p} escape '\\' or lower(i.ccid) like ${p} escape '\\')))`,
      );
    }
    return q;
  }

  async count(scope: TelemetryScope, f: RechargeOrderFilter): Promise<number> {
    const r = await this.filtered(scope, f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** One page (offset) or one batch after `after` (keyset), newest first, ties by id. */
  async list(
    scope: TelemetryScope,
    f: RechargeOrderFilter,
    limit: number,
    at: { offset: number } | { after: RecordCursor | undefined },
  ): Promise<RechargeOrderRecord[]> {
    let q = this.filtered(scope, f)
      .leftJoin('accounts as v', 'v.id', 'o.vendor_id')
      .selectAll('o')
      .select('v.usr as vendor_usr');
    if ('after' in at && at.after) {
      const c = at.after;
      q = q.where((eb) =>
        eb.or([
          eb('o.created_at', '<', c.createdAt),
          eb.and([eb('o.created_at', '=', c.createdAt), eb('o.id', '<', c.id)]),
        ]),
      );
    }
    q = q.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(limit);
    if ('offset' in at) q = q.offset(at.offset);
    const rows = await q.execute();
    return rows.map(normalizeOrder);
  }

  /** The order `id` when the scope sees it. */
  async visibleById(scope: TelemetryScope, id: number): Promise<RechargeOrderRecord | undefined> {
    const r = await this.db
      .selectFrom('recharge_orders as o')
      .leftJoin('accounts as v', 'v.id', 'o.vendor_id')
      .selectAll('o')
      .select('v.usr as vendor_usr')
      .where('o.id', '=', id)
      .where(rechargeOrderScopeSql(scope, 'o'))
      .executeTakeFirst();
    return r && normalizeOrder(r);
  }

  /**
   * The current card expiry (epoch ms or null) of the dataloggers of `pns` the scope sees, by PN: a
   * datalogger that has since left the caller's scope shows none.
   */
  async expiries(scope: TelemetryScope, pns: readonly string[]): Promise<Map<string, number | null>> {
    if (pns.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('dataloggers')
      .select(['pn', 'card_expire_at'])
      .where('pn', 'in', [...new Set(pns)])
      .where(dataloggerScopeSql(scope, 'dataloggers'))
      .execute();
    return new Map(rows.map((r) => [r.pn, r.card_expire_at === null ? null : Number(r.card_expire_at)]));
  }
}
