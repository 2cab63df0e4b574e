/**
 * The 7-day alarm statistics (spec §9): alarms that occurred on each of the last 7 days as bars,
 * the week's count per type, how many of them are untreated and how many alarms go on now. For
 * one plant (its timezone) or every plant the account sees (the viewer's timezone).
 */
import { Alert, Card, Flex, Skeleton, Space, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { bcp47, formatNumber } from '../../shared/charts/format';
import { Bars } from '../../shared/charts/svg/Bars';
import { browserTz } from '../api/list-params';
import { useAlarmStats } from '../api/queries';
import { LEVEL_KEYS } from '../model/vocabulary';
import { LEVEL_COLORS } from './AlarmTags';

/** Short day-and-month label of "YYYY-MM-DD" in the interface language. */
export function statDayLabel(date: string, locale: string): string {
  const d = new Date(`${date}T12:00:00`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(bcp47(locale), { day: 'numeric', month: 'numeric' }).format(d);
}

export function AlarmStats({ plantid, compact = false }: { plantid?: number; compact?: boolean }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const stats = useAlarmStats(plantid ? { plantid } : { tz: browserTz() });
  const d = stats.data;
  const title = t('alarms:stats.title');
  return (
    <Card title={title} size="small" data-testid="alarm-stats">
      {stats.isError ? (
        <Alert type="error" showIcon message={t('alarms:stats.failed')} description={apiErrorText(stats.error)} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <Flex vertical gap={12}>
          <Flex wrap gap={24}>
            <Statistic title={t('alarms:stats.total')} value={formatNumber(d.total.total, locale, 0)} />
            <Statistic title={t('alarms:stats.untreated')} value={formatNumber(d.untreated, locale, 0)} />
            <span data-testid="alarm-stats-ongoing" data-value={d.ongoing}>
              <Statistic title={t('alarms:stats.ongoing')} value={formatNumber(d.ongoing, locale, 0)} />
            </span>
          </Flex>
          <Space wrap size={[4, 4]}>
            {LEVEL_KEYS.map((k, level) => (
              <Tag key={k} color={LEVEL_COLORS[level]} data-testid={`alarm-stats-${k}`}>
                {t(`alarms:level.${k}`)}: {formatNumber(d.total[k], locale, 0)}
              </Tag>
            ))}
          </Space>
          <Bars
            labels={d.days.map((x) => statDayLabel(x.date, locale))}
            values={d.days.map((x) => x.total)}
            seriesName={t('alarms:stats.series')}
            locale={locale}
            height={compact ? 140 : 180}
            color="#f5222d"
            integer
            testId="alarm-stats-bars"
          />
        </Flex>
      )}
    </Card>
  );
}
