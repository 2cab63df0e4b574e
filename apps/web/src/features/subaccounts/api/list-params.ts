/**
 * The viewer list on the list kit (components/list): page, size and `q` (the username, fuzzy) in
 * the address bar; no filters of its own.
 */
import { wirePaging, type ListSpec, type PagedState } from '../../../components/list';

export type ViewerListState = PagedState;

export const VIEWER_PAGE_SIZES = [10, 20, 50];

export const VIEWER_LIST_SPEC: ListSpec<ViewerListState> = {
  defaultPageSize: 10,
  pageSizes: VIEWER_PAGE_SIZES,
  readFilters: () => ({}),
  writeFilters: () => undefined,
};

export interface ViewerListParams {
  page: number;
  pagesize: number;
  usr?: string;
}

/** queryPlantBrowsers parameters of a list state. */
export function viewerListParams(s: ViewerListState): ViewerListParams {
  const usr = s.search.trim();
  return { ...wirePaging(s), ...(usr ? { usr } : {}) };
}
