/**
 * The protocol tools' paged table: a server-paged list with the kit's error notice, empty text,
 * spinner and phone layout, as every table of these pages shows it.
 */
import { Table, type PaginationProps, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListStates, emptyLocale, responsiveTable, tableLoading, type ListQueryLike } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';

export function ToolTable<T extends object>({
  query,
  rowKey,
  columns,
  pagination,
}: {
  query: ListQueryLike & { data?: { rows: T[]; total: number } | undefined };
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  /** The pager props for the list's total. */
  pagination: (total: number) => PaginationProps;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  return (
    <ListStates query={query} errorTitle={t('protocolTools:loadFailed')}>
      <Table<T>
        size="small"
        rowKey={rowKey}
        loading={tableLoading(query)}
        dataSource={query.data?.rows ?? []}
        locale={emptyLocale(t('protocolTools:empty'))}
        pagination={pagination(query.data?.total ?? 0)}
        {...responsiveTable(columns, phone)}
      />
    </ListStates>
  );
}
