/**
 * What the money pages share (the operator's rechargeRemedy, the rechargeRecord of owners,
 * distributors and manufacturers, the acceleration pages, the checkout): the recharge list's
 * address-bar state and wire parameters, money in minor units shown in the order's currency, times,
 * and the tag colours (tones) of order, card, renewal and acceleration states. No React, no antd.
 */
import {
  RECHARGE_AREAS,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  currencyMinorDigits,
  minorToDecimal,
  type AccelerationChangeStatus,
  type AccelerationOrderStatus,
  type CardStatus,
  type RechargeArea,
  type RechargeCreditState,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
// list-state directly: no antd behind the kit's barrel for the light pages that format money.
import { enumParam, type ListSpec, type PagedState } from '../../../components/list/list-state';

export interface RechargeListState extends PagedState {
  status: RechargeOrderStatus | '';
  area: RechargeArea | '';
  method: RechargePaymentMethod | '';
  /** Creation day range, `YYYY-MM-DD` (local days), '' = open. */
  from: string;
  to: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export const RECHARGE_PAGE_SIZES = [10, 20, 50] as const;

export const RECHARGE_LIST_SPEC: ListSpec<RechargeListState> = {
  defaultPageSize: 10,
  pageSizes: RECHARGE_PAGE_SIZES,
  readFilters: (q) => ({
    status: enumParam(q.get('status'), RECHARGE_ORDER_STATUSES, ''),
    area: enumParam(q.get('area'), RECHARGE_AREAS, ''),
    method: enumParam(q.get('method'), RECHARGE_PAYMENT_METHODS, ''),
    from: DAY_RE.test(q.get('from') ?? '') ? q.get('from')! : '',
    to: DAY_RE.test(q.get('to') ?? '') ? q.get('to')! : '',
  }),
  writeFilters(s, q) {
    if (s.status) q.set('status', s.status);
    if (s.area) q.set('area', s.area);
    if (s.method) q.set('method', s.method);
    if (s.from) q.set('from', s.from);
    if (s.to) q.set('to', s.to);
  },
};

/** Local midnight of a `YYYY-MM-DD` day (epoch ms). */
function dayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** The filters on the wire (no paging): the range covers whole local days (`to` up to its last millisecond). */
export function rechargeFilterParams(s: RechargeListState) {
  return {
    ...(s.search.trim() ? { search: s.search.trim() } : {}),
    ...(s.status ? { status: s.status } : {}),
    ...(s.area ? { area: s.area } : {}),
    ...(s.method ? { method: s.method } : {}),
    ...(s.from ? { start: dayStart(s.from) } : {}),
    ...(s.to ? { end: dayStart(s.to) + 86_400_000 - 1 } : {}),
  };
}

/** The list's wire parameters: the page and the filters. */
export function rechargeListParams(s: RechargeListState) {
  return { page: Math.max(0, s.current - 1), pagesize: s.pageSize, ...rechargeFilterParams(s) };
}

/**
 * An amount in minor units as money of its currency (`12000`, CNY → `CN¥120.00`), exact digits.
 * `locale`: a BCP 47 tag; the app's own form (`en_US`) is taken too.
 */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = currencyMinorDigits(currency);
  try {
    return new Intl.NumberFormat(locale.replace('_', '-'), {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(Number(minorToDecimal(minor, currency)));
  } catch {
    return `${minorToDecimal(minor, currency)} ${currency}`;
  }
}

/** A moment as a short date and time of the locale (`—` for null: not reached). */
export function formatDateTime(ms: number | null, locale: string): string {
  return ms === null
    ? '—'
    : new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
}

/** A tone of a state: an antd Tag `color` (a preset status or colour name). */
export type Tone = string;

/** Tag colours of the order states. */
export const STATUS_COLORS: Record<RechargeOrderStatus, Tone> = {
  unpaid: 'default',
  paid: 'blue',
  recharging: 'processing',
  success: 'success',
  failed: 'error',
  overdue: 'warning',
  expired: 'default',
};

/** Tag colours of the flow-card statuses. */
export const CARD_COLORS: Record<CardStatus, Tone> = {
  normal: 'success',
  warning: 'warning',
  overdue: 'orange',
  expired: 'error',
  unknown: 'default',
};

/** Tag colours of a card's renewal after its order (none: no tag). */
export const CREDIT_COLORS: Record<RechargeCreditState, Tone> = {
  none: 'default',
  pending: 'processing',
  applied: 'success',
};

/** Tag colours of the acceleration order states (paid is final there: success). */
export const ACCELERATION_ORDER_COLORS: Record<AccelerationOrderStatus, Tone> = {
  unpaid: 'default',
  paid: 'success',
  failed: 'error',
  expired: 'default',
};

/** Tag colours of the acceleration interval changes. */
export const ACCELERATION_CHANGE_COLORS: Record<AccelerationChangeStatus, Tone> = {
  pending: 'processing',
  applied: 'success',
  refused: 'error',
};
