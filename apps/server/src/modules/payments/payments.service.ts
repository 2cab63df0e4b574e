import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import {
  ApiError,
  isPaymentKind,
  normalizeLocale,
  DEFAULT_LOCALE,
  type PayResult,
  type PayResultCard,
  type PaymentKind,
  type PaymentState,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { Database } from '../../db/schema.js';
import type { DbHandle } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { PayableKind } from './payable.js';
import type { PaymentsConfig } from './payments.config.js';
import { PaymentsRepository, type PaymentRecord } from './payments.repository.js';
import type { PaymentProvider, WebhookRequest } from './provider.js';

/** Extra facts of an order for the result page (a kind registers them; acceleration may not). */
export interface PayResultDetails {
  createdAt: number;
  paidAt: number | null;
  cards?: PayResultCard[];
}
export type PayResultDetailsFn = (db: Db, orderNo: string) => Promise<PayResultDetails | undefined>;

/** What a webhook did (the route answers 401 for `forged`, 404 for `unknown-provider`, else 200). */
export type WebhookOutcome =
  | 'forged'
  | 'unknown-provider'
  | 'duplicate'
  | 'unknown-session'
  | 'mismatch'
  | 'applied'
  | 'unapplied'
  | 'failed'
  | 'ignored';

/** A pending attempt as the sandbox page shows it. */
export interface CheckoutSession {
  payment: PaymentRecord;
  description: string;
  /** The order can still be paid (unpaid, or expired: a late payment). */
  payable: boolean;
}

/**
 * Payments (issue 15; docs/money/payments.md): the registry of payable kinds (recharge,
 * acceleration) and providers, `payOrder` (a checkout attempt at the provider the method is
 * configured for), the order-result read, and the webhook: verified by the provider (forged →
 * nothing happens), idempotent by event id (payment_events), applied in one transaction through
 * the kind's compare-and-set, so a duplicate or late callback cannot pay an order twice.
 */
export class PaymentsService {
  readonly repo: PaymentsRepository;
  private readonly kinds = new Map<string, PayableKind>();
  private readonly details = new Map<string, PayResultDetailsFn>();
  private readonly providers = new Map<string, PaymentProvider>();

  constructor(
    private readonly deps: {
      db: Db;
      dbh: DbHandle;
      now: Clock;
      audit?: Pick<AuditService, 'record'>;
      config: PaymentsConfig;
    },
  ) {
    this.repo = new PaymentsRepository(deps.db);
  }

  /** Registers a kind of order that can be paid (one per kind). */
  register(kind: PayableKind, details?: PayResultDetailsFn): void {
    this.kinds.set(kind.kind, kind);
    if (details) this.details.set(kind.kind, details);
  }

  /** Registers a provider (the sandbox is registered by createContext; real ones by configuration). */
  registerProvider(provider: PaymentProvider): void {
    this.providers.set(provider.id, provider);
  }

  provider(id: string): PaymentProvider | undefined {
    return this.providers.get(id);
  }

  kind(kind: string): PayableKind | undefined {
    return this.kinds.get(kind);
  }

  /** The provider configured for `method`, if it is registered and takes the method. */
  providerFor(method: string): PaymentProvider | undefined {
    const id = this.deps.config.methodProviders[method];
    const p = id === undefined ? undefined : this.providers.get(id);
    return p?.methods.includes(method) ? p : undefined;
  }

  private requireKind(kind: string): PayableKind {
    const k = isPaymentKind(kind) ? this.kinds.get(kind) : undefined;
    if (!k) throw new ApiError(372);
    return k;
  }

  /**
   * Opens a checkout attempt for one of the caller's unpaid orders: {payUrl}. Runs in the
   * action's transaction.
   */
  async payOrder(
    caller: Caller,
    p: { kind: PaymentKind; orderNo: string; method: string; returnPath?: string | undefined },
    locale: string,
  ): Promise<{ payUrl: string }> {
    const kind = this.requireKind(p.kind);
    const order = await kind.load(this.deps.dbh.db, p.orderNo);
    if (!order || order.accountId !== caller.accountId) throw new ApiError(372);
    if (order.status !== 'unpaid') throw new ApiError(271, order.status);
    const provider = this.providerFor(p.method);
    if (!provider) throw new ApiError(1028, p.method);
    const at = this.deps.now();
    const sessionId = `ps_${crypto.randomBytes(18).toString('base64url')}`;
    const loc = normalizeLocale(locale) ?? DEFAULT_LOCALE;
    await this.repo.insert({
      session_id: sessionId,
      kind: p.kind,
      order_no: order.orderNo,
      account_id: caller.accountId,
      provider: provider.id,
      method: p.method,
      amount_minor: order.amountMinor,
      currency: order.currency,
      status: 'pending',
      return_path: p.returnPath ?? '',
      locale: loc,
      created_at: at,
      updated_at: at,
    });
    const { payUrl } = await provider.createCheckout({
      sessionId,
      kind: p.kind,
      orderNo: order.orderNo,
      amountMinor: order.amountMinor,
      currency: order.currency,
      method: p.method,
      description: order.description,
      locale: loc,
    });
    await this.deps.audit?.record({
      entity: 'payment',
      entityId: sessionId,
      before: null,
      after: {
        kind: p.kind,
        orderNo: order.orderNo,
        provider: provider.id,
        method: p.method,
        amount: order.amountMinor,
        currency: order.currency,
      },
    });
    return { payUrl };
  }

  /** The order-result page's read of one of the caller's orders. */
  async result(caller: Caller, p: { kind: PaymentKind; orderNo: string }): Promise<PayResult> {
    const kind = this.requireKind(p.kind);
    const db = this.deps.dbh.db;
    const order = await kind.load(db, p.orderNo);
    if (!order || order.accountId !== caller.accountId) throw new ApiError(372);
    const last = await this.repo.lastOf(p.kind, order.orderNo);
    const extra = await this.details.get(p.kind)?.(db, order.orderNo);
    return {
      orderNo: order.orderNo,
      kind: p.kind,
      status: order.status,
      amount: order.amountMinor,
      currency: order.currency,
      paidAt: extra?.paidAt ?? null,
      createdAt: extra?.createdAt ?? 0,
      payment: (last?.status as PaymentState | undefined) ?? '',
      method: last?.method ?? '',
      failReason: last?.fail_reason ?? '',
      description: order.description,
      ...(extra?.cards ? { cards: extra.cards } : {}),
    };
  }

  /** A checkout attempt for the provider's hosted page (sandbox). */
  async session(sessionId: string): Promise<CheckoutSession | undefined> {
    const payment = await this.repo.bySession(sessionId);
    if (!payment) return undefined;
    const kind = this.kinds.get(payment.kind);
    const order = kind ? await kind.load(this.deps.db, payment.order_no) : undefined;
    return {
      payment,
      description: order?.description ?? payment.order_no,
      payable: payment.status === 'pending' && (order?.status === 'unpaid' || order?.status === 'expired'),
    };
  }

  /**
   * A provider's webhook. Verified first (a forged, altered or stale one changes nothing); then,
   * in one transaction: the event id recorded (a duplicate stops here), the attempt and the order
   * moved by the kind's compare-and-set. A success for an order that can no longer be paid
   * (already paid by another attempt, finished) leaves the order alone: the attempt becomes
   * `unapplied` for a person to return the money (refunds are refused by the providers).
   */
  async webhook(providerId: string, req: WebhookRequest): Promise<WebhookOutcome> {
    const provider = this.providers.get(providerId);
    if (!provider) return 'unknown-provider';
    const ev = provider.verifyWebhook(req);
    if (!ev) return 'forged';
    const actor: AuditActor = { accountId: null, usr: `provider:${providerId}`, action: 'payment_webhook' };
    return this.deps.dbh.transaction(async (trx) => {
      const at = this.deps.now();
      const fresh = await this.repo.recordEvent({
        provider: providerId,
        event_id: ev.eventId,
        session_id: ev.sessionId,
        type: ev.type,
        outcome: 'received',
        received_at: at,
      });
      if (!fresh) return 'duplicate';
      const outcome = await this.apply(trx as unknown as Transaction<Database>, providerId, ev, at, actor);
      await this.repo.setEventOutcome(providerId, ev.eventId, outcome);
      return outcome;
    });
  }

  private async apply(
    trx: Transaction<Database>,
    providerId: string,
    ev: NonNullable<ReturnType<PaymentProvider['verifyWebhook']>>,
    at: number,
    actor: AuditActor,
  ): Promise<WebhookOutcome> {
    const payment = await this.repo.bySession(ev.sessionId);
    if (!payment || payment.provider !== providerId) return 'unknown-session';
    const kind = this.kinds.get(payment.kind);
    if (!kind) return 'unknown-session';
    if (ev.amountMinor !== payment.amount_minor || (ev.currency !== '' && ev.currency !== payment.currency)) {
      await this.deps.audit?.record(
        {
          entity: 'payment',
          entityId: payment.session_id,
          before: { status: payment.status },
          after: { refused: 'amount mismatch', amount: ev.amountMinor, currency: ev.currency },
        },
        actor,
      );
      return 'mismatch';
    }
    if (ev.type === 'payment.succeeded') {
      if (payment.status === 'succeeded' || payment.status === 'unapplied') return 'ignored';
      const applied = await kind.paid(trx, payment.order_no, ev.providerRef, at);
      const status: PaymentState = applied ? 'succeeded' : 'unapplied';
      await this.repo.setStatus(payment.id, payment.status, status, { provider_ref: ev.providerRef, updated_at: at });
      await this.deps.audit?.record(
        {
          entity: 'payment',
          entityId: payment.session_id,
          before: { status: payment.status },
          after: { status, orderNo: payment.order_no, kind: payment.kind, providerRef: ev.providerRef },
        },
        actor,
      );
      return applied ? 'applied' : 'unapplied';
    }
    // payment.failed: only a pending attempt can fail; a late failure after a success is ignored.
    if (payment.status !== 'pending') return 'ignored';
    const changed = await kind.failed(trx, payment.order_no, ev.reason || 'declined', at);
    await this.repo.setStatus(payment.id, 'pending', 'failed', {
      fail_reason: (ev.reason || 'declined').slice(0, 200),
      updated_at: at,
    });
    await this.deps.audit?.record(
      {
        entity: 'payment',
        entityId: payment.session_id,
        before: { status: 'pending' },
        after: { status: 'failed', orderNo: payment.order_no, reason: ev.reason, orderChanged: changed },
      },
      actor,
    );
    return 'failed';
  }

  /** Refunds are refused (spec §9: payments are not refundable); the provider says so. */
  async refund(sessionId: string): Promise<never> {
    const payment = await this.repo.bySession(sessionId);
    const provider = payment ? this.providers.get(payment.provider) : undefined;
    if (!payment || !provider) throw new ApiError(372);
    return provider.refund(payment.provider_ref, payment.amount_minor);
  }
}
