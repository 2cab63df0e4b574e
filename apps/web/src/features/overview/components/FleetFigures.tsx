/**
 * Fleet figures of the overview homes: dataloggers and devices by status (donuts), today's
 * and total energy, current power, today's and total income, alarms of the last 7 days.
 * `variant="classic"` is the old editions' simpler layout over the same data.
 */
import { Alert, Card, Col, Descriptions, Empty, Row, Skeleton, Statistic, Tooltip } from 'antd';
import { AlertOutlined, DollarOutlined, ThunderboltOutlined, LineChartOutlined } from '@ant-design/icons';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import {
  bcp47,
  formatEnergy,
  formatMoney,
  formatNumber,
  formatPower,
  scaleEnergy,
  scalePower,
  toNumber,
} from '../../shared/charts/format';
import { Bars } from '../../shared/charts/svg/Bars';
import { Donut } from '../../shared/charts/svg/Donut';
import { statusColor, statusLabelKey } from '../../shared/devices/status';
import { useFleetOverview } from '../api/queries';

export type FleetOverview = ResultOf<Catalogue['webQueryFleetOverview']>;
type StatusCounts = FleetOverview['device'];

/** Donut slices of the statuses that occur (all of them greyed when the fleet is empty). */
export function statusSlices(counts: StatusCounts, label: (status: number) => string) {
  return counts.byStatus
    .map((value, status) => ({ status, value }))
    .filter((s) => s.value > 0)
    .map((s) => ({ name: label(s.status), value: s.value, color: statusColor(s.status) }));
}

/**
 * The currency of the income figures: the overview's own (the server falls back to the most
 * common currency of the caller's plants, so a fleet without data still shows "EUR 0.00"), else
 * any income's.
 */
export function fleetCurrency(overview: Pick<FleetOverview, 'currency' | 'incomes'> | undefined): string {
  return overview?.currency || overview?.incomes.find((i) => i.currency)?.currency || '';
}

/** Short day-and-month labels of the alarm days ("11/17", "17.11."), in the interface language. */
export function dayLabel(date: string, locale: string): string {
  const d = new Date(`${date}T12:00:00`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(bcp47(locale), { day: 'numeric', month: 'numeric' }).format(d);
}

function StatusDonut({ title, counts }: { title: string; counts: StatusCounts }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const slices = statusSlices(counts, (s) => t(statusLabelKey(s)));
  return (
    <Card title={title} size="small" style={{ height: '100%' }}>
      {counts.total === 0 ? (
        <Empty description={t('overview:empty')} />
      ) : (
        <Donut slices={slices} total={counts.total} locale={locale} ariaLabel={title} testId="fleet-donut" />
      )}
    </Card>
  );
}

function AlarmsChart({ data }: { data: FleetOverview }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const title = t('overview:alarms7d');
  return (
    <Card
      title={title}
      size="small"
      style={{ height: '100%' }}
      extra={
        <Tooltip title={t('overview:activeAlarms')}>{t('overview:activeCount', { n: data.activeAlarms })}</Tooltip>
      }
    >
      <Bars
        labels={data.alarmsPerDay.map((d) => dayLabel(d.date, locale))}
        values={data.alarmsPerDay.map((d) => d.count)}
        seriesName={t('overview:alarms')}
        locale={locale}
        integer
        testId="fleet-alarms"
      />
    </Card>
  );
}

function Figure({
  title,
  value,
  unit,
  icon,
  color,
}: {
  title: string;
  value: string;
  unit?: string;
  icon: React.ReactNode;
  color: string;
}) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Statistic
        title={title}
        value={value}
        suffix={unit}
        prefix={<span style={{ color, marginRight: 4 }}>{icon}</span>}
      />
    </Card>
  );
}

function scaled(v: string, kind: 'energy' | 'power', locale: string): { value: string; unit?: string } {
  const n = toNumber(v);
  if (n === undefined) return { value: '--' };
  const s = kind === 'energy' ? scaleEnergy(n) : scalePower(n);
  return { value: formatNumber(s.value, locale), unit: s.unit };
}

export function FleetFigures({ variant = 'full' }: { variant?: 'full' | 'classic' }) {
  const { t } = useTranslation();
  const q = useFleetOverview();
  const locale = currentLocale();
  const currency = fleetCurrency(q.data);
  if (q.isPending) return <Skeleton active paragraph={{ rows: variant === 'full' ? 10 : 4 }} />;
  if (q.isError)
    return <Alert type="error" showIcon message={t('overview:loadFailed')} description={apiErrorText(q.error)} />;
  const d = q.data;
  const money = (v: string) => formatMoney(v, locale, currency);
  const extraIncomes = d.incomes.filter((i) => i.currency && i.currency !== currency);

  if (variant === 'classic') {
    return (
      <Card title={t('overview:title')} data-testid="fleet-classic">
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }}>
              <Descriptions.Item label={t('overview:currentPower')}>
                {formatPower(d.currentPower, locale)}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:consumption')}>
                <span data-testid="fleet-consumption">{formatPower(d.consumptionPower, locale)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:nominalPower')}>
                {formatPower(d.nominalPower, locale)}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:energyToday')}>
                {formatEnergy(d.energyToday, locale)}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:energyTotal')}>
                {formatEnergy(d.energyTotal, locale)}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:incomeToday')}>{money(d.incomeToday)}</Descriptions.Item>
              <Descriptions.Item label={t('overview:incomeTotal')}>{money(d.incomeTotal)}</Descriptions.Item>
              <Descriptions.Item label={t('overview:dataloggers')}>
                {t('overview:onlineOf', { online: d.collector.byStatus[0] ?? 0, total: d.collector.total })}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:devices')}>
                {t('overview:onlineOf', { online: d.device.byStatus[0] ?? 0, total: d.device.total })}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:alarms7d')}>
                {formatNumber(
                  d.alarmsPerDay.reduce((n, x) => n + x.count, 0),
                  locale,
                  0,
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('overview:activeAlarms')}>
                {formatNumber(d.activeAlarms, locale, 0)}
              </Descriptions.Item>
            </Descriptions>
          </Col>
          <Col xs={24} lg={10}>
            <StatusDonut title={t('overview:devicesByStatus')} counts={d.device} />
          </Col>
        </Row>
      </Card>
    );
  }

  const power = scaled(d.currentPower, 'power', locale);
  const consumption = scaled(d.consumptionPower, 'power', locale);
  const today = scaled(d.energyToday, 'energy', locale);
  const total = scaled(d.energyTotal, 'energy', locale);
  return (
    <Row gutter={[16, 16]} data-testid="fleet-full">
      <Col xs={24} sm={12} lg={8} xl={4}>
        <Figure title={t('overview:currentPower')} {...power} icon={<ThunderboltOutlined />} color="#1677ff" />
      </Col>
      <Col xs={24} sm={12} lg={8} xl={4} data-testid="fleet-consumption">
        <Figure title={t('overview:consumption')} {...consumption} icon={<ThunderboltOutlined />} color="#722ed1" />
      </Col>
      <Col xs={24} sm={12} lg={8} xl={4}>
        <Figure title={t('overview:energyToday')} {...today} icon={<LineChartOutlined />} color="#52c41a" />
      </Col>
      <Col xs={24} sm={12} lg={8} xl={4}>
        <Figure title={t('overview:energyTotal')} {...total} icon={<LineChartOutlined />} color="#13c2c2" />
      </Col>
      <Col xs={24} sm={12} lg={8} xl={4}>
        <Figure
          title={t('overview:incomeToday')}
          value={money(d.incomeToday)}
          icon={<DollarOutlined />}
          color="#fa8c16"
        />
      </Col>
      <Col xs={24} sm={12} lg={8} xl={4}>
        <Figure
          title={t('overview:incomeTotal')}
          value={money(d.incomeTotal)}
          icon={<DollarOutlined />}
          color="#eb2f96"
        />
      </Col>
      {extraIncomes.length > 0 && (
        <Col span={24}>
          <Alert
            type="info"
            message={t('overview:otherCurrencies', {
              list: extraIncomes
                .map((i) => `${formatMoney(i.today, locale, i.currency)} / ${formatMoney(i.total, locale, i.currency)}`)
                .join('; '),
            })}
          />
        </Col>
      )}
      <Col xs={24} md={12} xl={8}>
        <StatusDonut title={t('overview:devicesByStatus')} counts={d.device} />
      </Col>
      <Col xs={24} md={12} xl={8}>
        <StatusDonut title={t('overview:dataloggersByStatus')} counts={d.collector} />
      </Col>
      <Col xs={24} xl={8}>
        <AlarmsChart data={d} />
      </Col>
      <Col span={24}>
        <Card size="small">
          <Row gutter={16}>
            <Col xs={12} md={6}>
              <Statistic title={t('overview:plants')} value={formatNumber(d.plant.total, locale, 0)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('overview:dataloggers')} value={formatNumber(d.collector.total, locale, 0)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('overview:devices')} value={formatNumber(d.device.total, locale, 0)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t('overview:activeAlarms')}
                value={formatNumber(d.activeAlarms, locale, 0)}
                prefix={<AlertOutlined style={{ color: d.activeAlarms ? '#f5222d' : undefined }} />}
              />
            </Col>
          </Row>
        </Card>
      </Col>
    </Row>
  );
}
