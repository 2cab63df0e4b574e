/**
 * The rechargeRemedy page's model (issue 14): the list's address-bar state, its wire parameters,
 * money in minor units shown in the order's currency, and the remedy form's checks. The states an
 * order may move to come from the protocol's one table (RECHARGE_TRANSITIONS).
 */
import {
  RECHARGE_AREAS,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  RECHARGE_REASON_MAX,
  RECHARGE_REASON_MIN,
  currencyMinorDigits,
  minorToDecimal,
  rechargeTargets,
  type RechargeArea,
  type RechargeOrderStatus,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import type { ListSpec, PagedState } from '../../components/list';

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

/** The list's wire parameters: the range covers whole local days (`to` up to its last millisecond). */
export function rechargeListParams(s: RechargeListState) {
  return {
    page: Math.max(0, s.current - 1),
    pagesize: s.pageSize,
    ...(s.search.trim() ? { search: s.search.trim() } : {}),
    ...(s.status ? { status: s.status } : {}),
    ...(s.area ? { area: s.area } : {}),
    ...(s.method ? { method: s.method } : {}),
    ...(s.from ? { start: dayStart(s.from) } : {}),
    ...(s.to ? { end: dayStart(s.to) + 86_400_000 - 1 } : {}),
  };
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

/** The states the remedy dialog offers for an order in `status` (none: no remedy possible). */
export function remedyOptions(status: RechargeOrderStatus): readonly RechargeOrderStatus[] {
  return rechargeTargets(status);
}

/** The remedy form's error (a key of this page's texts), or undefined when it may be sent. */
export function remedyFormError(
  v: { status?: RechargeOrderStatus | undefined; reason: string },
  from: RechargeOrderStatus,
) {
  if (!v.status || !rechargeTargets(from).includes(v.status)) return 'remedy.pickStatus';
  const reason = v.reason.trim();
  if (reason.length === 0) return 'remedy.reasonRequired';
  if (reason.length < RECHARGE_REASON_MIN || reason.length > RECHARGE_REASON_MAX) return 'remedy.reasonLength';
  return undefined;
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
