/**
 * The rechargePay page's model (issue 15, docs/money/flow-cards.md): the flow-card list's
 * address-bar state and wire parameters, the batch rule of the selection (protocol
 * checkRechargeBatch, spec §5), sizes and the validity bar's geometry. No React here.
 */
import {
  CARD_STATUSES,
  NETWORK_TYPES,
  SUNSET_NETWORKS,
  cardPlatformState,
  cardUsedPct,
  cardValidityElapsed,
  checkRechargeBatch,
  type CardStatus,
  type GprsCollectorRow,
  type NetworkType,
  type RechargeBatchProblem,
  type RechargeCard,
} from '@sunwatch/protocol';
import { enumParam, intParam, type ListSpec, type PagedState } from '../../components/list';

export interface FlowCardListState extends PagedState {
  status: CardStatus | '';
  network: NetworkType | '';
  /** Load count filter ('' = any). */
  load: string;
}

export const FLOW_CARD_PAGE_SIZES = [10, 20, 50] as const;

export const FLOW_CARD_LIST_SPEC: ListSpec<FlowCardListState> = {
  defaultPageSize: 10,
  pageSizes: FLOW_CARD_PAGE_SIZES,
  readFilters: (q) => {
    const load = intParam(q.get('load'), -1);
    return {
      status: enumParam(q.get('status'), CARD_STATUSES, ''),
      network: enumParam(q.get('network'), NETWORK_TYPES, ''),
      load: load >= 0 ? String(load) : '',
    };
  },
  writeFilters(s, q) {
    if (s.status) q.set('status', s.status);
    if (s.network) q.set('network', s.network);
    if (s.load !== '') q.set('load', s.load);
  },
};

/** queryGprsCollector's parameters for the list (always with the per-status counts). */
export function flowCardListParams(s: FlowCardListState) {
  return {
    page: Math.max(0, s.current - 1),
    pagesize: s.pageSize,
    stat: true,
    ...(s.search.trim() ? { search: s.search.trim() } : {}),
    ...(s.status ? { cardStatus: s.status } : {}),
    ...(s.network ? { network: s.network } : {}),
    ...(s.load !== '' ? { load: Number(s.load) } : {}),
  };
}

export const CARD_STATUS_COLORS: Record<CardStatus, string> = {
  normal: 'green',
  warning: 'orange',
  overdue: 'volcano',
  expired: 'red',
  unknown: 'default',
};

/** The bar colour of a validity or usage bar (antd token names avoided: plain colours). */
export const CARD_BAR_COLORS: Record<CardStatus, string> = {
  normal: '#52c41a',
  warning: '#faad14',
  overdue: '#fa541c',
  expired: '#f5222d',
  unknown: '#bfbfbf',
};

/** What the batch rule needs of a listed card. */
export function rechargeCardOf(r: GprsCollectorRow): RechargeCard {
  return {
    pn: r.pn,
    ccid: r.gprs.ccid,
    cardType: r.gprs.cardType,
    load: r.load,
    area: r.gprs.area,
    status: r.gprs.status,
  };
}

/** Why a single card cannot be picked at all ('' when it can): no CCID, or not rechargeable. */
export function unselectableReason(r: GprsCollectorRow): '' | 'no_ccid' | 'not_rechargeable' {
  if (r.gprs.ccid.trim() === '') return 'no_ccid';
  if (cardPlatformState(r.gprs.status) === null) return 'not_rechargeable';
  return '';
}

/** The selection's problem (null: it may be recharged together); none for an empty selection. */
export function selectionProblem(selected: readonly GprsCollectorRow[]): RechargeBatchProblem | null {
  if (selected.length === 0) return null;
  return checkRechargeBatch(selected.map(rechargeCardOf));
}

/**
 * Whether a card would break the rule if added to the selection (greyed out in the list, with
 * the reason): the first selected card sets type, load count, area and state.
 */
export function conflictWith(selected: readonly GprsCollectorRow[], r: GprsCollectorRow): RechargeBatchProblem | null {
  if (selected.some((s) => s.pn === r.pn)) return null;
  return selectionProblem([...selected, r]);
}

export function isSunsetNetwork(network: string): boolean {
  return (SUNSET_NETWORKS as readonly string[]).includes(network);
}

/** KB as a short size: `512 KB`, `12.3 MB`, `1.5 GB` (one decimal under 100, none above). */
export function formatKb(kb: number, locale: string): string {
  const units: Array<[string, number]> = [
    ['GB', 1024 * 1024],
    ['MB', 1024],
  ];
  for (const [unit, size] of units) {
    if (kb >= size) {
      const v = kb / size;
      return `${new Intl.NumberFormat(locale, { maximumFractionDigits: v < 100 ? 1 : 0 }).format(v)} ${unit}`;
    }
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(0, kb))} KB`;
}

/** The usage bar: percent (capped at 100 for the bar) and whether it is at the warning level. */
export function usageBar(usedKb: number, limitKb: number): { pct: number | null; bar: number } {
  const pct = cardUsedPct(usedKb, limitKb);
  return { pct, bar: pct === null ? 0 : Math.min(100, pct) };
}

/** Days from `now` to `at` (negative when past), rounded toward zero. */
export function daysUntil(at: number, now: number): number {
  return Math.trunc((at - now) / 86_400_000);
}

/** The validity bar: the share elapsed (0..1, the today marker) or null when unknown. */
export function validityShare(row: GprsCollectorRow, now: number): number | null {
  const { activatedAt, expireAt } = row.gprs;
  return cardValidityElapsed(activatedAt || null, expireAt || null, now);
}
