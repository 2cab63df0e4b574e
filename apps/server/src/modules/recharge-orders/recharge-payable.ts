import type { Kysely, Transaction } from 'kysely';
import type { PayResultCard } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { Database } from '../../db/schema.js';
import type { PayableKind, PayableOrder } from '../payments/payable.js';
import type { PayResultDetails } from '../payments/payments.service.js';
import type { RechargeOrdersService } from './recharge-orders.service.js';

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Recharge orders as a payable kind (issue 15): the payment flow loads them by number and moves
 * them through RechargeOrdersService's compare-and-set (paymentConfirmed / paymentFailed), which
 * joins the webhook's transaction (the repositories use `currentDb`).
 */
export class RechargePayable implements PayableKind {
  readonly kind = 'recharge' as const;

  constructor(private readonly orders: RechargeOrdersService) {}

  async load(db: Kysely<Database> | Transaction<Database>, orderNo: string): Promise<PayableOrder | undefined> {
    const o = await db
      .selectFrom('recharge_orders')
      .select(['order_no', 'account_id', 'amount_minor', 'currency', 'status', 'package', 'months', 'id'])
      .where('order_no', '=', orderNo)
      .executeTakeFirst();
    if (!o) return undefined;
    const n = await db
      .selectFrom('recharge_order_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('order_id', '=', o.id)
      .executeTakeFirst();
    return {
      orderNo: o.order_no,
      accountId: Number(o.account_id),
      amountMinor: Number(o.amount_minor),
      currency: o.currency,
      status: o.status,
      description: `${o.package} · ${Number(n?.n ?? 0)} × ${Number(o.months)}`,
    };
  }

  paid(_trx: Transaction<Database>, orderNo: string, providerRef: string, at: number): Promise<boolean> {
    return this.orders.paymentConfirmed(orderNo, providerRef, at);
  }

  failed(_trx: Transaction<Database>, orderNo: string, reason: string, at: number): Promise<boolean> {
    return this.orders.paymentFailed(orderNo, reason, at);
  }
}

/** The result page's extra facts of a recharge order: times and each card's renewal. */
export async function rechargeResultDetails(db: Db, orderNo: string): Promise<PayResultDetails | undefined> {
  const o = await db
    .selectFrom('recharge_orders')
    .select(['id', 'created_at', 'paid_at'])
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  if (!o) return undefined;
  const items = await db
    .selectFrom('recharge_order_items as i')
    .leftJoin('dataloggers as d', 'd.pn', 'i.pn')
    .select([
      'i.pn',
      'i.ccid',
      'i.credit_state',
      'i.expire_before',
      'i.expire_after',
      'i.effective_at',
      'd.card_expire_at',
    ])
    .where('i.order_id', '=', o.id)
    .orderBy('i.id')
    .execute();
  const cards: PayResultCard[] = items.map((i) => ({
    pn: i.pn,
    ccid: i.ccid,
    creditState: i.credit_state,
    expireBefore: i.credit_state === 'applied' ? numOrNull(i.expire_before) : numOrNull(i.card_expire_at),
    expireAfter: numOrNull(i.expire_after),
    effectiveAt: numOrNull(i.effective_at),
  }));
  return { createdAt: Number(o.created_at), paidAt: numOrNull(o.paid_at), cards };
}
