/**
 * The list state of the device screens (mode, search, status filter, paging) and the
 * webQueryDeviceEs parameters it sends: antd paging is 1-based, the wire's `page` is 0-based.
 */
import { FILTER_ALL } from '../status';

export type ListMode = 'card' | 'list' | 'map';
export const LIST_MODES: readonly ListMode[] = ['card', 'list', 'map'];
export type SearchScope = 'device' | 'datalogger';

export interface DeviceListState {
  mode: ListMode;
  /** 1-based current page (antd). */
  current: number;
  pageSize: number;
  scope: SearchScope;
  search: string;
  /** 0 all, n → status n−1. */
  statusFilter: number;
  /** Only followed devices. */
  followed: boolean;
  /** Only the devices of one plant. */
  pid?: number;
}

export const DEFAULT_PAGE_SIZE = 12;
export const PAGE_SIZES = [12, 24, 48];
/** Map mode shows every device of the current filter on one page (the wire's maximum). */
export const MAP_PAGE_SIZE = 50;

export interface DeviceListParams {
  page: number;
  pagesize: number;
  statusFilter?: number;
  search?: string;
  pn?: string;
  focus?: number;
  pid?: number;
}

export function deviceListParams(s: DeviceListState): DeviceListParams {
  const map = s.mode === 'map';
  const out: DeviceListParams = {
    page: map ? 0 : Math.max(0, s.current - 1),
    pagesize: map ? MAP_PAGE_SIZE : Math.min(50, Math.max(1, s.pageSize)),
  };
  if (s.statusFilter !== FILTER_ALL) out.statusFilter = s.statusFilter;
  const q = s.search.trim();
  if (q) {
    if (s.scope === 'datalogger') out.pn = q;
    else out.search = q;
  }
  if (s.followed) out.focus = 1;
  if (s.pid) out.pid = s.pid;
  return out;
}

function int(v: string | null, fallback: number): number {
  const n = Number(v);
  return v !== null && Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** The state kept in the address bar (shareable, survives the way back from a detail). */
export function stateFromSearch(q: URLSearchParams): DeviceListState {
  const mode = q.get('mode');
  const size = int(q.get('size'), DEFAULT_PAGE_SIZE);
  const pid = int(q.get('pid'), 0);
  return {
    mode: LIST_MODES.includes(mode as ListMode) ? (mode as ListMode) : 'card',
    current: Math.max(1, int(q.get('page'), 1)),
    pageSize: size >= 1 && size <= 50 ? size : DEFAULT_PAGE_SIZE,
    scope: q.get('scope') === 'datalogger' ? 'datalogger' : 'device',
    search: q.get('q') ?? '',
    statusFilter: Math.min(5, int(q.get('status'), FILTER_ALL)),
    followed: q.get('followed') === '1',
    ...(pid ? { pid } : {}),
  };
}

export function searchFromState(s: DeviceListState): URLSearchParams {
  const q = new URLSearchParams();
  if (s.mode !== 'card') q.set('mode', s.mode);
  if (s.current > 1) q.set('page', String(s.current));
  if (s.pageSize !== DEFAULT_PAGE_SIZE) q.set('size', String(s.pageSize));
  if (s.search.trim()) q.set('q', s.search.trim());
  if (s.scope !== 'device') q.set('scope', s.scope);
  if (s.statusFilter !== FILTER_ALL) q.set('status', String(s.statusFilter));
  if (s.followed) q.set('followed', '1');
  if (s.pid) q.set('pid', String(s.pid));
  return q;
}
