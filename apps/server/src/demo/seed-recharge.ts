import { createHash } from 'node:crypto';
import {
  checkRechargeBatch,
  deriveCardStatus,
  type RechargeArea,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A CCID (ICCID, 20 digits) for a demo card: 8986… for a mainland China SIM, 8949… (Germany) else. */
export function demoCcid(pn: string, area: RechargeArea): string {
  const digits = BigInt('0x' + createHash('sha256').update(pn).digest('hex').slice(0, 15))
    .toString()
    .padStart(16, '0');
  return (area === 'mainland' ? '8986' : '8949') + digits.slice(-16);
}

interface DemoOrder {
  status: RechargeOrderStatus;
  usr: string;
  pns: readonly string[];
  area: RechargeArea;
  method: RechargePaymentMethod;
  channel: string;
  currency: string;
  months: number;
  package: string;
  /** Price per card and month, minor units. */
  unit: number;
  discountPct: number;
  /** Created this long before now; paid and finished after it. */
  age: number;
  paidAfter?: number;
  finishedAfter?: number;
  remedy?: { from: RechargeOrderStatus; reason: string };
}

/** The demo orders: one per state, on the demo plants' dataloggers and the dealer's stock. */
const ORDERS: readonly DemoOrder[] = [
  {
    status: 'success',
    usr: 'owner_anna',
    pns: ['SWNORTH0000001'],
    area: 'international',
    method: 'card',
    channel: 'sandbox',
    currency: 'EUR',
    months: 12,
    package: 'EU-50MB',
    unit: 150,
    discountPct: 10,
    age: 62 * DAY,
    paidAfter: 4 * 60_000,
    finishedAfter: 19 * HOUR,
  },
  {
    status: 'success',
    usr: 'dealer_north',
    pns: ['SWNORTH0000201', 'SWNORTH0000202'],
    area: 'mainland',
    method: 'scan',
    channel: 'sandbox',
    currency: 'CNY',
    months: 12,
    package: 'CN-30MB',
    unit: 500,
    discountPct: 0,
    age: 40 * DAY,
    paidAfter: 2 * 60_000,
    finishedAfter: 6 * DAY,
    remedy: { from: 'overdue', reason: 'Carrier confirmed the credit on 2 cards; callback was lost.' },
  },
  {
    status: 'recharging',
    usr: 'owner_ben',
    pns: ['SWSOUTH0000001'],
    area: 'international',
    method: 'paypal',
    channel: 'sandbox',
    currency: 'EUR',
    months: 6,
    package: 'EU-50MB',
    unit: 150,
    discountPct: 0,
    age: 10 * HOUR,
    paidAfter: 3 * 60_000,
  },
  {
    status: 'paid',
    usr: 'dealer_north',
    pns: ['SWMAKER0000001', 'SWMAKER0000002'],
    area: 'mainland',
    method: 'card',
    channel: 'sandbox',
    currency: 'CNY',
    months: 24,
    package: 'CN-30MB',
    unit: 500,
    discountPct: 15,
    age: 3 * HOUR,
    paidAfter: 5 * 60_000,
  },
  {
    status: 'unpaid',
    usr: 'owner_anna',
    pns: ['SWNORTH0000001'],
    area: 'international',
    method: 'card',
    channel: 'sandbox',
    currency: 'EUR',
    months: 3,
    package: 'EU-100MB',
    unit: 250,
    discountPct: 0,
    age: 40 * 60_000,
  },
  {
    status: 'overdue',
    usr: 'owner_ben',
    pns: ['SWSOUTH0000001'],
    area: 'international',
    method: 'card',
    channel: 'sandbox',
    currency: 'EUR',
    months: 12,
    package: 'EU-50MB',
    unit: 150,
    discountPct: 10,
    age: 20 * DAY,
    paidAfter: 6 * 60_000,
  },
  {
    status: 'failed',
    usr: 'owner_ben',
    pns: ['SWSOUTH0000001'],
    area: 'international',
    method: 'paypal',
    channel: 'sandbox',
    currency: 'EUR',
    months: 12,
    package: 'EU-50MB',
    unit: 150,
    discountPct: 10,
    age: 25 * DAY,
    finishedAfter: 15 * 60_000,
  },
  {
    status: 'expired',
    usr: 'dealer_north',
    pns: ['SWNORTH0000201'],
    area: 'mainland',
    method: 'scan',
    channel: 'sandbox',
    currency: 'CNY',
    months: 12,
    package: 'CN-30MB',
    unit: 500,
    discountPct: 0,
    age: 9 * DAY,
    finishedAfter: DAY,
  },
];

function orderNo(at: number, seq: number): string {
  const d = new Date(at);
  const ymd = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `RC${ymd}${String(9000 + seq).padStart(6, '0')}`;
}

/**
 * Issue 14 rechargeRemedy: a handful of recharge orders in every state on the demo dataloggers
 * (DEMO_DATA only; tests call it themselves), so the operator's page is not empty. Demo cards
 * get a CCID where they have none. Idempotent: nothing happens once any order of the demo
 * accounts exists. Returns how many orders it created.
 */
export async function seedDemoRechargeOrders(app: FastifyInstance | { ctx: AppContext }): Promise<number> {
  const ctx = app.ctx;
  const { db } = ctx;
  const now = ctx.now();
  const accounts = new Map(
    (
      await db
        .selectFrom('accounts')
        .select(['id', 'usr'])
        .where('usr', 'in', [...new Set(ORDERS.map((o) => o.usr))])
        .execute()
    ).map((a) => [a.usr, Number(a.id)]),
  );
  if (accounts.size === 0) return 0;
  const existing = await db
    .selectFrom('recharge_orders')
    .select('id')
    .where('account_id', 'in', [...accounts.values()])
    .executeTakeFirst();
  if (existing) return 0;
  const operator = await db
    .selectFrom('accounts')
    .select(['id', 'usr'])
    .where('usr', '=', 'operator')
    .executeTakeFirst();
  const pns = [...new Set(ORDERS.flatMap((o) => o.pns))];
  const loggers = new Map(
    (
      await db
        .selectFrom('dataloggers')
        .select(['id', 'pn', 'ccid', 'load_count', 'card_status', 'vendor_id'])
        .where('pn', 'in', pns)
        .execute()
    ).map((l) => [l.pn, l]),
  );
  const repo = ctx.services.rechargeOrders.repo;
  let created = 0;
  for (const [n, o] of ORDERS.entries()) {
    const account = accounts.get(o.usr);
    const cards = o.pns.map((pn) => loggers.get(pn)).filter((l) => l !== undefined);
    if (account === undefined || cards.length === 0) continue;
    for (const c of cards) {
      if (c.ccid !== '') continue;
      c.ccid = demoCcid(c.pn, o.area);
      await db.updateTable('dataloggers').set({ ccid: c.ccid }).where('id', '=', c.id).execute();
    }
    const created_at = now - o.age;
    const list = o.unit * o.months * cards.length;
    const discount = Math.round((list * o.discountPct) / 100);
    const paid_at = o.paidAfter === undefined ? null : created_at + o.paidAfter;
    const finished_at = o.finishedAfter === undefined ? null : created_at + o.finishedAfter;
    const id = await repo.insertOrder(
      {
        order_no: orderNo(created_at, n + 1),
        account_id: account,
        account_usr: o.usr,
        vendor_id: cards[0]!.vendor_id === null ? null : Number(cards[0]!.vendor_id),
        months: o.months,
        package: o.package,
        amount_minor: list - discount,
        discount_minor: discount,
        currency: o.currency,
        method: o.method,
        channel: o.channel,
        area: o.area,
        status: o.status,
        provider_ref:
          paid_at === null ? '' : `SBX-${createHash('sha256').update(`${o.usr}${n}`).digest('hex').slice(0, 12)}`,
        created_at,
        paid_at,
        finished_at,
        updated_at: finished_at ?? paid_at ?? created_at,
      },
      cards.map((c) => ({
        pn: c.pn,
        ccid: c.ccid,
        load_count: Number(c.load_count),
        card_status: Number(c.card_status),
        credit_state: o.status === 'success' ? 'pending' : 'none',
      })),
    );
    if (o.remedy && operator) {
      await repo.insertRemedy({
        order_id: id,
        from_status: o.remedy.from,
        to_status: o.status,
        reason: o.remedy.reason,
        operator_id: Number(operator.id),
        operator_usr: operator.usr,
        created_at: finished_at ?? now,
      });
    }
    created += 1;
  }
  return created;
}

/** The demo batch the checkout flow recharges (dealer_north's two stock dataloggers). */
export const DEMO_CHECKOUT_PNS = ['SWNORTH0000201', 'SWNORTH0000202'] as const;

/**
 * Issue 15: dealer_north's two stock cards form a valid batch (spec §5: same card type, load
 * count, area and platform state) so the demo can recharge them together; they are aligned only
 * when the flow-card seed left them unable to (different type, or a state that cannot go with
 * the other). Returns whether it changed them.
 */
export async function seedDemoCheckoutCards(app: FastifyInstance | { ctx: AppContext }): Promise<boolean> {
  const { db } = app.ctx;
  const now = app.ctx.now();
  const rows = await db
    .selectFrom('dataloggers')
    .select(['pn', 'ccid', 'card_type', 'card_area', 'load_count', 'card_expire_at', 'card_used_kb', 'card_limit_kb'])
    .where('pn', 'in', [...DEMO_CHECKOUT_PNS])
    .orderBy('pn')
    .execute();
  if (rows.length !== DEMO_CHECKOUT_PNS.length) return false;
  const cards = rows.map((r) => {
    const expireAt = r.card_expire_at === null ? null : Number(r.card_expire_at);
    return {
      pn: r.pn,
      ccid: r.ccid,
      cardType: r.card_type,
      load: Number(r.load_count),
      area: r.card_area,
      status: deriveCardStatus({
        expireAt,
        usedKb: Number(r.card_used_kb),
        limitKb: Number(r.card_limit_kb),
        now,
        ccid: r.ccid,
      }),
    };
  });
  if (checkRechargeBatch(cards) === null && cards[0]!.area === 'mainland') return false;
  for (const [i, pn] of DEMO_CHECKOUT_PNS.entries()) {
    await db
      .updateTable('dataloggers')
      .set({
        ccid: rows[i]!.ccid || demoCcid(pn, 'mainland'),
        card_type: 'standard',
        card_area: 'mainland',
        load_count: Number(rows[0]!.load_count),
        // one expiring soon (warning), one later (normal): both active
        card_expire_at: now + (i === 0 ? 12 : 95) * DAY,
      })
      .where('pn', '=', pn)
      .execute();
  }
  return true;
}
