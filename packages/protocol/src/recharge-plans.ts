import type { RechargeArea, RechargeCurrency, RechargePaymentMethod } from './recharge.js';

/**
 * Issue 15: what a flow card can be recharged with (packages, prices, discounts) and when the
 * credit takes effect (spec §9 delay rules). Declared once: the server prices and renews with it,
 * the web shows the same figures. Amounts are integers in minor units. docs/money/payments.md.
 */

export interface RechargePackage {
  /** Stable id, stored on the order (`recharge_orders.package`). */
  id: string;
  area: RechargeArea;
  /** Data allowance per month, MB. */
  dataMb: number;
  /** Price of one card for one month, minor units of `currency`. */
  monthMinor: number;
  currency: RechargeCurrency;
}

/**
 * The packages by area: mainland China cards are priced in CNY, international cards in USD. A
 * datalogger reports a few MB a month; the larger packages cover 1-minute acceleration.
 */
export const RECHARGE_PACKAGES: readonly RechargePackage[] = [
  { id: 'CN-30MB', area: 'mainland', dataMb: 30, monthMinor: 500, currency: 'CNY' },
  { id: 'CN-100MB', area: 'mainland', dataMb: 100, monthMinor: 1000, currency: 'CNY' },
  { id: 'CN-500MB', area: 'mainland', dataMb: 500, monthMinor: 2500, currency: 'CNY' },
  { id: 'INT-50MB', area: 'international', dataMb: 50, monthMinor: 150, currency: 'USD' },
  { id: 'INT-100MB', area: 'international', dataMb: 100, monthMinor: 250, currency: 'USD' },
  { id: 'INT-500MB', area: 'international', dataMb: 500, monthMinor: 900, currency: 'USD' },
];

export function rechargePackage(id: string): RechargePackage | undefined {
  return RECHARGE_PACKAGES.find((p) => p.id === id);
}

export function rechargePackagesOf(area: RechargeArea): RechargePackage[] {
  return RECHARGE_PACKAGES.filter((p) => p.area === area);
}

/** Months a card can be recharged for, with the discount (percent) each earns. */
export const RECHARGE_MONTH_OPTIONS: readonly { months: number; discountPct: number }[] = [
  { months: 1, discountPct: 0 },
  { months: 3, discountPct: 0 },
  { months: 6, discountPct: 5 },
  { months: 12, discountPct: 10 },
  { months: 24, discountPct: 15 },
];
export const RECHARGE_MONTHS = RECHARGE_MONTH_OPTIONS.map((o) => o.months);

export function rechargeDiscountPct(months: number): number {
  return RECHARGE_MONTH_OPTIONS.find((o) => o.months === months)?.discountPct ?? 0;
}

/** Most cards one order may carry. */
export const RECHARGE_MAX_CARDS = 200;

export interface RechargeQuote {
  currency: RechargeCurrency;
  /** One card, one month. */
  monthMinor: number;
  cards: number;
  months: number;
  /** monthMinor × cards × months. */
  listMinor: number;
  discountPct: number;
  /** floor(list × pct / 100): the customer never pays a rounding fraction more. */
  discountMinor: number;
  /** What is charged: list − discount. */
  amountMinor: number;
}

/** The price of `cards` cards for `months` months of `pkg` (exact integers). */
export function quoteRecharge(pkg: RechargePackage, months: number, cards: number): RechargeQuote {
  const listMinor = pkg.monthMinor * months * cards;
  const discountPct = rechargeDiscountPct(months);
  const discountMinor = Math.floor((listMinor * discountPct) / 100);
  return {
    currency: pkg.currency,
    monthMinor: pkg.monthMinor,
    cards,
    months,
    listMinor,
    discountPct,
    discountMinor,
    amountMinor: listMinor - discountMinor,
  };
}

/**
 * PayPal shows the amount in RMB (spec §9; the provider decides the rate). The sandbox provider's
 * rates, CNY per unit × 10 000 (integers: 7.1000 CNY per USD → 71000).
 */
export const SANDBOX_RMB_RATES: Readonly<Record<string, number>> = { CNY: 10_000, USD: 71_000, EUR: 77_000 };

/** `amountMinor` of `currency` in fen at `rate` (CNY per unit × 10 000), rounded half up. */
export function toRmbMinor(amountMinor: number, rate: number): number {
  return Math.floor((amountMinor * rate + 5_000) / 10_000);
}

export const DAY_MS = 86_400_000;

/** The carrier's clock: mainland cards bill on China time (UTC+8), international ones on UTC. */
export function carrierOffsetMs(area: RechargeArea): number {
  return area === 'mainland' ? 8 * 3_600_000 : 0;
}

/** The delay a recharge of a card that has already lapsed (overdue/expired) takes: reactivation. */
export const OVERDUE_CARD_DELAY_DAYS = 7;

/**
 * Spec §9: a recharge is credited within 24 hours, except one paid between the 25th and the 5th
 * (the carrier's billing close) or of an overdue card: delayed 1–14 days. Deterministic:
 * - paid on the 25th … end of month, or the 1st … 5th (carrier's calendar day): the credit takes
 *   effect at 00:00 of the next 6th, i.e. `days` = whole days from that day to the 6th (1–12);
 * - a card whose expiry has passed at payment (or whose status is overdue/expired): at least
 *   OVERDUE_CARD_DELAY_DAYS (7) days;
 * - the larger of both applies; otherwise 0 (credited at once, within the 24-hour promise).
 * Returns the delay in whole days (0–14).
 */
export function rechargeDelayDays(paidAt: number, area: RechargeArea, cardLapsed: boolean): number {
  const local = new Date(paidAt + carrierOffsetMs(area));
  const day = local.getUTCDate();
  let window = 0;
  if (day >= 25 || day <= 5) {
    const y = local.getUTCFullYear();
    const m = local.getUTCMonth() + (day >= 25 ? 1 : 0);
    const sixth = Date.UTC(y, m, 6);
    const today = Date.UTC(y, local.getUTCMonth(), day);
    window = Math.round((sixth - today) / DAY_MS);
  }
  const days = Math.max(window, cardLapsed ? OVERDUE_CARD_DELAY_DAYS : 0);
  return Math.min(14, days);
}

/**
 * When the credit takes effect: `paidAt` when no delay applies, else 00:00 (carrier time) of the
 * day `days` later.
 */
export function rechargeEffectiveAt(paidAt: number, area: RechargeArea, days: number): number {
  if (days <= 0) return paidAt;
  const off = carrierOffsetMs(area);
  const local = new Date(paidAt + off);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days) - off;
}

/** `at` plus `months` calendar months (UTC), the day clamped to the target month's last day. */
export function addMonths(at: number, months: number): number {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

/**
 * A card's new expiry: the months are added to its current expiry while it is still valid when
 * the credit takes effect, else to the moment the credit takes effect (a lapsed card restarts).
 */
export function renewedExpiry(currentExpiry: number | null, effectiveAt: number, months: number): number {
  const base = currentExpiry !== null && currentExpiry > effectiveAt ? currentExpiry : effectiveAt;
  return addMonths(base, months);
}

/** Days before expiry from which a card shows `warning` (spec §4 "Flow card"). */
export const CARD_WARNING_DAYS = 30;

/**
 * A card's status code (CARD_STATUSES index of recharge.ts) from its expiry: 4 unknown without
 * expiry, 3 expired more than 30 days past, 2 overdue once past, 1 warning within 30 days, else
 * 0 normal.
 */
export function cardStatusFromExpiry(expireAt: number | null, now: number): number {
  if (expireAt === null) return 4;
  if (expireAt <= now - CARD_WARNING_DAYS * DAY_MS) return 3;
  if (expireAt <= now) return 2;
  if (expireAt <= now + CARD_WARNING_DAYS * DAY_MS) return 1;
  return 0;
}

/** Which methods each area accepts (spec §9): all three everywhere. */
export function rechargeMethodsOf(_area: RechargeArea): readonly RechargePaymentMethod[] {
  return ['card', 'paypal', 'scan'];
}

/** The area a SIM belongs to by its ICCID: 89 86 … is China (mainland), anything else international. */
export function ccidArea(ccid: string): RechargeArea | '' {
  if (!ccid) return '';
  return ccid.startsWith('8986') ? 'mainland' : 'international';
}

/** What spec §5's batch rule compares of each card. */
export interface RechargeBatchCard {
  typeCode: string;
  load: number;
  /** ccidArea of its CCID ('' without a card). */
  area: RechargeArea | '';
}

export type RechargeBatchError = '' | 'nocard' | 'type' | 'load' | 'area';

/**
 * Spec §5: a batch recharge uses cards of the same type, load count (capacity) and region/platform
 * state; each card needs a SIM (CCID) and the order's area must be the cards' area. '' = valid.
 */
export function rechargeBatchError(cards: readonly RechargeBatchCard[], area: RechargeArea): RechargeBatchError {
  if (cards.length === 0 || cards.some((c) => c.area === '')) return 'nocard';
  if (new Set(cards.map((c) => c.typeCode)).size > 1) return 'type';
  if (new Set(cards.map((c) => c.load)).size > 1) return 'load';
  if (cards.some((c) => c.area !== area)) return 'area';
  return '';
}
