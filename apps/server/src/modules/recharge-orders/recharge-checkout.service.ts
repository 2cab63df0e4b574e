import crypto from 'node:crypto';
import {
  ApiError,
  RECHARGE_MONTHS,
  cardStatusCode,
  checkRechargeBatch,
  deriveCardStatus,
  quoteRecharge,
  rechargePackage,
  type Catalogue,
  type ParsedParamsOf,
  type RechargeCard,
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

/** A new order number: RC + the UTC day + 10 random digits. */
export function newRechargeOrderNo(at: number): string {
  const d = new Date(at);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `RC${ymd}${String(crypto.randomInt(0, 1e10)).padStart(10, '0')}`;
}

/**
 * Issue 15 checkout of recharge orders: the preview (cards, spec §5 batch verdict, price) and the
 * order itself, only for cards of dataloggers the caller may manage (AccessService, in SQL). The
 * batch rule is protocol checkRechargeBatch (flow-cards.ts): the order goes through
 * collectorAdmin.rechargeCards, which refuses with its catalogue code; the order's area must be
 * the cards' area (8, `area`).
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
      /** collectorAdmin.rechargeCards: visibility (257) and the §5 batch rule (its codes). */
      rechargeCards(caller: Caller, pns: readonly string[]): Promise<Array<RechargeCard & { expireAt: number | null }>>;
    },
  ) {}

  private priced(p: QuoteParams, cards: number) {
    const pkg = rechargePackage(p.package);
    if (!pkg || pkg.area !== p.area) throw new ApiError(8, 'package');
    if (!RECHARGE_MONTHS.includes(p.months)) throw new ApiError(8, 'months');
    return { pkg, quote: quoteRecharge(pkg, p.months, cards) };
  }

  /** The checkout preview: never refuses a batch, says what is wrong with it. */
  async quote(caller: Caller, p: QuoteParams): Promise<RechargeQuoteResult> {
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: p.pns });
    const rows = await currentDb(this.deps.db)
      .selectFrom('dataloggers')
      .select(['pn', 'ccid', 'card_type', 'card_area', 'load_count', 'card_expire_at', 'card_used_kb', 'card_limit_kb'])
      .where('pn', 'in', [...p.pns])
      .execute();
    const byPn = new Map(rows.map((r) => [r.pn, r]));
    const now = this.deps.now();
    const cards: RechargeCardRow[] = p.pns.flatMap((pn) => {
      const r = byPn.get(pn);
      if (!r) return [];
      const expireAt = r.card_expire_at === null ? null : Number(r.card_expire_at);
      return [
        {
          pn,
          ccid: r.ccid,
          cardType: r.card_type,
          load: Number(r.load_count),
          area: r.card_area,
          expireAt,
          status: deriveCardStatus({
            expireAt,
            usedKb: Number(r.card_used_kb),
            limitKb: Number(r.card_limit_kb),
            now,
            ccid: r.ccid,
          }),
        },
      ];
    });
    const { quote } = this.priced(p, cards.length);
    const problem = checkRechargeBatch(cards);
    const wrongArea = !problem && cards[0] !== undefined && cards[0].area !== p.area;
    return {
      cards,
      batchError: problem ? problem.reason : wrongArea ? 'wrong_area' : '',
      batchPn: problem?.pn ?? '',
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
    const { pkg } = this.priced(p, 1);
    const cards = await this.deps.rechargeCards(caller, p.pns);
    if (cards[0] && cards[0].area !== p.area) throw new ApiError(8, 'area');
    const provider = this.deps.providerOf(p.method);
    if (provider === undefined) throw new ApiError(1028, p.method);
    const { quote } = this.priced(p, cards.length);
    const at = this.deps.now();
    const rows = await currentDb(this.deps.db)
      .selectFrom('dataloggers')
      .select(['pn', 'vendor_id'])
      .where(
        'pn',
        'in',
        cards.map((c) => c.pn),
      )
      .execute();
    const vendors = new Set(rows.map((r) => (r.vendor_id === null ? null : Number(r.vendor_id))));
    const orderNo = newRechargeOrderNo(at);
    const id = await this.deps.repo.insertOrder(
      {
        order_no: orderNo,
        account_id: caller.accountId,
        account_usr: caller.usr,
        vendor_id: vendors.size === 1 ? [...vendors][0]! : null,
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
      cards.map((c) => ({ pn: c.pn, ccid: c.ccid, load_count: c.load, card_status: cardStatusCode(c.status) })),
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
