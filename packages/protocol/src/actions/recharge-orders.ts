import { z } from 'zod';
import {
  RECHARGE_AREAS,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  RECHARGE_REASON_MAX,
  RECHARGE_REASON_MIN,
  type CardStatus,
  type RechargeArea,
  type RechargeCreditState,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
} from '../recharge.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator back office, rechargeRemedy (spec §2 recharge group, §3 "Recharge order",
 * §4 "Recharge"): the platform's recharge orders (issue 15 creates and pays them) searched by the
 * operator, one order's items and remedy history, and a remedy: the order's state corrected by
 * hand with a reason, within RECHARGE_TRANSITIONS (recharge.ts), audited, refused when another
 * operator changed the state first. Operator only (role 15). The vendor pages name no action for
 * this page; the names follow the vendor style. docs/operator/recharge-remedy.md.
 */

/** One order on the wire. Amounts are integers in the currency's minor units (fen, cents). */
export interface RechargeOrderRow {
  id: number;
  orderNo: string;
  status: RechargeOrderStatus;
  /** The account that placed the order. */
  accountUid: number;
  accountUsr: string;
  /** The manufacturer (role 1) whose dataloggers the order's cards belong to; 0 = none. */
  vendorUid: number;
  vendorUsr: string;
  months: number;
  package: string;
  /** Charged amount, minor units, after the discount. */
  amount: number;
  /** Amount taken off the list price, minor units. */
  discount: number;
  currency: string;
  method: RechargePaymentMethod | '';
  channel: string;
  area: RechargeArea | '';
  /** The payment provider's reference ('' before payment). */
  providerRef: string;
  /** How many cards; `pns`: the first few of their PNs. */
  items: number;
  pns: string[];
  /** How many remedies the order had. */
  remedies: number;
  /** Epoch ms; null while not reached. */
  createdAt: number;
  paidAt: number | null;
  finishedAt: number | null;
  updatedAt: number;
}

/** One card of an order, as it was when ordered. */
export interface RechargeOrderItemRow {
  id: number;
  pn: string;
  ccid: string;
  /** The datalogger's load count (capacity) at order time (spec §5: a batch keeps to one). */
  load: number;
  cardStatus: CardStatus;
  /** The card's renewal once the order succeeded (recharge.ts RECHARGE_CREDIT_STATES). */
  creditState: RechargeCreditState;
}

/** One manual correction of an order's state. */
export interface RechargeRemedyRow {
  id: number;
  from: RechargeOrderStatus;
  to: RechargeOrderStatus;
  reason: string;
  /** The operator's account name. */
  operator: string;
  /** Epoch ms. */
  at: number;
}

export interface RechargeOrderDetail {
  order: RechargeOrderRow;
  items: RechargeOrderItemRow[];
  /** Newest first. */
  remedies: RechargeRemedyRow[];
}

export const queryRechargeOrders = defineAction({
  name: 'queryRechargeOrders',
  summary:
    "Operator: recharge orders, newest first, paged on the server. `search` matches the order number, a card's PN or CCID, or the ordering account's name; `status`, `area`, `method` filter; `start`/`end` (epoch ms) bound the creation time. {total,page,pagesize,orders:[RechargeOrderRow]}.",
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    status: z.enum(RECHARGE_ORDER_STATUSES).optional(),
    area: z.enum(RECHARGE_AREAS).optional(),
    method: z.enum(RECHARGE_PAYMENT_METHODS).optional(),
    start: wireInt().min(0).optional(),
    end: wireInt().min(0).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; orders: RechargeOrderRow[] }>(),
});

export const queryRechargeOrder = defineAction({
  name: 'queryRechargeOrder',
  summary:
    'Operator: one recharge order with its cards and its remedy history (newest first); err 372 for an unknown id. RechargeOrderDetail.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<RechargeOrderDetail>(),
});

export const remedyRechargeOrder = defineAction({
  name: 'remedyRechargeOrder',
  summary:
    'Operator: moves an order from `from` (the state the operator saw) to `status`, with a `reason` (2–500 characters), recorded and audited. err 372 unknown id; 271 when `status` is the current state; 14 when the order is no longer in `from` (another change came first); 8 when RECHARGE_TRANSITIONS forbids the move. {status}.',
  params: actionParams({
    id: wireInt().min(1),
    from: z.enum(RECHARGE_ORDER_STATUSES),
    status: z.enum(RECHARGE_ORDER_STATUSES),
    reason: z.string().trim().min(RECHARGE_REASON_MIN).max(RECHARGE_REASON_MAX),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<{ status: RechargeOrderStatus }>(),
});
