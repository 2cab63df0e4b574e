import crypto from 'node:crypto';
import {
  ApiError,
  RECHARGE_MONTHS,
  ccidArea,
  cardStatusName,
  quoteRecharge,
  rechargeBatchError,
  rechargePackage,
  type Catalogue,
  type ParsedParamsOf,
  type RechargeCardRow,
  type RechargeQuoteResult,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RechargeOrdersRepository } from './recharge-orders.repository.js';

type QuoteParams = ParsedParamsOf<Catalogue['quoteRechargeOrder']>;
type CreateParams = ParsedParamsOf<Catalogue['createRechargeOrder']>;

interface CardFacts extends RechargeCardRow {
  vendorId: number | null;
  loadCount: number;
  cardStatusCode: number;
}

/** A new order number: RC + the UTC day + 10 random digits. */
export function newRechargeOrderNo(at: number): string {
  const d = new Date(at);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `RC${ymd}${String(crypto.randomInt(0, 1e10)).padStart(10, '0')}`;
}

/**
 * Issue 15 checkout of recharge orders: the preview (cards, spec §5 batch verdict, price) and the
 * order itself, only for cards of dataloggers the caller may manage (AccessService, in SQL).
 */
export class RechargeCheckoutService {
  constructor(
    private readonly deps: {
      db: Db;
      access: AccessService;
      repo: RechargeOrdersRepository;
      now: Clock;
      audit?: Pick<AuditService, 'record'>;
      /** The provider configured for the payment method (PaymentsService.providerFor), if any. */
      providerOf(method: string): string | undefined;
    },
  ) {}

  private async cards(caller: Caller, pns: readonly string[]): Promise<CardFacts[]> {
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: pns });
    const rows = await currentDb(this.deps.db)
      .selectFrom('dataloggers')
      .select(['pn', 'ccid', 'type_code', 'load_count', 'card_status', 'card_expire_at', 'vendor_id'])
      .where('pn', 'in', [...pns])
      .execute();
    const byPn = new Map(rows.map((r) => [r.pn, r]));
    return pns.flatMap((pn) => {
      const r = byPn.get(pn);
      if (!r) return [];
      return [
        {
          pn: r.pn,
          ccid: r.ccid,
          typeCode: r.type_code,
          load: Number(r.load_count),
          loadCount: Number(r.load_count),
          cardStatus: cardStatusName(Number(r.card_status)),
          cardStatusCode: Number(r.card_status),
          expireAt: r.card_expire_at === null ? null : Number(r.card_expire_at),
          area: ccidArea(r.ccid),
          vendorId: r.vendor_id === null ? null : Number(r.vendor_id),
        },
      ];
    });
  }

  private priced(p: QuoteParams, cards: number) {
    const pkg = rechargePackage(p.package);
    if (!pkg || pkg.area !== p.area) throw new ApiError(8, 'package');
    if (!RECHARGE_MONTHS.includes(p.months)) throw new ApiError(8, 'months');
    return { pkg, quote: quoteRecharge(pkg, p.months, cards) };
  }

  async quote(caller: Caller, p: QuoteParams): Promise<RechargeQuoteResult> {
    const cards = await this.cards(caller, p.pns);
    const { quote } = this.priced(p, cards.length);
    return {
      cards: cards.map(({ pn, ccid, typeCode, load, cardStatus, expireAt, area }) => ({
        pn,
        ccid,
        typeCode,
        load,
        cardStatus,
        expireAt,
        area,
      })),
      batchError: rechargeBatchError(cards, p.area),
      currency: quote.currency,
      listMinor: quote.listMinor,
      discountPct: quote.discountPct,
      discountMinor: quote.discountMinor,
      amountMinor: quote.amountMinor,
    };
  }

  /** Creates the order (unpaid) in the action's transaction. */
  async create(
    caller: Caller,
    p: CreateParams,
  ): Promise<{ orderNo: string; amount: number; discount: number; currency: string; status: 'unpaid' }> {
    const cards = await this.cards(caller, p.pns);
    const { pkg, quote } = this.priced(p, cards.length);
    const batch = rechargeBatchError(cards, p.area);
    if (batch !== '') throw new ApiError(1030, batch);
    const provider = this.deps.providerOf(p.method);
    if (provider === undefined) throw new ApiError(1028, p.method);
    const at = this.deps.now();
    const vendors = new Set(cards.map((c) => c.vendorId));
    const orderNo = newRechargeOrderNo(at);
    const id = await this.deps.repo.insertOrder(
      {
        order_no: orderNo,
        account_id: caller.accountId,
        account_usr: caller.usr,
        vendor_id: vendors.size === 1 ? cards[0]!.vendorId : null,
        months: p.months,
        package: pkg.id,
        amount_minor: quote.amountMinor,
        discount_minor: quote.discountMinor,
        currency: quote.currency,
        method: p.method,
        channel: provider,
        area: p.area,
        status: 'unpaid',
        created_at: at,
        paid_at: null,
        finished_at: null,
        updated_at: at,
      },
      cards.map((c) => ({ pn: c.pn, ccid: c.ccid, load_count: c.loadCount, card_status: c.cardStatusCode })),
    );
    await this.deps.audit?.record({
      entity: 'recharge_order',
      entityId: id,
      before: null,
      after: {
        orderNo,
        status: 'unpaid',
        pns: cards.map((c) => c.pn),
        package: pkg.id,
        months: p.months,
        amount: quote.amountMinor,
        discount: quote.discountMinor,
        currency: quote.currency,
        method: p.method,
        area: p.area,
      },
    });
    return {
      orderNo,
      amount: quote.amountMinor,
      discount: quote.discountMinor,
      currency: quote.currency,
      status: 'unpaid',
    };
  }
}
