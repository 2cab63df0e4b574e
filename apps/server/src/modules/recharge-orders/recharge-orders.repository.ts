import { sql, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import type {
  RechargeOrderItemsTable,
  RechargeOrderRemediesTable,
  RechargeOrdersTable,
} from '../../db/schema-recharge.js';
import { currentDb } from '../../db/transaction.js';

export type RechargeOrderRecord = Selectable<RechargeOrdersTable> & { vendor_usr: string | null };
export type RechargeOrderItemRecord = Selectable<RechargeOrderItemsTable>;
export type RechargeRemedyRecord = Selectable<RechargeOrderRemediesTable>;

export interface RechargeOrderFilter {
  search?: string | undefined;
  status?: string | undefined;
  area?: string | undefined;
  method?: string | undefined;
  /** Creation time bounds, epoch ms, inclusive. */
  start?: number | undefined;
  end?: number | undefined;
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** pg answers bigint columns as strings on some paths: one shape for both engines. */
function normalizeOrder(r: RechargeOrderRecord): RechargeOrderRecord {
  return {
    ...r,
    id: num(r.id),
    account_id: num(r.account_id),
    vendor_id: numOrNull(r.vendor_id),
    months: num(r.months),
    amount_minor: num(r.amount_minor),
    discount_minor: num(r.discount_minor),
    created_at: num(r.created_at),
    paid_at: numOrNull(r.paid_at),
    finished_at: numOrNull(r.finished_at),
    updated_at: num(r.updated_at),
    credit_due_at: numOrNull(r.credit_due_at),
  };
}

/** SQL of recharge orders (migration 0037). Joins the caller's transaction (`currentDb`). */
export class RechargeOrdersRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  private orders() {
    return this.db
      .selectFrom('recharge_orders as o')
      .leftJoin('accounts as v', 'v.id', 'o.vendor_id')
      .selectAll('o')
      .select('v.usr as vendor_usr');
  }

  async byId(id: number): Promise<RechargeOrderRecord | undefined> {
    const r = await this.orders().where('o.id', '=', id).executeTakeFirst();
    return r && normalizeOrder(r);
  }

  async byOrderNo(orderNo: string): Promise<RechargeOrderRecord | undefined> {
    const r = await this.orders().where('o.order_no', '=', orderNo).executeTakeFirst();
    return r && normalizeOrder(r);
  }

  private filtered(f: RechargeOrderFilter) {
    let q = this.db.selectFrom('recharge_orders as o');
    if (f.status !== undefined) q = q.where('o.status', '=', f.status);
    if (f.area !== undefined) q = q.where('o.area', '=', f.area);
    if (f.method !== undefined) q = q.where('o.method', '=', f.method);
    if (f.start !== undefined) q = q.where('o.created_at', '>=', f.start);
    if (f.end !== undefined) q = q.where('o.created_at', '<=', f.end);
    const s = f.search?.trim();
    if (s) {
      const p = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(o.order_no) like ${p} escape '\\' or lower(o.account_usr) like ${p} escape '\\' or exists (select 1 from recharge_order_items i where i.order_id = o.id and (lower(i.pn) like ${p} escape '\\' or lower(i.ccid) like ${p} escape '\\')))`,
      );
    }
    return q;
  }

  async count(f: RechargeOrderFilter): Promise<number> {
    const r = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** One page, newest first (ties by id). */
  async list(f: RechargeOrderFilter, offset: number, limit: number): Promise<RechargeOrderRecord[]> {
    const rows = await this.filtered(f)
      .leftJoin('accounts as v', 'v.id', 'o.vendor_id')
      .selectAll('o')
      .select('v.usr as vendor_usr')
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(normalizeOrder);
  }

  async itemsOf(orderIds: readonly number[]): Promise<RechargeOrderItemRecord[]> {
    if (orderIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('recharge_order_items')
      .selectAll()
      .where('order_id', 'in', [...orderIds])
      .orderBy('order_id')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      ...r,
      id: num(r.id),
      order_id: num(r.order_id),
      load_count: num(r.load_count),
      card_status: num(r.card_status),
      expire_before: numOrNull(r.expire_before),
      expire_after: numOrNull(r.expire_after),
      effective_at: numOrNull(r.effective_at),
    }));
  }

  async remedyCounts(orderIds: readonly number[]): Promise<Map<number, number>> {
    if (orderIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('recharge_order_remedies')
      .select(['order_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('order_id', 'in', [...orderIds])
      .groupBy('order_id')
      .execute();
    return new Map(rows.map((r) => [num(r.order_id), num(r.n)]));
  }

  async remediesOf(orderId: number): Promise<RechargeRemedyRecord[]> {
    const rows = await this.db
      .selectFrom('recharge_order_remedies')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({
      ...r,
      id: num(r.id),
      order_id: num(r.order_id),
      operator_id: numOrNull(r.operator_id),
      created_at: num(r.created_at),
    }));
  }

  /**
   * Moves the order to `to` only if it is still in `from` (compare-and-set): true when this call
   * made the move, false when the order's state had changed meanwhile.
   */
  async moveStatus(
    id: number,
    from: string,
    to: string,
    times: { updated_at: number; paid_at?: number; finished_at?: number | null },
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('recharge_orders')
      .set({ status: to, ...times })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async insertRemedy(row: Insertable<RechargeOrderRemediesTable>): Promise<number> {
    const r = await this.db.insertInto('recharge_order_remedies').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Sets the renewal state of an order's cards that are in `from`; how many changed. */
  async setCreditState(orderId: number, from: string, to: string): Promise<number> {
    const res = await this.db
      .updateTable('recharge_order_items')
      .set({ credit_state: to })
      .where('order_id', '=', orderId)
      .where('credit_state', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Creates an order with its cards (the demo seed and issue 15's checkout); the new id. */
  async insertOrder(
    order: Insertable<RechargeOrdersTable>,
    items: readonly Omit<Insertable<RechargeOrderItemsTable>, 'order_id'>[],
  ): Promise<number> {
    const r = await this.db.insertInto('recharge_orders').values(order).returning('id').executeTakeFirstOrThrow();
    const id = Number(r.id);
    if (items.length > 0) {
      await this.db
        .insertInto('recharge_order_items')
        .values(items.map((i) => ({ ...i, order_id: id })))
        .execute();
    }
    return id;
  }

  /** Issue 15: the provider's reference and the credit deadline of a just-paid order. */
  async setPaymentFacts(id: number, facts: { provider_ref: string; credit_due_at: number }): Promise<void> {
    await this.db.updateTable('recharge_orders').set(facts).where('id', '=', id).execute();
  }

  /** Unpaid orders created before `before` (oldest first), at most `limit`. */
  async unpaidCreatedBefore(before: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('recharge_orders')
      .select('id')
      .where('status', '=', 'unpaid')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => num(r.id));
  }

  /**
   * Paid or recharging orders whose credit is late at `now`: past credit_due_at, or (orders paid
   * by hand, without a deadline) paid more than `windowMs` ago.
   */
  async creditLate(now: number, windowMs: number, limit: number): Promise<{ id: number; status: string }[]> {
    const rows = await this.db
      .selectFrom('recharge_orders')
      .select(['id', 'status'])
      .where('status', 'in', ['paid', 'recharging'])
      .where((eb) =>
        eb.or([
          eb('credit_due_at', '<', now),
          eb.and([eb('credit_due_at', 'is', null), eb('paid_at', '<', now - windowMs)]),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: num(r.id), status: r.status }));
  }

  /** Succeeded orders with cards still waiting for their renewal (`pending`), at most `limit`. */
  async idsWithPendingCredit(limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('recharge_orders as o')
      .select('o.id')
      .where('o.status', '=', 'success')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('recharge_order_items as i')
            .select('i.id')
            .whereRef('i.order_id', '=', 'o.id')
            .where('i.credit_state', '=', 'pending')
            .where((e) => e.exists(e.selectFrom('dataloggers as d').select('d.id').whereRef('d.pn', '=', 'i.pn'))),
        ),
      )
      .orderBy('o.id')
      .limit(limit)
      .execute();
    return rows.map((r) => num(r.id));
  }
}
