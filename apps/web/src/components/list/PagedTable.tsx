/**
 * The kit's paged table: a server-paged list with the kit's error notice (in place of the table),
 * empty text, spinner on every fetch, pager bound to the list state and phone layout — the block
 * every operator and protocol list page shows.
 */
import type { HTMLAttributes } from 'react';
import { Table, type PaginationProps, type TableColumnsType, type TableProps } from 'antd';
import { useIsPhone } from '../responsive';
import { ListStates, emptyLocale, listPagination, tableLoading, type ListQueryLike } from './ListStates';
import type { PagedState } from './list-state';
import { responsiveTable } from './phone-table';

/** Attributes of a table row: the DOM ones and `data-*`. */
export type RowAttributes = HTMLAttributes<HTMLElement> & { [data: `data-${string}`]: string | number | undefined };

/** The pager of a list bound to its state (see `listPagination`). */
export interface ListPager<S extends PagedState = PagedState> {
  state: S;
  update: (patch: Partial<S>) => void;
  pageSizes: readonly number[];
  showTotal: (n: number) => string;
  /** antd's small pager. */
  small?: boolean;
}

export interface PagedTableProps<T extends object, S extends PagedState = PagedState> extends Omit<
  TableProps<T>,
  'columns' | 'dataSource' | 'loading' | 'locale' | 'pagination' | 'scroll' | 'onRow' | 'rowKey'
> {
  query: ListQueryLike;
  /** The shown page's rows (none while loading or on error). */
  rows: readonly T[] | undefined;
  /** The list's total, for the pager. */
  total: number | undefined;
  rowKey: TableProps<T>['rowKey'];
  columns: TableColumnsType<T>;
  pager: ListPager<S>;
  /** The error notice's title, translated by the caller. */
  errorTitle: string;
  /** The empty text, translated by the caller. */
  emptyText: string;
  /** Attributes of each row (`data-testid`, `data-id`, a click…). */
  onRow?: (row: T, index?: number) => RowAttributes;
  /** Columns pinned at the left on a phone. */
  pinned?: number;
  'data-testid'?: string;
}

export function PagedTable<T extends object, S extends PagedState = PagedState>({
  query,
  rows,
  total,
  rowKey,
  columns,
  pager,
  errorTitle,
  emptyText,
  onRow,
  pinned,
  size = 'small',
  ...rest
}: PagedTableProps<T, S>) {
  const phone = useIsPhone();
  const { state, update, pageSizes, showTotal, small } = pager;
  const pagination: PaginationProps = listPagination(state, total ?? 0, update, { pageSizes, showTotal });
  return (
    <ListStates query={query} errorTitle={errorTitle}>
      <Table<T>
        {...rest}
        size={size}
        rowKey={rowKey}
        dataSource={rows ?? []}
        loading={tableLoading(query)}
        locale={emptyLocale(emptyText)}
        onRow={onRow ? (r, i) => onRow(r, i) as HTMLAttributes<HTMLElement> : undefined}
        pagination={small ? { ...pagination, size: 'small' } : pagination}
        {...responsiveTable(columns, phone, pinned)}
      />
    </ListStates>
  );
}
