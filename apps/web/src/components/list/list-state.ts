/**
 * The list kit's state: paging, search and a list's own filters, kept in the address bar so a
 * list is shareable and survives the way back from a detail page.
 *
 * Address bar: `page` (1-based, absent on page 1), `size` (absent at the list's default), `q`
 * (the search text), then the list's own filter parameters (its `ListSpec`). Any change but
 * paging goes back to page 1.
 */

/** The state every list has; a list's state adds its own filters (flat). */
export interface PagedState {
  /** 1-based current page (antd). */
  current: number;
  pageSize: number;
  search: string;
}

/** A list's own part of the state (its filters, view mode, …). */
export type FiltersOf<S extends PagedState> = Omit<S, keyof PagedState>;

export interface ListSpec<S extends PagedState> {
  defaultPageSize: number;
  /** Page sizes offered by the pager. */
  pageSizes: readonly number[];
  /** Largest page size the wire accepts (the actions' `pagesize` ≤ 50). */
  maxPageSize?: number;
  /** Reads the list's filters from the address bar (defaults for absent or invalid values). */
  readFilters(q: URLSearchParams): FiltersOf<S>;
  /** Writes the filters that differ from their defaults. */
  writeFilters(s: S, q: URLSearchParams): void;
}

export const WIRE_MAX_PAGE_SIZE = 50;

/** A non-negative integer parameter, or the fallback. */
export function intParam(v: string | null, fallback: number): number {
  const n = Number(v);
  return v !== null && v !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function readListState<S extends PagedState>(spec: ListSpec<S>, q: URLSearchParams): S {
  const max = spec.maxPageSize ?? WIRE_MAX_PAGE_SIZE;
  const size = intParam(q.get('size'), spec.defaultPageSize);
  const paged: PagedState = {
    current: Math.max(1, intParam(q.get('page'), 1)),
    pageSize: size >= 1 && size <= max ? size : spec.defaultPageSize,
    search: q.get('q') ?? '',
  };
  return { ...spec.readFilters(q), ...paged } as S;
}

export function writeListState<S extends PagedState>(spec: ListSpec<S>, s: S): URLSearchParams {
  const q = new URLSearchParams();
  if (s.current > 1) q.set('page', String(s.current));
  if (s.pageSize !== spec.defaultPageSize) q.set('size', String(s.pageSize));
  if (s.search.trim()) q.set('q', s.search.trim());
  spec.writeFilters(s, q);
  return q;
}

/**
 * The next state after a change: any change but paging (search, a filter, the view) goes back
 * to page 1, and so does a new page size.
 */
export function nextListState<S extends PagedState>(state: S, patch: Partial<S>): S {
  const paging = 'current' in patch || 'pageSize' in patch;
  const next = { ...state, ...patch };
  if (!paging || (patch.pageSize !== undefined && patch.pageSize !== state.pageSize)) next.current = 1;
  return next;
}

/** The wire's paging: `page` is 0-based, `pagesize` within 1…max. */
export function wirePaging(s: PagedState, max = WIRE_MAX_PAGE_SIZE): { page: number; pagesize: number } {
  return { page: Math.max(0, s.current - 1), pagesize: Math.min(max, Math.max(1, s.pageSize)) };
}

/** One of `values`, or the fallback (absent or unknown). */
export function enumParam<const V extends string, F extends string = V>(
  v: string | null,
  values: readonly V[],
  fallback: F,
): V | F {
  return v !== null && (values as readonly string[]).includes(v) ? (v as V) : fallback;
}

/**
 * The filters of a list with one enum filter in the address bar: `key` holds one of `values`;
 * an absent or unknown value reads as `fallback`, which is not written.
 * Spread into a `ListSpec`: `{ defaultPageSize, pageSizes, ...enumFilter('status', STATUSES, 'all') }`.
 */
export function enumFilter<K extends string, const V extends string>(
  key: K,
  values: readonly V[],
  fallback: NoInfer<V>,
): { readFilters(q: URLSearchParams): Record<K, V>; writeFilters(s: Record<K, V>, q: URLSearchParams): void } {
  return {
    readFilters(q) {
      return { [key]: enumParam(q.get(key), values, fallback) } as Record<K, V>;
    },
    writeFilters(s, q) {
      if (s[key] !== fallback) q.set(key, s[key]);
    },
  };
}

/** The filters of a list with none of its own (paging and search only). */
export const noFilters: Pick<ListSpec<PagedState>, 'readFilters' | 'writeFilters'> = {
  readFilters: () => ({}),
  writeFilters: () => undefined,
};
