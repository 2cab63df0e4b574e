/**
 * The plant's charts (loaded lazily with ECharts): today's (or a picked day's) power curve and
 * energy per day of a month, per month of a year, per year — dates in the plant's time zone,
 * never after its today.
 */
import { useState } from 'react';
import { Alert, Empty, Flex, Segmented, Skeleton } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { EChart } from '../../shared/charts/EChart';
import { energyOption, powerCurveOption } from '../../shared/charts/options';
import { usePlantEnergy, usePlantPowerDay, type PlantEnergyView } from '../api/queries';
import { PeriodPicker } from './PeriodPicker';

export type PlantChartView = 'day' | PlantEnergyView;
const VIEWS: PlantChartView[] = ['day', 'month', 'year', 'total'];
const WIRE_FORMAT: Record<PlantChartView, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY', total: '' };

/** The axis label of a bucket "YYYY-MM-DD HH:MM:SS". */
export function plantBucketLabel(ts: string, view: PlantEnergyView): string {
  if (view === 'month') return ts.slice(8, 10) || ts;
  if (view === 'year') return ts.slice(5, 7) || ts;
  return ts.slice(0, 4);
}

export default function PlantCharts({ pid, today }: { pid: number; today: Dayjs }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [view, setView] = useState<PlantChartView>('day');
  const [picked, setPicked] = useState<Dayjs>();
  const date = picked ?? today;
  const wire = view === 'total' ? undefined : date.format(WIRE_FORMAT[view]);
  const day = usePlantPowerDay(pid, view === 'day' ? wire : undefined);
  const energy = usePlantEnergy(pid, view === 'day' ? 'month' : view, view === 'day' ? undefined : wire);
  const q = view === 'day' ? day : energy;

  const body = () => {
    if (q.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
    if (q.isError) return <Alert type="error" showIcon message={t('plants:page.loadFailed')} description={apiErrorText(q.error)} />;
    if (view === 'day') {
      const points = day.data?.outputPower ?? [];
      if (points.length === 0) return <Empty description={t('plants:page.noData')} />;
      return (
        <div data-testid="plant-power-curve">
          <EChart ariaLabel={t('plants:charts.power')} height={320} option={powerCurveOption([{ name: t('plants:charts.power'), points }], locale)} />
        </div>
      );
    }
    const buckets = energy.data ?? [];
    if (buckets.length === 0 || buckets.every((b) => !Number(b.val))) return <Empty description={t('plants:page.noData')} />;
    return (
      <div data-testid="plant-energy-chart">
        <EChart
          ariaLabel={t('plants:charts.energy')}
          height={320}
          option={energyOption(
            buckets.map((b) => plantBucketLabel(b.ts, view)),
            [{ name: t('plants:charts.energy'), values: buckets.map((b) => b.val) }],
            'bar',
            'kWh',
            locale,
          )}
        />
      </div>
    );
  };

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap align="center">
        <Segmented<PlantChartView>
          value={view}
          onChange={setView}
          options={VIEWS.map((v) => ({ value: v, label: t(`plants:charts.views.${v}`) }))}
        />
        {view !== 'total' && <PeriodPicker unit={view} value={date} today={today} onChange={setPicked} />}
      </Flex>
      {body()}
    </Flex>
  );
}
