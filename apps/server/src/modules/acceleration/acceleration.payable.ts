import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/db.js';
import type { Database } from '../../db/schema.js';
import type { PayableKind, PayableOrder } from '../payments/payable.js';
import type { PayResultDetails } from '../payments/payments.service.js';
import type { AccelerationService } from './acceleration.service.js';

/**
 * Acceleration orders as a payable kind (issue 15, kind `acceleration`): the payment flow loads
 * them by number and moves them through AccelerationService's compare-and-set (`paid` queues the
 * interval change, `failed`), which joins the webhook's transaction (the repository uses
 * `currentDb`). docs/money/acceleration.md.
 */
export class AccelerationPayable implements PayableKind {
  readonly kind = 'acceleration' as const;

  constructor(private readonly orders: AccelerationService) {}

  async load(db: Kysely<Database> | Transaction<Database>, orderNo: string): Promise<PayableOrder | undefined> {
    const o = await db
      .selectFrom('acceleration_orders')
      .select([
        'order_no',
        'account_id',
        'amount_minor',
        'currency',
        'status',
        'pn',
        'type',
        'interval_s',
        'from_interval_s',
      ])
      .where('order_no', '=', orderNo)
      .executeTakeFirst();
    if (!o) return undefined;
    return {
      orderNo: o.order_no,
      accountId: Number(o.account_id),
      amountMinor: Number(o.amount_minor),
      currency: o.currency,
      status: o.status,
      description: `${o.pn} · ${o.type} · ${Number(o.from_interval_s)} s → ${Number(o.interval_s)} s`,
    };
  }

  paid(_trx: Transaction<Database>, orderNo: string, providerRef: string, at: number): Promise<boolean> {
    return this.orders.paid(orderNo, providerRef, at);
  }

  failed(_trx: Transaction<Database>, orderNo: string, reason: string, at: number): Promise<boolean> {
    return this.orders.failed(orderNo, reason, at);
  }
}

/** The result page's extra facts of an acceleration order: its times. */
export async function accelerationResultDetails(db: Db, orderNo: string): Promise<PayResultDetails | undefined> {
  const o = await db
    .selectFrom('acceleration_orders')
    .select(['created_at', 'paid_at'])
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  if (!o) return undefined;
  return { createdAt: Number(o.created_at), paidAt: o.paid_at === null ? null : Number(o.paid_at) };
}
