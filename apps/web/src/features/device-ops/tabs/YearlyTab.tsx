/**
 * Yearly key figures of a device (querySPDeviceKeyParameterTotalPerYear, DM ch14): the energy of
 * each of its cumulative counters (PV generation, load, grid export/import, battery charge and
 * discharge) per year since its first data. A chart of the chosen counter and a table of every
 * counter the device has (a counter it lacks answers err 6 and is left out).
 */
import { useState } from 'react';
import { Alert, Button, Empty, Flex, Select, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import type { KeyParameterTotal } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { apiErrorText } from '../../../app/notify';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { useIsPhone } from '../../../components/responsive';
import { responsiveTable } from '../../../components/list';
import { formatEnergy } from '../../shared/charts/format';
import { Bars } from '../../shared/charts/svg/Bars';
import { useKeyParameterTotals } from '../api/queries';
import { yearlyTable } from './yearly-table';

const COLOR: Record<KeyParameterTotal, string> = {
  PV_ENERGY_TOTAL: '#fa8c16',
  LOAD_ENERGY_TOTAL: '#722ed1',
  ENERGY_TOTAL_TO_GRID: '#13c2c2',
  ENERGY_TOTAL_FROM_GRID: '#eb2f96',
  BATTERY_ENERGY_TOTAL_CHARGE: '#52c41a',
  BATTERY_ENERGY_TOTAL_DISCHARGE: '#1677ff',
};

export default function YearlyTab({ device }: DeviceTabProps) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const locale = currentLocale();
  const q = useKeyParameterTotals(device);
  const [chosen, setChosen] = useState<KeyParameterTotal | undefined>(undefined);

  if (q.pending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (q.error)
    return (
      <Alert
        type="error"
        showIcon
        message={t('deviceOps:yearly.loadFailed')}
        description={apiErrorText(q.error)}
        action={
          <Button size="small" onClick={q.refetch}>
            {t('deviceOps:yearly.retry')}
          </Button>
        }
      />
    );
  const table = yearlyTable(q.byParameter);
  if (table.parameters.length === 0)
    return <Empty data-testid="yearly-empty" description={table.empty ? t('deviceOps:yearly.empty') : t('deviceOps:yearly.none')} />;

  const param = chosen && table.parameters.includes(chosen) ? chosen : table.parameters[0]!;
  const name = (p: KeyParameterTotal) => t(`deviceOps:yearly.params.${p}`);
  const columns: TableColumnsType<(typeof table.rows)[number]> = [
    {
      title: t('deviceOps:yearly.year'),
      dataIndex: 'year',
      key: 'year',
      render: (y: string) => (y === '' ? <Typography.Text strong>{t('deviceOps:yearly.total')}</Typography.Text> : y),
    },
    ...table.parameters.map((p) => ({
      title: name(p),
      key: p,
      align: 'right' as const,
      render: (_: unknown, r: (typeof table.rows)[number]) => (
        <span data-testid={`yearly-${p}-${r.year || 'total'}`} data-val={r.values[p]}>
          {formatEnergy(r.values[p], locale)}
        </span>
      ),
    })),
  ];
  const series = table.rows.filter((r) => r.year !== '').reverse(); // oldest first on the chart

  return (
    <Flex vertical gap={12} data-testid="yearly-tab">
      <Typography.Text type="secondary">{t('deviceOps:yearly.intro')}</Typography.Text>
      <Flex gap={8} align="center" wrap>
        <Typography.Text>{t('deviceOps:yearly.parameter')}:</Typography.Text>
        <Select<KeyParameterTotal>
          data-testid="yearly-param"
          style={{ minWidth: 200 }}
          value={param}
          options={table.parameters.map((p) => ({ value: p, label: name(p) }))}
          onChange={setChosen}
        />
      </Flex>
      <Bars
        testId="yearly-chart"
        labels={series.map((r) => r.year)}
        values={series.map((r) => Number(r.values[param]))}
        seriesName={`${name(param)} (kWh)`}
        locale={locale}
        color={COLOR[param]}
        height={phone ? 200 : 260}
      />
      <Table
        data-testid="yearly-table"
        rowKey={(r) => r.year || 'total'}
        size="small"
        pagination={false}
        dataSource={table.rows}
        {...responsiveTable(columns, phone)}
      />
    </Flex>
  );
}
