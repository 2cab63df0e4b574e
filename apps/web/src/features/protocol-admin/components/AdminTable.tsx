/**
 * The protocol pages' paged table: a server-paged list with the kit's error notice, empty text,
 * spinner and phone layout.
 */
import type { HTMLAttributes } from 'react';
import { Table, type PaginationProps, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListStates, emptyLocale, responsiveTable, tableLoading, type ListQueryLike } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';

export function AdminTable<T extends object>({
  query,
  rows,
  total,
  rowKey,
  columns,
  pagination,
  testId,
}: {
  query: ListQueryLike;
  rows: T[] | undefined;
  total: number | undefined;
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  /** The pager props for the list's total. */
  pagination: (total: number) => PaginationProps;
  /** `data-testid` of each row. */
  testId: string;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  return (
    <ListStates query={query} errorTitle={t('protocolAdmin:loadFailed')}>
      <Table<T>
        size="small"
        rowKey={rowKey}
        loading={tableLoading(query)}
        dataSource={rows ?? []}
        locale={emptyLocale(t('protocolAdmin:empty'))}
        pagination={pagination(total ?? 0)}
        onRow={() => ({ 'data-testid': testId }) as HTMLAttributes<HTMLElement>}
        {...responsiveTable(columns, phone)}
      />
    </ListStates>
  );
}
