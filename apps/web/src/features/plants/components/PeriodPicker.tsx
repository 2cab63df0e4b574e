/**
 * The period of a plant chart: ‹ previous, the period (a click opens the calendar), next › —
 * never after the plant's today. The calendar (antd DatePicker) loads only when opened, so the
 * plant page's first load carries none.
 */
import { lazy, Suspense, useState } from 'react';
import { Button, Space } from 'antd';
import { CalendarOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isAfterPlantToday } from '../../../app/plant-day';

const DatePicker = lazy(() => import('antd/es/date-picker'));

export type PeriodUnit = 'day' | 'month' | 'year';
const FORMAT: Record<PeriodUnit, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' };

/** The period after `d` (or before with −1), undefined when it would start after the plant's today. */
export function stepPeriod(d: Dayjs, unit: PeriodUnit, by: 1 | -1, today: Dayjs): Dayjs | undefined {
  const next = d.add(by, unit);
  return next.startOf(unit).isAfter(today, 'day') ? undefined : next;
}

export function PeriodPicker({ unit, value, today, onChange }: { unit: PeriodUnit; value: Dayjs; today: Dayjs; onChange: (d: Dayjs) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const prev = stepPeriod(value, unit, -1, today);
  const next = stepPeriod(value, unit, 1, today);
  return (
    <Space.Compact>
      <Button icon={<LeftOutlined />} aria-label={t('plants:charts.previous')} disabled={!prev} onClick={() => prev && onChange(prev)} />
      {open ? (
        <Suspense fallback={<Button loading>{value.format(FORMAT[unit])}</Button>}>
          <DatePicker
            picker={unit === 'day' ? 'date' : unit}
            value={value}
            open
            autoFocus
            allowClear={false}
            disabledDate={(d) => isAfterPlantToday(d, today)}
            onOpenChange={(o) => !o && setOpen(false)}
            onChange={(d: unknown) => {
              if (d) onChange(d as Dayjs);
              setOpen(false);
            }}
            aria-label={t('plants:charts.period')}
          />
        </Suspense>
      ) : (
        <Button icon={<CalendarOutlined />} onClick={() => setOpen(true)} aria-label={t('plants:charts.period')} data-testid="plant-period">
          {value.format(FORMAT[unit])}
        </Button>
      )}
      <Button icon={<RightOutlined />} aria-label={t('plants:charts.next')} disabled={!next} onClick={() => next && onChange(next)} />
    </Space.Compact>
  );
}
