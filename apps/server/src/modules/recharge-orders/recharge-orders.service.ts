import {
  ApiError,
  RECHARGE_AREAS,
  RECHARGE_FINISHED_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  RECHARGE_ROW_PNS,
  canMoveRechargeOrder,
  cardStatusName,
  isRechargeOrderStatus,
  type Catalogue,
  type ParsedParamsOf,
  type RechargeArea,
  type RechargeCreditState,
  type RechargeOrderDetail,
  type RechargeOrderRow,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
  RECHARGE_CREDIT_STATES,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { creditDueAt, orderDelayDays } from './card-renewal.js';
import { RecordedRechargeCompletion, type RechargeCompletion } from './recharge-completion.js';
import {
  RechargeOrdersRepository,
  type RechargeOrderItemRecord,
  type RechargeOrderRecord,
} from './recharge-orders.repository.js';

type ListParams = ParsedParamsOf<Catalogue['queryRechargeOrders']>;
type RemedyParams = ParsedParamsOf<Catalogue['remedyRechargeOrder']>;

const oneOf = <T extends string>(list: readonly T[], v: string): T | '' =>
  (list as readonly string[]).includes(v) ? (v as T) : '';

function statusOf(s: string): RechargeOrderStatus {
  // A value outside the machine cannot be written by this code; show it as failed rather than crash.
  return isRechargeOrderStatus(s) ? s : 'failed';
}

function toRow(r: RechargeOrderRecord, items: number, pns: string[], remedies: number): RechargeOrderRow {
  return {
    id: r.id,
    orderNo: r.order_no,
    status: statusOf(r.status),
    accountUid: r.account_id,
    accountUsr: r.account_usr,
    vendorUid: r.vendor_id ?? 0,
    vendorUsr: r.vendor_usr ?? '',
    months: r.months,
    package: r.package,
    amount: r.amount_minor,
    discount: r.discount_minor,
    currency: r.currency,
    method: oneOf<RechargePaymentMethod>(RECHARGE_PAYMENT_METHODS, r.method),
    channel: r.channel,
    area: oneOf<RechargeArea>(RECHARGE_AREAS, r.area),
    providerRef: r.provider_ref,
    items,
    pns,
    remedies,
    createdAt: r.created_at,
    paidAt: r.paid_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Recharge orders (issue 14 rechargeRemedy; the model issue 15's checkout writes): the operator's
 * search, an order's detail, and the remedy — a state correction within RECHARGE_TRANSITIONS,
 * with a reason, recorded in recharge_order_remedies and audited, in the action's transaction.
 * The move is a compare-and-set on the state the operator saw, so of two operators remedying the
 * same order at once exactly one succeeds (the other gets err 14). Reaching `success` calls the
 * RechargeCompletion seam (issue 15 renews the cards there).
 */
export class RechargeOrdersService {
  readonly repo: RechargeOrdersRepository;
  private readonly completion: RechargeCompletion;

  constructor(
    private readonly root: Db,
    private readonly now: Clock,
    private readonly audit?: Pick<AuditService, 'record'>,
    completion?: RechargeCompletion,
    private readonly opts: { creditWindowMs: number } = { creditWindowMs: 24 * 3_600_000 },
  ) {
    this.repo = new RechargeOrdersRepository(root);
    this.completion = completion ?? new RecordedRechargeCompletion(this.repo, audit);
  }

  async list(p: ListParams): Promise<{ total: number; page: number; pagesize: number; orders: RechargeOrderRow[] }> {
    const filter = { search: p.search, status: p.status, area: p.area, method: p.method, start: p.start, end: p.end };
    const total = await this.repo.count(filter);
    const rows = await this.repo.list(filter, p.page * p.pagesize, p.pagesize);
    const ids = rows.map((r) => r.id);
    const [items, remedies] = await Promise.all([this.repo.itemsOf(ids), this.repo.remedyCounts(ids)]);
    const byOrder = new Map<number, RechargeOrderItemRecord[]>();
    for (const i of items) byOrder.set(i.order_id, [...(byOrder.get(i.order_id) ?? []), i]);
    const orders = rows.map((r) => {
      const its = byOrder.get(r.id) ?? [];
      return toRow(
        r,
        its.length,
        its.slice(0, RECHARGE_ROW_PNS).map((i) => i.pn),
        remedies.get(r.id) ?? 0,
      );
    });
    return { total, page: p.page, pagesize: p.pagesize, orders };
  }

  async detail(id: number): Promise<RechargeOrderDetail> {
    const order = await this.repo.byId(id);
    if (!order) throw new ApiError(372);
    const [items, remedies] = await Promise.all([this.repo.itemsOf([id]), this.repo.remediesOf(id)]);
    return {
      order: toRow(
        order,
        items.length,
        items.slice(0, RECHARGE_ROW_PNS).map((i) => i.pn),
        remedies.length,
      ),
      items: items.map((i) => ({
        id: i.id,
        pn: i.pn,
        ccid: i.ccid,
        load: i.load_count,
        cardStatus: cardStatusName(i.card_status),
        creditState: (RECHARGE_CREDIT_STATES as readonly string[]).includes(i.credit_state)
          ? (i.credit_state as RechargeCreditState)
          : 'none',
      })),
      remedies: remedies.map((m) => ({
        id: m.id,
        from: statusOf(m.from_status),
        to: statusOf(m.to_status),
        reason: m.reason,
        operator: m.operator_usr,
        at: m.created_at,
      })),
    };
  }

  /**
   * The operator's correction: `p.from` is the state the operator saw. Runs inside the action's
   * transaction (the dispatcher's): the move, the remedy row, the success seam and the audit
   * commit together or not at all.
   */
  async remedy(caller: Caller, p: RemedyParams): Promise<{ status: RechargeOrderStatus }> {
    const order = await this.repo.byId(p.id);
    if (!order) throw new ApiError(372);
    if (order.status === p.status) throw new ApiError(271);
    if (order.status !== p.from) throw new ApiError(14, 'status');
    if (!canMoveRechargeOrder(p.from, p.status)) throw new ApiError(8, `${p.from}->${p.status}`);
    const at = this.now();
    const finished = RECHARGE_FINISHED_STATUSES.includes(p.status);
    const moved = await this.repo.moveStatus(order.id, p.from, p.status, {
      updated_at: at,
      ...(p.status === 'paid' && order.paid_at === null ? { paid_at: at } : {}),
      finished_at: finished ? at : null,
    });
    // Another change committed between the read and the write: nothing is written.
    if (!moved) throw new ApiError(14, 'status');
    await this.repo.insertRemedy({
      order_id: order.id,
      from_status: p.from,
      to_status: p.status,
      reason: p.reason,
      operator_id: caller.accountId,
      operator_usr: caller.usr,
      created_at: at,
    });
    if (p.status === 'success') {
      const after = await this.repo.byId(order.id);
      await this.completion.orderSucceeded(after ?? order, await this.repo.itemsOf([order.id]), 'remedy');
    }
    await this.audit?.record({
      entity: 'recharge_order',
      entityId: order.id,
      before: { orderNo: order.order_no, status: p.from },
      after: { orderNo: order.order_no, status: p.status, reason: p.reason },
    });
    return { status: p.status };
  }

  /**
   * Issue 15, the payment flow: the provider confirmed the payment of `orderNo`. Compare-and-set
   * from unpaid (or expired: a late payment, RECHARGE_TRANSITIONS) to paid, then submitted to the
   * carrier (recharging), which credits at once (success, the cards renewed by the completion with
   * the delay rules pushing the effective date). False when the order was no longer payable (paid
   * by another attempt, finished, remedied): nothing changes. Runs in the webhook's transaction.
   */
  async paymentConfirmed(orderNo: string, providerRef: string, at: number): Promise<boolean> {
    const order = await this.repo.byOrderNo(orderNo);
    if (!order || (order.status !== 'unpaid' && order.status !== 'expired')) return false;
    const from = order.status;
    if (!(await this.repo.moveStatus(order.id, from, 'paid', { updated_at: at, paid_at: at, finished_at: null }))) {
      return false;
    }
    const items = await this.repo.itemsOf([order.id]);
    await this.repo.setPaymentFacts(order.id, {
      provider_ref: providerRef.slice(0, 128),
      credit_due_at: creditDueAt(
        at,
        this.opts.creditWindowMs,
        await orderDelayDays(this.root, order.area, items.map((i) => i.pn), at),
      ),
    });
    // The carrier takes the recharge at once (docs/money/payments.md "Carrier"): paid → recharging → success.
    await this.repo.moveStatus(order.id, 'paid', 'recharging', { updated_at: at });
    await this.repo.moveStatus(order.id, 'recharging', 'success', { updated_at: at, finished_at: at });
    const after = await this.repo.byId(order.id);
    await this.completion.orderSucceeded(after ?? order, items, 'payment');
    await this.audit?.record(
      {
        entity: 'recharge_order',
        entityId: order.id,
        before: { orderNo, status: from },
        after: { orderNo, status: 'success', via: ['paid', 'recharging', 'success'], providerRef },
      },
      { accountId: null, usr: 'payments', action: 'payment_webhook' },
    );
    return true;
  }

  /** The provider reported a failed payment: unpaid → failed (false when the order was not unpaid). */
  async paymentFailed(orderNo: string, reason: string, at: number): Promise<boolean> {
    const order = await this.repo.byOrderNo(orderNo);
    if (!order || order.status !== 'unpaid') return false;
    const moved = await this.repo.moveStatus(order.id, 'unpaid', 'failed', { updated_at: at, finished_at: at });
    if (moved) {
      await this.audit?.record(
        {
          entity: 'recharge_order',
          entityId: order.id,
          before: { orderNo, status: 'unpaid' },
          after: { orderNo, status: 'failed', reason },
        },
        { accountId: null, usr: 'payments', action: 'payment_webhook' },
      );
    }
    return moved;
  }

  /**
   * The periodic job (docs/money/payments.md "Jobs"): unpaid orders older than the payment window
   * expire; paid/recharging orders past their credit deadline turn overdue; succeeded orders whose
   * cards are still `pending` (remedies before issue 15, demo data) get their renewal once. Each
   * move is a compare-and-set (a webhook or a remedy racing it wins or loses cleanly), in its own
   * short transaction. Returns how many orders each step changed.
   */
  async sweep(
    dbh: { transaction<T>(fn: () => Promise<T>): Promise<T> },
    paymentWindowMs: number,
  ): Promise<{ expired: number; overdue: number; credited: number }> {
    const at = this.now();
    const actor = { accountId: null, usr: 'payments', action: 'recharge_job' };
    let expired = 0;
    for (const id of await this.repo.unpaidCreatedBefore(at - paymentWindowMs, 500)) {
      const moved = await dbh.transaction(async () => {
        const ok = await this.repo.moveStatus(id, 'unpaid', 'expired', { updated_at: at, finished_at: at });
        if (ok) {
          await this.audit?.record({ entity: 'recharge_order', entityId: id, before: { status: 'unpaid' }, after: { status: 'expired' } }, actor);
        }
        return ok;
      });
      if (moved) expired += 1;
    }
    let overdue = 0;
    for (const o of await this.repo.creditLate(at, this.opts.creditWindowMs, 500)) {
      const moved = await dbh.transaction(async () => {
        const ok = await this.repo.moveStatus(o.id, o.status, 'overdue', { updated_at: at, finished_at: null });
        if (ok) {
          await this.audit?.record({ entity: 'recharge_order', entityId: o.id, before: { status: o.status }, after: { status: 'overdue' } }, actor);
        }
        return ok;
      });
      if (moved) overdue += 1;
    }
    let credited = 0;
    for (const id of await this.repo.idsWithPendingCredit(200)) {
      await dbh.transaction(async () => {
        const order = await this.repo.byId(id);
        if (!order || order.status !== 'success') return;
        const items = (await this.repo.itemsOf([id])).filter((i) => i.credit_state === 'pending');
        if (items.length === 0) return;
        await this.completion.orderSucceeded(order, items, 'remedy');
        credited += 1;
      });
    }
    return { expired, overdue, credited };
  }
}
