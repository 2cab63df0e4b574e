/**
 * The list state of the device screens (mode, search, status filter, paging) on the list kit
 * (components/list), and the webQueryDeviceEs parameters it sends: antd paging is 1-based,
 * the wire's `page` is 0-based.
 */
import { intParam, readListState, wirePaging, writeListState, type ListSpec } from '../../../../components/list';
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

/** The device list's address bar: the kit's page/size/q plus mode, scope, status, followed, pid. */
export const DEVICE_LIST_SPEC: ListSpec<DeviceListState> = {
  defaultPageSize: DEFAULT_PAGE_SIZE,
  pageSizes: PAGE_SIZES,
  readFilters(q) {
    const mode = q.get('mode');
    const pid = intParam(q.get('pid'), 0);
    return {
      mode: LIST_MODES.includes(mode as ListMode) ? (mode as ListMode) : 'card',
      scope: q.get('scope') === 'datalogger' ? 'datalogger' : 'device',
      statusFilter: Math.min(5, intParam(q.get('status'), FILTER_ALL)),
      followed: q.get('followed') === '1',
      ...(pid ? { pid } : {}),
    };
  },
  writeFilters(s, q) {
    if (s.mode !== 'card') q.set('mode', s.mode);
    if (s.scope !== 'device') q.set('scope', s.scope);
    if (s.statusFilter !== FILTER_ALL) q.set('status', String(s.statusFilter));
    if (s.followed) q.set('followed', '1');
    if (s.pid) q.set('pid', String(s.pid));
  },
};

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
  const out: DeviceListParams = s.mode === 'map' ? { page: 0, pagesize: MAP_PAGE_SIZE } : wirePaging(s);
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

/** The state kept in the address bar (shareable, survives the way back from a detail). */
export function stateFromSearch(q: URLSearchParams): DeviceListState {
  return readListState(DEVICE_LIST_SPEC, q);
}

export function searchFromState(s: DeviceListState): URLSearchParams {
  return writeListState(DEVICE_LIST_SPEC, s);
}
