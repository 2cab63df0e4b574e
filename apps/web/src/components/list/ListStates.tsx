/**
 * The list kit's states and pager: the error notice in place of the list, the empty text,
 * the loading flags of tables and card grids, and antd pager props bound to the list state.
 */
import type { ReactNode } from 'react';
import { Alert, Empty, type PaginationProps } from 'antd';
import { apiErrorText } from '../../app/notify';
import type { PagedState } from './list-state';

/** What the kit reads of a TanStack query. */
export interface ListQueryLike {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/** The error notice in place of the list, or the list. */
export function ListStates({ query, errorTitle, children }: { query: Pick<ListQueryLike, 'isError' | 'error'>; errorTitle: string; children: ReactNode }) {
  if (query.isError) {
    return <Alert type="error" showIcon data-testid="list-error" message={errorTitle} description={apiErrorText(query.error)} />;
  }
  return <>{children}</>;
}

/** antd `locale` of a Table or List: the empty text. */
export function emptyLocale(description: string) {
  return { emptyText: <Empty description={description} /> };
}

/** A table shows its spinner over the rows on every fetch. */
export function tableLoading(q: ListQueryLike): boolean {
  return q.isFetching;
}

/** A card grid spins on the first load and while another page replaces the shown one. */
export function gridLoading(q: ListQueryLike): boolean {
  return q.isPending || (q.isFetching && q.isPlaceholderData);
}

/** Pager props bound to the list state: a new page size goes back to page 1. */
export function listPagination<S extends PagedState>(
  state: S,
  total: number,
  update: (patch: Partial<S>) => void,
  opts: { pageSizes: readonly number[]; showTotal: (n: number) => string },
): PaginationProps {
  return {
    current: state.current,
    pageSize: state.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: [...opts.pageSizes],
    showTotal: (n: number) => opts.showTotal(n),
    onChange: (current: number, pageSize: number) =>
      update({ current: pageSize !== state.pageSize ? 1 : current, pageSize: pageSize || state.pageSize } as Partial<S>),
  };
}
