import type { AuditService } from '../audit/audit.service.js';
import type {
  RechargeOrderItemRecord,
  RechargeOrderRecord,
  RechargeOrdersRepository,
} from './recharge-orders.repository.js';

/** Who moved the order to success: an operator's remedy (issue 14) or the payment flow (issue 15). */
export type RechargeSuccessSource = 'remedy' | 'payment';

/**
 * THE SEAM between an order reaching `success` and its cards being renewed. The order service
 * calls `orderSucceeded` inside the transaction that made the move, once per move (a remedy or,
 * with issue 15, the provider's callback); a throw rolls the move back.
 *
 * Issue 15 implements the real renewal: each card's new expiry (`dataloggers.card_expire_at`)
 * extended by the order's months with the 24-hour and 25th–5th delay rules of spec §9, its card
 * status recomputed, then the item's `credit_state` set to `applied`. Until then
 * `RecordedRechargeCompletion` records the due renewal and changes no card.
 */
export interface RechargeCompletion {
  orderSucceeded(
    order: RechargeOrderRecord,
    items: readonly RechargeOrderItemRecord[],
    source: RechargeSuccessSource,
  ): Promise<void>;
}

/**
 * Today's implementation: the order's cards are marked `pending` (their renewal is due) and the
 * fact is audited (`recharge_order_credit`); no card expiry changes. docs/operator/recharge-remedy.md.
 */
export class RecordedRechargeCompletion implements RechargeCompletion {
  constructor(
    private readonly repo: RechargeOrdersRepository,
    private readonly audit?: Pick<AuditService, 'record'>,
  ) {}

  async orderSucceeded(
    order: RechargeOrderRecord,
    items: readonly RechargeOrderItemRecord[],
    source: RechargeSuccessSource,
  ): Promise<void> {
    const marked = await this.repo.setCreditState(order.id, 'none', 'pending');
    await this.audit?.record({
      entity: 'recharge_order_credit',
      entityId: order.id,
      before: null,
      after: {
        orderNo: order.order_no,
        source,
        months: order.months,
        cards: items.map((i) => ({ pn: i.pn, ccid: i.ccid })),
        renewal: 'pending',
        marked,
      },
    });
  }
}
