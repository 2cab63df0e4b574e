/**
 * The projects list state on the list kit (components/list): the kit's page/size/q plus the
 * view (`view=map`) and the status filter (`status`, 0 all, n → status n−1) in the address bar.
 */
import { intParam, readListState, wirePaging, writeListState, type ListSpec } from '../../../components/list';
import type { PlantListParams } from '../../shared/plants/api/queries';
import { FILTER_ALL, filterToStatus } from '../../shared/devices/status';

export type ProjectsView = 'list' | 'map';

export interface ProjectsListState {
  view: ProjectsView;
  current: number;
  pageSize: number;
  /** Plant name. */
  search: string;
  statusFilter: number;
}

export const PROJECTS_PAGE_SIZES = [10, 20, 50];

export const PROJECTS_LIST_SPEC: ListSpec<ProjectsListState> = {
  defaultPageSize: 10,
  pageSizes: PROJECTS_PAGE_SIZES,
  readFilters: (q) => ({
    view: q.get('view') === 'map' ? 'map' : 'list',
    statusFilter: Math.min(5, intParam(q.get('status'), FILTER_ALL)),
  }),
  writeFilters(s, q) {
    if (s.view !== 'list') q.set('view', s.view);
    if (s.statusFilter !== FILTER_ALL) q.set('status', String(s.statusFilter));
  },
};

/** webQueryPlants parameters of the list view. */
export function plantListParams(s: ProjectsListState): PlantListParams {
  const plantName = s.search.trim();
  return {
    ...wirePaging(s),
    ...(plantName ? { plantName } : {}),
    ...(s.statusFilter !== FILTER_ALL ? { statusFilter: s.statusFilter } : {}),
  };
}

/** webQueryPlantsMap parameters of the map view (status unshifted). */
export function plantMapParams(s: ProjectsListState): { plantName?: string; status?: number } {
  const plantName = s.search.trim();
  const status = filterToStatus(s.statusFilter);
  return { ...(plantName ? { plantName } : {}), ...(status !== undefined ? { status } : {}) };
}

export const projectsStateFromSearch = (q: URLSearchParams) => readListState(PROJECTS_LIST_SPEC, q);
export const searchFromProjectsState = (s: ProjectsListState) => writeListState(PROJECTS_LIST_SPEC, s);
