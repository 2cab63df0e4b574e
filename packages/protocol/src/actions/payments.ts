import { z } from 'zod';
import { ORDER_NO_PATTERN, PAYMENT_KINDS, type PaymentKind, type PaymentState } from '../payments.js';
import { RECHARGE_AREAS, RECHARGE_PAYMENT_METHODS, type CardStatus, type RechargeArea } from '../recharge.js';
import { RECHARGE_MAX_CARDS } from '../recharge-plans.js';
import { actionParams, wireInt } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 15: checkout and payment of recharge (and acceleration) orders. An order is created
 * (`createRechargeOrder`), paid through a provider's hosted checkout page (`payOrder` answers its
 * URL), and its outcome read back by the order-result page (`queryPayResult`). Every role but the
 * viewer may pay for the cards of the dataloggers it manages. docs/money/payments.md.
 */

const PAYERS = [0, 1, 2, 3, 15] as const;

const orderNo = z.string().trim().regex(ORDER_NO_PATTERN);
/** A web path to come back to after the checkout (same site only: `/x…`, never `//host`). */
const returnPath = z
  .string()
  .trim()
  .max(300)
  .regex(/^\/(?!\/)[^\s\\]*$/)
  .optional();

/** Comma-separated PNs (1–RECHARGE_MAX_CARDS, distinct). */
const pnList = z
  .string()
  .trim()
  .min(1)
  .max(RECHARGE_MAX_CARDS * 33)
  .transform((s) => [
    ...new Set(
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/))
      .min(1)
      .max(RECHARGE_MAX_CARDS),
  );

export interface PayResult {
  orderNo: string;
  kind: PaymentKind;
  /** The order's state (RechargeOrderStatus for recharge, the acceleration states for acceleration). */
  status: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** Epoch ms; null while unpaid. */
  paidAt: number | null;
  createdAt: number;
  /** The last payment attempt's state ('' when none was made). */
  payment: PaymentState | '';
  method: string;
  /** Why the last attempt failed ('' otherwise). */
  failReason: string;
  description: string;
  /** Recharge orders: the cards and their renewal. */
  cards?: PayResultCard[];
}

export interface PayResultCard {
  pn: string;
  ccid: string;
  creditState: string;
  /** Expiry before and after the renewal, epoch ms (null when unknown / not yet renewed). */
  expireBefore: number | null;
  expireAfter: number | null;
  /** When the credit takes effect (the 25th–5th and overdue delays), epoch ms. */
  effectiveAt: number | null;
}

export const payOrder = defineAction({
  name: 'payOrder',
  summary:
    "Starts paying one of the caller's unpaid orders with `method` through the provider configured for it: {payUrl}, the hosted checkout page to open. err 372 unknown order (or another account's); 271 not unpaid; 1028 method unsupported.",
  params: actionParams({
    kind: z.enum(PAYMENT_KINDS),
    orderNo,
    method: z.string().trim().min(1).max(16),
    returnPath,
  }),
  access: { auth: 'signed', roles: [...PAYERS], permission: 'system_settings', button: 'recharge_pay_button' },
  mutates: true,
  result: result<{ payUrl: string }>(),
});

export const queryPayResult = defineAction({
  name: 'queryPayResult',
  summary:
    "One of the caller's orders as the order-result page shows it (state, amount, payment, cards' renewal). err 372 unknown order (or another account's). PayResult.",
  params: actionParams({ kind: z.enum(PAYMENT_KINDS), orderNo }),
  access: { auth: 'signed', roles: [...PAYERS], permission: 'system_settings' },
  mutates: false,
  result: result<PayResult>(),
});

/** One card as the checkout shows it before ordering. */
export interface RechargeCardRow {
  pn: string;
  ccid: string;
  /** Datalogger type code (the card type of spec §5's batch rule). */
  typeCode: string;
  load: number;
  cardStatus: CardStatus;
  expireAt: number | null;
  /** The area its CCID belongs to (8986… mainland), '' when it has no card. */
  area: RechargeArea | '';
}

export interface RechargeQuoteResult {
  cards: RechargeCardRow[];
  /** The spec §5 batch-rule violation, '' when the batch is valid: type, load, area or nocard. */
  batchError: '' | 'type' | 'load' | 'area' | 'nocard';
  currency: string;
  listMinor: number;
  discountPct: number;
  discountMinor: number;
  amountMinor: number;
}

const quoteParams = {
  pns: pnList,
  package: z.string().trim().min(1).max(64),
  months: wireInt().min(1).max(120),
  area: z.enum(RECHARGE_AREAS),
};

export const quoteRechargeOrder = defineAction({
  name: 'quoteRechargeOrder',
  summary:
    'The checkout preview: the cards of `pns` (comma list) with their type, load count, status and expiry, the batch-rule verdict (spec §5) and the price of `package` × `months` (discount included). err 257 a PN the caller does not manage; 8 unknown package or months, or a package of another area. RechargeQuoteResult.',
  params: actionParams(quoteParams),
  access: { auth: 'signed', roles: [...PAYERS], permission: 'system_settings' },
  mutates: false,
  result: result<RechargeQuoteResult>(),
});

export const createRechargeOrder = defineAction({
  name: 'createRechargeOrder',
  summary:
    'Orders a recharge of the cards of `pns` (comma list, dataloggers the caller manages) for `months` of `package` in `area`, to be paid with `method`: {orderNo, amount, discount, currency, status: unpaid}. err 257 a PN not managed; 8 unknown package/months or package of another area; 1028 method unsupported; 1030 batch rule (detail: type, load, area or nocard).',
  params: actionParams({ ...quoteParams, method: z.enum(RECHARGE_PAYMENT_METHODS) }),
  access: { auth: 'signed', roles: [...PAYERS], permission: 'system_settings', button: 'recharge_pay_button' },
  mutates: true,
  result: result<{ orderNo: string; amount: number; discount: number; currency: string; status: 'unpaid' }>(),
});
