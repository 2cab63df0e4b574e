/** List mode of the device browser (antd Table), loaded only when chosen: card mode is the default. */
import { Table, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { emptyLocale, responsiveTable } from '../../../../components/list';
import { currentLocale } from '../../../../i18n';
import { formatMoney } from '../../charts/format';
import { generates } from '../figures';
import type { DeviceRow } from './DeviceBrowser';
import { DeviceFigures } from './DeviceFigures';
import { FollowStar } from './FollowStar';
import { StatusTag } from './StatusTag';

export default function DeviceTable({
  rows,
  detail,
  loading,
  pagination,
  phone,
}: {
  rows: DeviceRow[];
  detail: (d: DeviceRow) => string;
  loading: boolean;
  pagination: TablePaginationConfig;
  phone: boolean;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const name = (d: DeviceRow) => d.devalias || d.sn;
  const columns: TableColumnsType<DeviceRow> = [
    {
      key: 'focus',
      width: 48,
      render: (_, d) => <FollowStar device={d} followed={d.focus} />,
    },
    {
      title: t('devices:field.name'),
      key: 'name',
      render: (_, d) => <Link to={detail(d)}>{name(d)}</Link>,
    },
    { title: t('devices:field.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('devices:field.pn'), dataIndex: 'pn', key: 'pn', responsive: ['md'] },
    { title: t('devices:field.plant'), dataIndex: 'pname', key: 'pname', responsive: ['lg'] },
    { title: t('devices:field.status'), key: 'status', render: (_, d) => <StatusTag status={d.status} /> },
    {
      title: t('devices:field.figures'),
      key: 'figures',
      render: (_, d) => <DeviceFigures figures={d.figures} variant="inline" />,
    },
    {
      title: t('devices:field.incomeToday'),
      key: 'income',
      align: 'right',
      responsive: ['lg'],
      render: (_, d) => (generates(d.figures) ? formatMoney(d.profitToday, locale, d.currency) : '--'),
    },
    { title: t('devices:field.lastUpdate'), dataIndex: 'lts', key: 'lts', responsive: ['xl'], render: (v: string) => v || '--' },
  ];

  return (
    <Table<DeviceRow>
      data-testid="device-table"
      rowKey={(d) => `${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}`}
      // phone: star and name stay pinned while the figures scroll inside the table
      {...responsiveTable(columns, phone, 2)}
      dataSource={rows}
      loading={loading}
      pagination={pagination}
      locale={emptyLocale(t('devices:list.empty'))}
      size="middle"
    />
  );
}
