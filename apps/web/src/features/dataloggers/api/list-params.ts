/**
 * The datalogger list's state in the address bar (list kit: `page`, `size`, `q` = PN or alias)
 * plus `status` (0 all, 1 online, 2 offline: the web filter of spec §3, status + 1) and `pid`
 * (one plant), and its wire parameters (webQueryCollectorsEs).
 */
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { intParam, wirePaging, type ListSpec, type PagedState } from '../../../components/list';

export const PAGE_SIZES = [10, 20, 50] as const;

/** Datalogger states a list can filter by: 0 online, 1 offline (spec §4). */
export const DATALOGGER_STATUS_FILTERS = [0, 1, 2] as const;

export interface DataloggerListState extends PagedState {
  /** 0 all, else status + 1. */
  statusFilter: number;
  /** 0: every plant. */
  pid: number;
}

export const DATALOGGER_LIST_SPEC: ListSpec<DataloggerListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters(q) {
    const status = intParam(q.get('status'), 0);
    return {
      statusFilter: (DATALOGGER_STATUS_FILTERS as readonly number[]).includes(status) ? status : 0,
      pid: intParam(q.get('pid'), 0),
    };
  },
  writeFilters(s, q) {
    if (s.statusFilter) q.set('status', String(s.statusFilter));
    if (s.pid) q.set('pid', String(s.pid));
  },
};

export type DataloggerListParams = ParamsOf<Catalogue['webQueryCollectorsEs']>;

/** Wire parameters of webQueryCollectorsEs for a list state. */
export function dataloggerListParams(s: DataloggerListState): DataloggerListParams {
  const p: DataloggerListParams = { ...wirePaging(s) };
  const search = s.search.trim();
  if (search) p.search = search;
  if (s.statusFilter) p.statusFilter = s.statusFilter;
  if (s.pid) p.pid = s.pid;
  return p;
}
