import { z } from 'zod';
import { RECHARGE_AREAS, RECHARGE_ORDER_STATUSES, RECHARGE_PAYMENT_METHODS, type CardStatus } from '../recharge.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result } from './define.js';
import type { RechargeOrderItemRow, RechargeOrderRow } from './recharge-orders.js';
import { RECHARGE_RECORDS_MAX_PAGE } from './recharge-records-params.js';

/**
 * Issue 15, rechargeRecord (spec §2 recharge group, §3 "Recharge order"): the recharge orders an
 * owner, distributor, group account or manufacturer may see, with the filters of the operator's
 * list, one order with its cards, and an xlsx export. The operator keeps queryRechargeOrders /
 * queryRechargeOrder (recharge-orders.ts), unchanged; these are separate, caller-scoped actions
 * (the vendor pages name none; the names follow the vendor style). Scope, in SQL:
 * - owner (0): orders placed in its subtree and orders holding a card of a datalogger it sees;
 * - distributor (2), group account (3), manufacturer (1), sub-administrator: orders placed in the
 *   subtrees it sees, orders holding a card of a datalogger it sees (its managed/made ones), and
 *   orders whose `vendor_id` is one of its admin accounts (a manufacturer's own orders);
 * - viewer (5) and operator (15): not callers (err 11).
 * A foreign order answers like a missing one (372). docs/money/recharge-records.md.
 */

/** One order of the caller's records: the operator's row without the remedy count, plus its cards' facts. */
export interface RechargeRecordRow extends Omit<RechargeOrderRow, 'remedies'> {
  /** The distinct load counts (capacity) of its cards at order time (one for a batch, spec §5). */
  loads: number[];
  /** The distinct card statuses of its cards at order time. */
  cardStatuses: CardStatus[];
  /** The caller placed this order (the page offers "Pay" for its own unpaid orders). */
  own: boolean;
}

/** One card of an order, with the datalogger's current card expiry (epoch ms, null unknown). */
export interface RechargeRecordItemRow extends RechargeOrderItemRow {
  expireAt: number | null;
}

export interface RechargeRecordDetail {
  order: RechargeRecordRow;
  items: RechargeRecordItemRow[];
}

const filters = {
  search: z.string().trim().max(64).optional(),
  status: z.enum(RECHARGE_ORDER_STATUSES).optional(),
  area: z.enum(RECHARGE_AREAS).optional(),
  method: z.enum(RECHARGE_PAYMENT_METHODS).optional(),
  start: wireInt().min(0).optional(),
  end: wireInt().min(0).optional(),
};

const ACCESS = { auth: 'signed', roles: [0, 1, 2, 3], permission: 'system_settings' } as const;

export const queryMyRechargeOrders = defineAction({
  name: 'queryMyRechargeOrders',
  summary:
    "The caller's recharge records (owner: placed by it or holding its dataloggers' cards; distributor/group/manufacturer: its tree's, its dataloggers', its vendor's), newest first, paged on the server. `search` matches the order number or a card's PN or CCID; `status`, `area`, `method` filter; `start`/`end` (epoch ms, inclusive) bound the creation time. {total,page,pagesize,orders:[RechargeRecordRow]}.",
  params: actionParams({ ...filters, page: page(), pagesize: pageSize(RECHARGE_RECORDS_MAX_PAGE) }),
  access: ACCESS,
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; orders: RechargeRecordRow[] }>(),
});

export const queryMyRechargeOrder = defineAction({
  name: 'queryMyRechargeOrder',
  summary:
    "One of the caller's recharge records with its cards (renewal state and the card's current expiry); err 372 for an unknown or foreign order. RechargeRecordDetail.",
  params: actionParams({ id: wireInt().min(1) }),
  access: ACCESS,
  mutates: false,
  result: result<RechargeRecordDetail>(),
});

export const exportMyRechargeOrders = defineAction({
  name: 'exportMyRechargeOrders',
  summary:
    "The caller's recharge records with the filters of queryMyRechargeOrders as an xlsx file (headers and values in the call's language, times at `tz` seconds east of UTC), at most 10,000 orders: {name, mime, size, data (base64)}. err 264 nothing matches, 13 more than 10,000 match.",
  params: actionParams({
    ...filters,
    tz: wireInt()
      .min(-14 * 3600)
      .max(14 * 3600)
      .optional(),
  }),
  access: ACCESS,
  mutates: false,
  result: result<{ name: string; mime: string; size: number; rows: number; data: string }>(),
});
