/**
 * What the recharge pages share (the operator's rechargeRemedy, the rechargeRecord of owners,
 * distributors and manufacturers): the list's address-bar state and wire parameters, money in
 * minor units shown in the order's currency, and the tag colours of order and card states.
 */
import {
  RECHARGE_AREAS,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  currencyMinorDigits,
  minorToDecimal,
  type CardStatus,
  type RechargeArea,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import type { ListSpec, PagedState } from '../../../components/list';

export interface RechargeListState extends PagedState {
  status: RechargeOrderStatus | '';
  area: RechargeArea | '';
  method: RechargePaymentMethod | '';
  /** Creation day range, `YYYY-MM-DD` (local days), '' = open. */
  from: string;
  to: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(list: readonly T[], v: string | null): T | '' =>
  v !== null && (list as readonly string[]).includes(v) ? (v as T) : '';

export const RECHARGE_PAGE_SIZES = [10, 20, 50] as const;

export const RECHARGE_LIST_SPEC: ListSpec<RechargeListState> = {
  defaultPageSize: 10,
  pageSizes: RECHARGE_PAGE_SIZES,
  readFilters: (q) => ({
    status: oneOf(RECHARGE_ORDER_STATUSES, q.get('status')),
    area: oneOf(RECHARGE_AREAS, q.get('area')),
    method: oneOf(RECHARGE_PAYMENT_METHODS, q.get('method')),
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

/** An amount in minor units as money of its currency (`12000`, CNY → `CN¥120.00`), exact digits. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = currencyMinorDigits(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(Number(minorToDecimal(minor, currency)));
  } catch {
    return `${minorToDecimal(minor, currency)} ${currency}`;
  }
}

/** Tag colours of the order states. */
export const STATUS_COLORS: Record<RechargeOrderStatus, string> = {
  unpaid: 'default',
  paid: 'blue',
  recharging: 'processing',
  success: 'success',
  failed: 'error',
  overdue: 'warning',
  expired: 'default',
};

/** Tag colours of the flow-card statuses. */
export const CARD_COLORS: Record<CardStatus, string> = {
  normal: 'success',
  warning: 'warning',
  overdue: 'orange',
  expired: 'error',
  unknown: 'default',
};
