/** Chart: the day's power curve (kW per sample); energy per day (month), per month (year), per year (total). */
import { useState } from 'react';
import { DatePicker, Empty, Flex, Segmented, Skeleton, Alert, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { EChart } from '../../shared/charts/EChart';
import { energyOption, powerCurveOption } from '../../shared/charts/options';
import { isAfterPlantToday } from '../../../app/plant-day';
import { useEnergyChart, usePlantToday, type EnergyView } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';

const VIEWS: EnergyView[] = ['day', 'month', 'year', 'total'];
const WIRE_FORMAT: Record<EnergyView, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY', total: '' };

/** The axis label of a bucket timestamp. */
export function bucketLabel(ts: string, view: EnergyView): string {
  switch (view) {
    case 'day':
      return ts.slice(11, 16) || ts;
    case 'month':
      return ts.slice(8, 10) || ts;
    case 'year':
      return ts.slice(5, 7) || ts;
    case 'total':
      return ts.slice(0, 4);
  }
}

export function ChartTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const [view, setView] = useState<EnergyView>('day');
  // the plant's day/month/year (default: the plant's today), as the server reads the date
  const today = usePlantToday(device);
  const [picked, setPicked] = useState<Dayjs | undefined>(undefined);
  const date = picked ?? today;
  const wireDate = view === 'total' ? undefined : date?.format(WIRE_FORMAT[view]);
  const q = useEnergyChart(device, view, wireDate, view === 'total' || !!date);
  const locale = currentLocale();
  const data = q.data;
  // the day view is the power curve (kW, samples as measured); the others energy bars (kWh)
  const power = view === 'day' ? (data?.power ?? []) : [];
  const empty =
    data === null ||
    (data !== undefined &&
      (view === 'day'
        ? power.every((p) => p.points.length === 0)
        : data.series.every((s) => s.val.every((v) => !Number(v)))));

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} wrap align="center">
        <Segmented<EnergyView>
          value={view}
          onChange={setView}
          options={VIEWS.map((v) => ({ value: v, label: t(`devices:chart.views.${v}`) }))}
        />
        {view !== 'total' && (
          <DatePicker
            picker={view === 'day' ? 'date' : view}
            value={date}
            disabled={!date}
            allowClear={false}
            disabledDate={(d) => !!today && isAfterPlantToday(d, today)}
            onChange={(d) => d && setPicked(d)}
          />
        )}
      </Flex>
      {q.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : q.isError ? (
        <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(q.error)} />
      ) : empty || !data ? (
        <Empty description={t('devices:detail.noData')} />
      ) : (
        view === 'day' ? (
          <Flex vertical gap={4} data-testid="power-curve">
            <EChart
              ariaLabel={t('devices:chart.powerTitle')}
              height={380}
              option={powerCurveOption(
                power.map((p) => ({ name: t(`devices:flow.nodes.${p.node}`), points: p.points })),
                locale,
              )}
            />
            {power.some((p) => p.node === 'grid' || p.node === 'battery') && (
              <Typography.Text type="secondary">{t('devices:chart.powerHint')}</Typography.Text>
            )}
          </Flex>
        ) : (
          <EChart
            ariaLabel={t('devices:chart.title')}
            height={380}
            option={energyOption(
              data.ts.map((ts) => bucketLabel(ts, view)),
              data.series.map((s) => ({ name: t(`devices:energyKinds.${s.kind}`), values: s.val })),
              'bar',
              'kWh',
              locale,
            )}
          />
        )
      )}
    </Flex>
  );
}
