import { randomBytes } from 'node:crypto';
import {
  ACCELERATION_CHANGE_STATUSES,
  ACCELERATION_MAX_LOADS,
  ACCELERATION_MAX_PARAMETERS,
  ACCELERATION_ORDER_STATUSES,
  ACCELERATION_PAYMENT_WINDOW_MS,
  ACCELERATION_TYPES,
  ApiError,
  RECHARGE_PAYMENT_METHODS,
  ROLE,
  accelerationPrice,
  devcodeFunctions,
  getDefinition,
  isAccelerationInterval,
  isWifiCommMethod,
  type AccelerationCandidate,
  type AccelerationChangeRow,
  type AccelerationChangeStatus,
  type AccelerationInterval,
  type AccelerationOrderRow,
  type AccelerationOrderStatus,
  type AccelerationQuote,
  type AccelerationType,
  type Catalogue,
  type ParsedParamsOf,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { AuditService } from '../audit/audit.service.js';
import type {
  AccelerationDatalogger,
  AccelerationOrderRecord,
  AccelerationRepository,
  OrderScope,
} from './acceleration.repository.js';

type QuoteParams = ParsedParamsOf<Catalogue['queryAccelerationQuote']>;
type CreateParams = ParsedParamsOf<Catalogue['createAccelerationOrder']>;
type ListParams = ParsedParamsOf<Catalogue['queryAccelerationOrders']>;
type ChangeParams = ParsedParamsOf<Catalogue['queryAccelerationChanges']>;
type CandidateParams = ParsedParamsOf<Catalogue['queryAccelerationCandidates']>;

/** What the payment module needs of an order (PayableKind.load). */
export interface AccelerationPayableOrder {
  orderNo: string;
  accountId: number;
  amountMinor: number;
  currency: string;
  status: AccelerationOrderStatus;
  description: string;
}

export interface AccelerationDeps {
  repo: AccelerationRepository;
  access: Pick<AccessService, 'scopeOf' | 'requireAccess'>;
  audit: Pick<AuditService, 'record'>;
  now: () => number;
  /** Called after a payment queued an interval change (the delivery sweeps soon). */
  onPaid?: () => void;
  /** How long an unpaid order may be paid (ms; default ACCELERATION_PAYMENT_WINDOW_MS, config PAYMENT_WINDOW_MINUTES). */
  paymentWindowMs?: number;
}

const oneOf = <T extends string>(list: readonly T[], v: string, fallback: T): T =>
  (list as readonly string[]).includes(v) ? (v as T) : fallback;

/** Who acts in the payment module's callbacks (no caller: the provider). */
const PAYMENT_ACTOR = { accountId: null, usr: null, action: 'accelerationPayment' };

export function orderRow(r: AccelerationOrderRecord): AccelerationOrderRow {
  const method = (RECHARGE_PAYMENT_METHODS as readonly string[]).includes(r.method)
    ? (r.method as RechargePaymentMethod)
    : '';
  return {
    id: Number(r.id),
    orderNo: r.order_no,
    pn: r.pn,
    alias: r.alias ?? '',
    type: oneOf<AccelerationType>(ACCELERATION_TYPES, r.type, 'flow'),
    interval: Number(r.interval_s),
    fromInterval: Number(r.from_interval_s),
    storageMonths: Number(r.storage_months),
    parameters: Number(r.parameters),
    loads: Number(r.loads),
    amount: Number(r.amount_minor),
    currency: r.currency,
    method,
    status: oneOf<AccelerationOrderStatus>(ACCELERATION_ORDER_STATUSES, r.status, 'failed'),
    accountUsr: r.account_usr,
    providerRef: r.provider_ref,
    change: r.change ? oneOf<AccelerationChangeStatus>(ACCELERATION_CHANGE_STATUSES, r.change, 'pending') : '',
    termsAcceptedAt: Number(r.terms_accepted_at),
    createdAt: Number(r.created_at),
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
    appliedAt: r.applied_at === null || r.applied_at === undefined ? null : Number(r.applied_at),
  };
}

/** A new order number: `AC` + UTC yyyymmddhhmmss + 8 hex (unique by the table's constraint). */
function newOrderNo(now: number): string {
  const d = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `AC${d}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * Acceleration orders (issue 15; spec §3, §9): the purchase page's candidates and quote, order
 * creation (terms accepted, Wi-Fi only, at the quoted price), the records (scoped in SQL), and the
 * payment side the payment module calls (load, paid, failed). A paid order queues its interval
 * change; AccelerationDelivery sends it to the datalogger.
 */
export class AccelerationService {
  constructor(private readonly deps: AccelerationDeps) {}

  get repo(): AccelerationRepository {
    return this.deps.repo;
  }

  /** The records' scope: the caller's datalogger scope; an owner sees the orders of its ownership. */
  private async orderScope(caller: Caller): Promise<OrderScope> {
    const scope = await this.deps.access.scopeOf(caller);
    return caller.role === ROLE.OWNER ? { scope, ownerId: caller.accountId } : { scope };
  }

  /**
   * The datalogger if the caller may accelerate it: visible (257 otherwise, like a missing PN), its
   * own for an owner, any in scope for a distributor, manufacturer or the operator (11 otherwise),
   * a Wi-Fi module (9 otherwise: spec §9).
   */
  private async target(caller: Caller, pn: string): Promise<AccelerationDatalogger> {
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: [pn] });
    const dl = await this.deps.repo.datalogger(pn);
    if (!dl) throw new ApiError(257, pn);
    const mayWrite =
      caller.role === ROLE.OWNER
        ? dl.owner_id === caller.accountId
        : caller.role === ROLE.DISTRIBUTOR || caller.role === ROLE.MANUFACTURER || caller.role === ROLE.OPERATOR;
    if (!mayWrite) throw new ApiError(11);
    if (!isWifiCommMethod(dl.comm_method)) throw new ApiError(9, 'wifi');
    return dl;
  }

  /** The price inputs of a datalogger: its devices' parameters and its load count (declared, or devices when more). */
  private async inputs(dl: AccelerationDatalogger): Promise<{ parameters: number; loads: number }> {
    const devcodes = await this.deps.repo.deviceDevcodes(dl.id);
    let parameters = 0;
    for (const code of devcodes) {
      const def = getDefinition(code);
      if (def) parameters += devcodeFunctions(def).acceleration.parameters;
    }
    const loads = Math.max(dl.load_count, devcodes.length);
    if (loads > ACCELERATION_MAX_LOADS || parameters > ACCELERATION_MAX_PARAMETERS) throw new ApiError(13);
    return { parameters, loads };
  }

  async candidates(
    caller: Caller,
    p: CandidateParams,
  ): Promise<{ total: number; page: number; pagesize: number; rows: AccelerationCandidate[] }> {
    const s = await this.orderScope(caller);
    const { total, rows } = await this.deps.repo.candidates(s, p.search ?? '', p);
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      rows: rows.map((r) => ({
        pn: r.pn,
        alias: r.alias,
        commMethod: r.comm_method,
        collectInterval: r.collect_interval,
        loads: r.load_count,
        status: r.status,
      })),
    };
  }

  async quote(caller: Caller, p: QuoteParams): Promise<AccelerationQuote> {
    const dl = await this.target(caller, p.pn);
    if (!isAccelerationInterval(p.interval)) throw new ApiError(6, 'interval');
    const interval: AccelerationInterval = p.interval;
    // History data is kept for the storage time bought: required; energy flow stores nothing.
    const storageMonths = p.type === 'history' ? p.storage : 0;
    if (p.type === 'history' && storageMonths === 0) throw new ApiError(6, 'storage');
    // Nothing to buy when the datalogger already reports this often or more.
    if (dl.collect_interval <= interval) throw new ApiError(271);
    const { parameters, loads } = await this.inputs(dl);
    const price = accelerationPrice({ type: p.type, interval, parameters, loads, storageMonths });
    return {
      pn: dl.pn,
      type: p.type,
      interval,
      storageMonths,
      currentInterval: dl.collect_interval,
      parameters,
      price,
    };
  }

  async create(
    caller: Caller,
    p: CreateParams,
  ): Promise<{ orderNo: string; amount: number; currency: string; status: AccelerationOrderStatus }> {
    // The terms (not refundable or changeable, Wi-Fi only, no validity limit) must be accepted first.
    if (!p.termsAccepted) throw new ApiError(7, 'termsAccepted');
    const q = await this.quote(caller, p);
    const dl = (await this.deps.repo.datalogger(q.pn))!;
    const now = this.deps.now();
    const orderNo = newOrderNo(now);
    const row = {
      order_no: orderNo,
      account_id: caller.accountId,
      account_usr: caller.usr,
      datalogger_id: dl.id,
      pn: dl.pn,
      owner_id: dl.owner_id,
      type: q.type,
      interval_s: q.interval,
      from_interval_s: q.currentInterval,
      storage_months: q.storageMonths,
      parameters: q.parameters,
      loads: q.price.loads,
      amount_minor: q.price.totalMinor,
      currency: q.price.currency,
      method: p.method ?? '',
      status: 'unpaid',
      terms_accepted_at: now,
      created_at: now,
      paid_at: null,
      finished_at: null,
      updated_at: now,
    };
    await this.deps.repo.insertOrder(row);
    await this.deps.audit.record({
      entity: 'acceleration_order',
      entityId: orderNo,
      before: null,
      after: {
        pn: dl.pn,
        type: q.type,
        interval: q.interval,
        fromInterval: q.currentInterval,
        storageMonths: q.storageMonths,
        parameters: q.parameters,
        loads: q.price.loads,
        amount: q.price.totalMinor,
        currency: q.price.currency,
        status: 'unpaid',
        termsAccepted: true,
      },
    });
    return { orderNo, amount: q.price.totalMinor, currency: q.price.currency, status: 'unpaid' };
  }

  async list(
    caller: Caller,
    p: ListParams,
  ): Promise<{ total: number; page: number; pagesize: number; orders: AccelerationOrderRow[] }> {
    const s = await this.orderScope(caller);
    const { total, rows } = await this.deps.repo.listOrders(
      s,
      { search: p.search ?? '', ...(p.status ? { status: p.status } : {}), ...(p.type ? { type: p.type } : {}) },
      p,
    );
    return { total, page: p.page, pagesize: p.pagesize, orders: rows.map(orderRow) };
  }

  async one(caller: Caller, orderNo: string): Promise<AccelerationOrderRow> {
    const r = await this.deps.repo.orderByNo(orderNo, await this.orderScope(caller));
    if (!r) throw new ApiError(12);
    return orderRow(r);
  }

  async changes(
    caller: Caller,
    p: ChangeParams,
  ): Promise<{ total: number; page: number; pagesize: number; rows: AccelerationChangeRow[] }> {
    const s = await this.orderScope(caller);
    const { total, rows } = await this.deps.repo.listChanges(
      s,
      { search: p.search ?? '', ...(p.status ? { status: p.status } : {}) },
      p,
    );
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      rows: rows.map((r) => ({
        id: Number(r.id),
        orderNo: r.order_no,
        pn: r.pn,
        fromInterval: Number(r.from_interval_s),
        toInterval: Number(r.to_interval_s),
        status: oneOf<AccelerationChangeStatus>(ACCELERATION_CHANGE_STATUSES, r.status, 'pending'),
        attempts: Number(r.attempts),
        lastError: r.last_error,
        createdAt: Number(r.created_at),
        appliedAt: r.applied_at === null ? null : Number(r.applied_at),
        ackInterval: r.ack_interval_s === null ? null : Number(r.ack_interval_s),
      })),
    };
  }

  // ------------------------------------------------------------------------------------------
  // The payment side (PayableKind 'acceleration'): called by the payment module, in its transaction.
  // ------------------------------------------------------------------------------------------

  async payable(orderNo: string): Promise<AccelerationPayableOrder | undefined> {
    const r = await this.deps.repo.orderByNo(orderNo);
    if (!r) return undefined;
    const row = orderRow(r);
    return {
      orderNo: row.orderNo,
      accountId: Number(r.account_id),
      amountMinor: row.amount,
      currency: row.currency,
      status: row.status,
      description: `Acceleration ${row.pn} ${row.fromInterval}s → ${row.interval}s (${row.type})`,
    };
  }

  /**
   * The payment arrived: unpaid (or lapsed: the money came late, the buyer still gets what was
   * paid for) → paid, and the interval change queued as `pending`. False when the order is unknown
   * or not payable any more (already paid: a duplicate callback changes nothing).
   */
  async paid(orderNo: string, providerRef: string, at: number): Promise<boolean> {
    const r = await this.deps.repo.orderByNo(orderNo);
    if (!r) return false;
    const now = this.deps.now();
    const moved = await this.deps.repo.moveOrder(Number(r.id), ['unpaid', 'expired'], {
      status: 'paid',
      provider_ref: providerRef.slice(0, 128),
      paid_at: at,
      finished_at: at,
      updated_at: now,
    });
    if (!moved) return false;
    await this.deps.repo.insertChange({
      order_id: Number(r.id),
      datalogger_id: Number(r.datalogger_id),
      pn: r.pn,
      from_interval_s: Number(r.from_interval_s),
      to_interval_s: Number(r.interval_s),
      status: 'pending',
      ack_interval_s: null,
      created_at: now,
      applied_at: null,
      updated_at: now,
    });
    await this.deps.audit.record(
      {
        entity: 'acceleration_order',
        entityId: orderNo,
        before: { status: r.status },
        after: { status: 'paid', providerRef, change: 'pending', interval: Number(r.interval_s) },
      },
      PAYMENT_ACTOR,
    );
    this.deps.onPaid?.();
    return true;
  }

  /** The payment failed: unpaid → failed (false when it was not unpaid). */
  async failed(orderNo: string, reason: string, at: number): Promise<boolean> {
    const r = await this.deps.repo.orderByNo(orderNo);
    if (!r) return false;
    const moved = await this.deps.repo.moveOrder(Number(r.id), ['unpaid'], {
      status: 'failed',
      fail_reason: reason.slice(0, 200),
      finished_at: at,
      updated_at: this.deps.now(),
    });
    if (!moved) return false;
    await this.deps.audit.record(
      {
        entity: 'acceleration_order',
        entityId: orderNo,
        before: { status: r.status },
        after: { status: 'failed', reason },
      },
      PAYMENT_ACTOR,
    );
    return true;
  }

  /** Unpaid orders past the payment window → expired (the delivery sweep calls it). */
  async expireLapsed(): Promise<number> {
    const now = this.deps.now();
    const window = this.deps.paymentWindowMs ?? ACCELERATION_PAYMENT_WINDOW_MS;
    const lapsed = await this.deps.repo.lapsedUnpaid(now - window, 100);
    let n = 0;
    for (const o of lapsed) {
      if (await this.deps.repo.moveOrder(o.id, ['unpaid'], { status: 'expired', finished_at: now, updated_at: now })) {
        n += 1;
        await this.deps.audit.record(
          {
            entity: 'acceleration_order',
            entityId: o.order_no,
            before: { status: 'unpaid' },
            after: { status: 'expired' },
          },
          { accountId: null, usr: null, action: 'accelerationExpiry' },
        );
      }
    }
    return n;
  }
}
