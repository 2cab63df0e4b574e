/** The list kit shared by every list screen (see docs/ARCHITECTURE.md, "Web: the list kit"). */
export * from './list-state';
export { useListState, type ListStateOptions } from './use-list-state';
export { usePagedQuery } from './use-paged-query';
export { ListStates, emptyLocale, gridLoading, listPagination, tableLoading, type ListQueryLike } from './ListStates';
export { PagedTable, type ListPager, type PagedTableProps, type RowAttributes } from './PagedTable';
export { pinLeading, responsiveTable } from './phone-table';
