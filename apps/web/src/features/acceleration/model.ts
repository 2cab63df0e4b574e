/**
 * The acceleration pages' model (issue 15; docs/money/acceleration.md): the record page's two
 * lists in the address bar (orders, interval changes), their wire parameters, money in minor units,
 * the purchase form's rules (which intervals are on offer for a datalogger, storage only for
 * history data) and the return path after the checkout.
 */
import {
  ACCELERATION_CHANGE_STATUSES,
  ACCELERATION_INTERVALS,
  ACCELERATION_ORDER_STATUSES,
  ACCELERATION_TYPES,
  type AccelerationChangeStatus,
  type AccelerationOrderStatus,
  type AccelerationType,
} from '@sunwatch/protocol';
import { enumParam, wirePaging, type ListSpec, type PagedState } from '../../components/list';

// Money and the tag colours (tones) are the money pages' (features/shared/recharge/format.ts).
export {
  ACCELERATION_CHANGE_COLORS as CHANGE_COLORS,
  ACCELERATION_ORDER_COLORS as ORDER_COLORS,
  formatMoney,
} from '../shared/recharge/format';

export const RECORD_VIEWS = ['orders', 'changes'] as const;
export type RecordView = (typeof RECORD_VIEWS)[number];

export interface RecordListState extends PagedState {
  view: RecordView;
  status: AccelerationOrderStatus | '';
  change: AccelerationChangeStatus | '';
  type: AccelerationType | '';
}

export const RECORD_PAGE_SIZES = [10, 20, 50] as const;

export const RECORD_LIST_SPEC: ListSpec<RecordListState> = {
  defaultPageSize: 10,
  pageSizes: RECORD_PAGE_SIZES,
  readFilters: (q) => ({
    view: enumParam(q.get('view'), RECORD_VIEWS, 'orders'),
    status: enumParam(q.get('status'), ACCELERATION_ORDER_STATUSES, ''),
    change: enumParam(q.get('change'), ACCELERATION_CHANGE_STATUSES, ''),
    type: enumParam(q.get('type'), ACCELERATION_TYPES, ''),
  }),
  writeFilters(s, q) {
    if (s.view !== 'orders') q.set('view', s.view);
    if (s.view === 'orders' && s.status) q.set('status', s.status);
    if (s.view === 'orders' && s.type) q.set('type', s.type);
    if (s.view === 'changes' && s.change) q.set('change', s.change);
  },
};

const searchOf = (s: PagedState) => (s.search.trim() ? { search: s.search.trim() } : {});

/** queryAccelerationOrders parameters of the state. */
export function orderListParams(s: RecordListState) {
  return {
    ...wirePaging(s),
    ...searchOf(s),
    ...(s.status ? { status: s.status } : {}),
    ...(s.type ? { type: s.type } : {}),
  };
}

/** queryAccelerationChanges parameters of the state. */
export function changeListParams(s: RecordListState) {
  return { ...wirePaging(s), ...searchOf(s), ...(s.change ? { status: s.change } : {}) };
}

/** The intervals on offer for a datalogger that reports every `current` seconds (only faster ones). */
export function offeredIntervals(current: number | undefined): number[] {
  return ACCELERATION_INTERVALS.filter((i) => current === undefined || i < current);
}

/** The quote's parameters, or undefined while the form is incomplete. */
export function quoteParams(v: {
  pn?: string | undefined;
  type: AccelerationType;
  interval?: number | undefined;
  storage?: number | undefined;
}): { pn: string; type: AccelerationType; interval: number; storage: number } | undefined {
  if (!v.pn || v.interval === undefined) return undefined;
  if (v.type === 'history' && !v.storage) return undefined;
  return { pn: v.pn, type: v.type, interval: v.interval, storage: v.type === 'history' ? v.storage! : 0 };
}

/** Where the checkout comes back to: the record page (the buy page's parent) showing the order. */
export function returnPathOf(buyPath: string, orderNo: string): string {
  const base = buyPath.replace(/\/buy\/?$/, '');
  return `${base}?order=${encodeURIComponent(orderNo)}`;
}
