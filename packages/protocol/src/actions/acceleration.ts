import { z } from 'zod';
import {
  ACCELERATION_CHANGE_STATUSES,
  ACCELERATION_INTERVALS,
  ACCELERATION_ORDER_STATUSES,
  ACCELERATION_STORAGE_MONTHS,
  ACCELERATION_TYPES,
  type AccelerationChangeStatus,
  type AccelerationOrderStatus,
  type AccelerationPrice,
  type AccelerationType,
} from '../acceleration.js';
import { RECHARGE_PAYMENT_METHODS, type RechargePaymentMethod } from '../recharge.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 15, acceleration orders (spec §2 "acceleration purchase page with terms",
 * `collectionFrequencyRecord`; §3 "Acceleration order"; §9 "Acceleration"): an owner, a
 * distributor, a manufacturer or the operator buys a faster collection interval for a Wi-Fi
 * datalogger it may manage; once paid, the server sends the datalogger the `collect_interval`
 * command (retried until it is online and acknowledges) and records the change. The vendor pages
 * name no action for this; the names follow the vendor style. docs/money/acceleration.md.
 *
 * Who: buying (quote, candidates, create) needs write access to the datalogger — an owner its own,
 * a distributor or manufacturer its scope, the operator any (group accounts and viewers: err 11);
 * the records are read by every admin role in its scope and by owners (their orders).
 */
const BUYERS = [0, 1, 2, 15] as const;
const READERS = [0, 1, 2, 3, 15] as const;

const interval = () => wireInt().refine((n) => (ACCELERATION_INTERVALS as readonly number[]).includes(n));
const storage = () =>
  wireInt()
    .refine((n) => n === 0 || (ACCELERATION_STORAGE_MONTHS as readonly number[]).includes(n))
    .default(0);

/** The purchase page's datalogger picker: one Wi-Fi datalogger the caller may accelerate. */
export interface AccelerationCandidate {
  pn: string;
  alias: string;
  commMethod: string;
  /** Seconds, now. */
  collectInterval: number;
  loads: number;
  /** DEVICE_STATUS: 0 online, 1 offline. */
  status: number;
}

export interface AccelerationQuote {
  pn: string;
  type: AccelerationType;
  interval: number;
  storageMonths: number;
  /** The datalogger's interval now (seconds). */
  currentInterval: number;
  /** Parameters its devices report (the price's parameter count). */
  parameters: number;
  price: AccelerationPrice;
}

/** One order on the wire (the collectionFrequencyRecord list). Amounts in minor units. */
export interface AccelerationOrderRow {
  id: number;
  orderNo: string;
  pn: string;
  alias: string;
  type: AccelerationType;
  /** The interval bought and the one the datalogger had when ordered (seconds). */
  interval: number;
  fromInterval: number;
  storageMonths: number;
  parameters: number;
  loads: number;
  amount: number;
  currency: string;
  method: RechargePaymentMethod | '';
  status: AccelerationOrderStatus;
  /** Who ordered. */
  accountUsr: string;
  providerRef: string;
  /** The interval change of a paid order ('' before payment). */
  change: AccelerationChangeStatus | '';
  /** Epoch ms; null while not reached. */
  termsAcceptedAt: number;
  createdAt: number;
  paidAt: number | null;
  appliedAt: number | null;
}

/** One interval change (a paid order's command to the datalogger). */
export interface AccelerationChangeRow {
  id: number;
  orderNo: string;
  pn: string;
  fromInterval: number;
  toInterval: number;
  status: AccelerationChangeStatus;
  /** Commands sent so far (an offline datalogger is not sent one: not counted). */
  attempts: number;
  /** Why it is still pending or was refused ('offline', 'timeout', the datalogger's error). */
  lastError: string;
  createdAt: number;
  /** When the datalogger acknowledged (epoch ms). */
  appliedAt: number | null;
  /** The interval the datalogger reported in its ack. */
  ackInterval: number | null;
}

export const queryAccelerationCandidates = defineAction({
  name: 'queryAccelerationCandidates',
  summary:
    'The Wi-Fi dataloggers the caller may accelerate (spec §9: Wi-Fi module dataloggers only), searched by PN or alias, paged. {total,page,pagesize,rows:[AccelerationCandidate]}.',
  params: actionParams({ search: z.string().trim().max(64).optional(), page: page(), pagesize: pageSize(50) }),
  access: { auth: 'signed', roles: BUYERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; rows: AccelerationCandidate[] }>(),
});

export const queryAccelerationQuote = defineAction({
  name: 'queryAccelerationQuote',
  summary:
    'The price of accelerating `pn` to `interval` seconds for `type` (and `storage` months of history). err 257 unknown or foreign PN, 11 not the caller’s to manage, 9 not a Wi-Fi datalogger, 271 already at that interval or faster, 6 storage missing for history. AccelerationQuote.',
  params: actionParams({
    pn: z.string().trim().min(1).max(32),
    type: z.enum(ACCELERATION_TYPES),
    interval: interval(),
    storage: storage(),
  }),
  access: { auth: 'signed', roles: BUYERS, permission: 'system_settings' },
  mutates: false,
  result: result<AccelerationQuote>(),
});

export const createAccelerationOrder = defineAction({
  name: 'createAccelerationOrder',
  summary:
    'Creates an unpaid acceleration order at the quoted price; pay it with payOrder {kind: "acceleration", orderNo}. `termsAccepted` must be true (err 7 otherwise: not refundable or changeable, Wi-Fi only, no validity limit). Errors as queryAccelerationQuote. {orderNo, amount, currency, status}.',
  params: actionParams({
    pn: z.string().trim().min(1).max(32),
    type: z.enum(ACCELERATION_TYPES),
    interval: interval(),
    storage: storage(),
    method: z.enum(RECHARGE_PAYMENT_METHODS).optional(),
    termsAccepted: wireBool(),
  }),
  access: { auth: 'signed', roles: BUYERS, permission: 'system_settings' },
  mutates: true,
  result: result<{ orderNo: string; amount: number; currency: string; status: AccelerationOrderStatus }>(),
});

export const queryAccelerationOrders = defineAction({
  name: 'queryAccelerationOrders',
  summary:
    'collectionFrequencyRecord: the acceleration orders of the dataloggers in the caller’s scope (an owner: its own orders), newest first, paged on the server; `search` matches order number or PN, `status` and `type` filter. {total,page,pagesize,orders:[AccelerationOrderRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    status: z.enum(ACCELERATION_ORDER_STATUSES).optional(),
    type: z.enum(ACCELERATION_TYPES).optional(),
    page: page(),
    pagesize: pageSize(50),
  }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; orders: AccelerationOrderRow[] }>(),
});

export const queryAccelerationOrder = defineAction({
  name: 'queryAccelerationOrder',
  summary:
    'One acceleration order by number (the order-result page after payment), scoped like the list; err 12 unknown or foreign. AccelerationOrderRow.',
  params: actionParams({ orderNo: z.string().trim().min(1).max(32) }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<AccelerationOrderRow>(),
});

export const queryAccelerationChanges = defineAction({
  name: 'queryAccelerationChanges',
  summary:
    'collectionFrequencyRecord: the collection-interval changes paid orders made (old → new interval, state, attempts, ack), newest first, scoped like the orders; `search` matches PN or order number, `status` filters. {total,page,pagesize,rows:[AccelerationChangeRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    status: z.enum(ACCELERATION_CHANGE_STATUSES).optional(),
    page: page(),
    pagesize: pageSize(50),
  }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; rows: AccelerationChangeRow[] }>(),
});
