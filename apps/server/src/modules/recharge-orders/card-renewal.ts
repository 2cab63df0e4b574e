import {
  DAY_MS,
  cardStatusFromExpiry,
  rechargeDelayDays,
  rechargeEffectiveAt,
  renewedExpiry,
  type RechargeArea,
} from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RechargeCompletion, RechargeSuccessSource } from './recharge-completion.js';
import type { RechargeOrderItemRecord, RechargeOrderRecord } from './recharge-orders.repository.js';

/** One card's renewal as applied. */
export interface CardRenewal {
  pn: string;
  expireBefore: number | null;
  expireAfter: number;
  effectiveAt: number;
  delayDays: number;
}

const areaOf = (a: string): RechargeArea => (a === 'mainland' ? 'mainland' : 'international');

/**
 * The renewal of spec §9 (issue 15), the real RechargeCompletion: for each card of a succeeded
 * order not yet renewed, the credit takes effect at the payment time, or later when paid between
 * the 25th and the 5th or for a card already lapsed (rechargeDelayDays, recharge-plans.ts); the
 * card's expiry (dataloggers.card_expire_at) is extended by the order's months from the later of
 * its current expiry and that moment, its card_status recomputed, and the item marked `applied`
 * with the expiry before/after. Each card is renewed once: the item's credit_state and the card's
 * expiry are both compare-and-set, so a concurrent renewal of the same card retries on the new
 * expiry instead of overwriting it. Runs inside the transaction that moved the order to success.
 */
export class CardRenewalCompletion implements RechargeCompletion {
  constructor(
    private readonly root: Db,
    private readonly now: Clock,
    private readonly audit?: Pick<AuditService, 'record'>,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async orderSucceeded(
    order: RechargeOrderRecord,
    items: readonly RechargeOrderItemRecord[],
    source: RechargeSuccessSource,
  ): Promise<void> {
    // Due first (as issue 14 recorded it): a card whose datalogger is gone stays `pending`.
    const marked = await this.db
      .updateTable('recharge_order_items')
      .set({ credit_state: 'pending' })
      .where('order_id', '=', order.id)
      .where('credit_state', '=', 'none')
      .executeTakeFirst();
    const renewals: CardRenewal[] = [];
    const paidAt = order.paid_at ?? order.updated_at;
    const area = areaOf(order.area);
    const now = this.now();
    for (const item of items) {
      if (item.credit_state === 'applied') continue;
      for (let attempt = 0; attempt < 5; attempt++) {
        const card = await this.db
          .selectFrom('dataloggers')
          .select(['id', 'card_expire_at', 'card_status'])
          .where('pn', '=', item.pn)
          .executeTakeFirst();
        if (!card) break;
        const before = card.card_expire_at === null ? null : Number(card.card_expire_at);
        const lapsed = (before !== null && before <= paidAt) || [2, 3].includes(Number(card.card_status));
        const delayDays = rechargeDelayDays(paidAt, area, lapsed);
        const effectiveAt = rechargeEffectiveAt(paidAt, area, delayDays);
        const after = renewedExpiry(before, effectiveAt, order.months);
        let q = this.db
          .updateTable('dataloggers')
          .set({ card_expire_at: after, card_status: cardStatusFromExpiry(after, now), updated_at: now })
          .where('id', '=', card.id);
        q = before === null ? q.where('card_expire_at', 'is', null) : q.where('card_expire_at', '=', before);
        const res = await q.executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) continue;
        const marked = await this.db
          .updateTable('recharge_order_items')
          .set({ credit_state: 'applied', expire_before: before, expire_after: after, effective_at: effectiveAt })
          .where('id', '=', item.id)
          .where('credit_state', '<>', 'applied')
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) throw new Error(`recharge item ${item.id} renewed twice`);
        renewals.push({ pn: item.pn, expireBefore: before, expireAfter: after, effectiveAt, delayDays });
        break;
      }
    }
    await this.audit?.record({
      entity: 'recharge_order_credit',
      entityId: order.id,
      before: null,
      after: {
        orderNo: order.order_no,
        source,
        months: order.months,
        marked: Number(marked.numUpdatedRows),
        renewal: renewals.length === items.filter((i) => i.credit_state !== 'applied').length ? 'applied' : 'pending',
        renewals: renewals.map((r) => ({
          ...r,
          expireBefore: r.expireBefore === null ? null : new Date(r.expireBefore).toISOString(),
          expireAfter: new Date(r.expireAfter).toISOString(),
          effectiveAt: new Date(r.effectiveAt).toISOString(),
        })),
      },
    });
  }
}

/** The latest moment a paid order's credit must arrive: the credit window plus its longest delay. */
export function creditDueAt(paidAt: number, creditWindowMs: number, delayDays: number): number {
  return paidAt + creditWindowMs + delayDays * DAY_MS;
}

/** The longest credit delay (days) of an order's cards if paid at `paidAt`. */
export async function orderDelayDays(db: Db, area: string, pns: readonly string[], paidAt: number): Promise<number> {
  if (pns.length === 0) return 0;
  const cards = await currentDb(db)
    .selectFrom('dataloggers')
    .select(['card_expire_at', 'card_status'])
    .where('pn', 'in', [...pns])
    .execute();
  let days = rechargeDelayDays(paidAt, areaOf(area), false);
  for (const c of cards) {
    const lapsed =
      (c.card_expire_at !== null && Number(c.card_expire_at) <= paidAt) || [2, 3].includes(Number(c.card_status));
    days = Math.max(days, rechargeDelayDays(paidAt, areaOf(area), lapsed));
  }
  return days;
}
