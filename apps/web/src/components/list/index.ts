/** The list kit shared by every list screen (see docs/ARCHITECTURE.md, "Web: the list kit"). */
/* PagedTable (antd Table) is imported from './PagedTable' directly: re-exported here it would pull antd's
   table into every screen that uses the kit (the general home's first load grew by 46 KB). */
export * from './list-state';
export { useListState, type ListStateOptions } from './use-list-state';
export { usePagedQuery } from './use-paged-query';
export { ListStates, emptyLocale, gridLoading, listPagination, tableLoading, type ListQueryLike } from './ListStates';
export { pinLeading, responsiveTable } from './phone-table';
