/**
 * Mobile-data (flow card) recharge orders: the vocabulary of spec §3 "Recharge order", §4
 * "Recharge" and "Flow card", §9 (areas, payment methods), declared once for the server, the web
 * and issue 15 (which builds checkout, payment and card renewal on it). Issue 14's rechargeRemedy
 * (docs/operator/recharge-remedy.md) is the first user: an operator corrects an order's state by
 * hand, within RECHARGE_TRANSITIONS.
 */

/**
 * Order states (spec §4 "Recharge": unpaid, paid, recharging, success, failed; also overdue,
 * expired):
 * - `unpaid`: created, awaiting payment;
 * - `paid`: the payment is confirmed, the recharge not yet submitted to the carrier;
 * - `recharging`: submitted; the credit arrives within 24 hours (or 1–14 days later, spec §9);
 * - `success`: credited, the cards renewed (terminal);
 * - `failed`: the payment or the carrier's recharge failed;
 * - `overdue`: paid, but the credit has not arrived within its promised window: needs a person;
 * - `expired`: never paid within the payment window; the order lapsed.
 */
export const RECHARGE_ORDER_STATUSES = [
  'unpaid',
  'paid',
  'recharging',
  'success',
  'failed',
  'overdue',
  'expired',
] as const;
export type RechargeOrderStatus = (typeof RECHARGE_ORDER_STATUSES)[number];

/**
 * THE state machine of a recharge order: from each state, the states it may move to, whether the
 * move is made by the payment flow (issue 15) or by an operator's remedy (issue 14). The server
 * refuses any other move (err 8); the web offers only these targets. `success` is terminal: a
 * credited order cannot be undone here (the cards' new expiry would have to be taken back).
 */
export const RECHARGE_TRANSITIONS: Readonly<Record<RechargeOrderStatus, readonly RechargeOrderStatus[]>> = {
  // A payment confirmed by hand (the provider's callback was lost), a lapsed or failed payment.
  unpaid: ['paid', 'failed', 'expired'],
  // Submitted to the carrier, credited by hand, refused by the carrier, or its window passed.
  paid: ['recharging', 'success', 'failed', 'overdue'],
  recharging: ['success', 'failed', 'overdue'],
  success: [],
  // Retried (the payment stands) or found credited after all.
  failed: ['recharging', 'success'],
  // Resubmitted, found credited, or given up.
  overdue: ['recharging', 'success', 'failed'],
  // A late payment arrived after the order lapsed (spec §9 "late callbacks" of issue 15).
  expired: ['paid'],
};

/** Whether an order may move from `from` to `to` (RECHARGE_TRANSITIONS). */
export function canMoveRechargeOrder(from: RechargeOrderStatus, to: RechargeOrderStatus): boolean {
  return RECHARGE_TRANSITIONS[from].includes(to);
}

/** The states an order in `from` may be moved to (none for `success`). */
export function rechargeTargets(from: RechargeOrderStatus): readonly RechargeOrderStatus[] {
  return RECHARGE_TRANSITIONS[from];
}

/** States after which nothing more happens by itself (finished_at is set on entering them). */
export const RECHARGE_FINISHED_STATUSES: readonly RechargeOrderStatus[] = ['success', 'failed', 'expired'];

export function isRechargeOrderStatus(s: string): s is RechargeOrderStatus {
  return (RECHARGE_ORDER_STATUSES as readonly string[]).includes(s);
}

/** Payment methods (spec §9): bank card, PayPal (amount shown in RMB), a chat-app QR scan. */
export const RECHARGE_PAYMENT_METHODS = ['card', 'paypal', 'scan'] as const;
export type RechargePaymentMethod = (typeof RECHARGE_PAYMENT_METHODS)[number];

/** Service areas (spec §9): mainland China or international; a batch keeps to one area (spec §5). */
export const RECHARGE_AREAS = ['mainland', 'international'] as const;
export type RechargeArea = (typeof RECHARGE_AREAS)[number];

/**
 * Flow-card statuses (spec §4 "Flow card"), in the order of `dataloggers.card_status` (an
 * integer: 0 normal … 4 unknown, the column's default).
 */
export const CARD_STATUSES = ['normal', 'warning', 'overdue', 'expired', 'unknown'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** The name of a `dataloggers.card_status` value (unknown for anything out of range). */
export function cardStatusName(code: number): CardStatus {
  return CARD_STATUSES[code] ?? 'unknown';
}

/** Currencies a recharge order may be priced in (ISO 4217). */
export const RECHARGE_CURRENCIES = ['CNY', 'USD', 'EUR'] as const;
export type RechargeCurrency = (typeof RECHARGE_CURRENCIES)[number];

/**
 * Digits of a currency's minor unit: amounts are integers in minor units (fen, cents), never
 * floating point. 2 for the currencies above; ISO 4217's exceptions listed for the day one is added.
 */
export function currencyMinorDigits(currency: string): number {
  if (['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX'].includes(currency)) return 0;
  if (['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD'].includes(currency)) return 3;
  return 2;
}

/** A minor-unit amount as a decimal string (`12345`, CNY → `123.45`), exact (no float). */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = currencyMinorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(Math.trunc(minor)));
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** Longest remedy reason (characters); at least RECHARGE_REASON_MIN after trimming. */
export const RECHARGE_REASON_MAX = 500;
export const RECHARGE_REASON_MIN = 2;

/**
 * What happens to an order item's card once its order succeeds: `none` before, `pending` once
 * the order is `success` and the renewal is due (recorded by the server today), `applied` once
 * issue 15's renewal has extended the card's expiry.
 */
export const RECHARGE_CREDIT_STATES = ['none', 'pending', 'applied'] as const;
export type RechargeCreditState = (typeof RECHARGE_CREDIT_STATES)[number];

/** How many PNs an order's list row carries (`RechargeOrderRow.pns`). */
export const RECHARGE_ROW_PNS = 3;
