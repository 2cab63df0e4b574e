/** Statistical overview: today / month / year / total of each energy kind, and income. */
import { Alert, Card, Col, Row, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatEnergy, formatMoney, formatNumber, scaleEnergy, toNumber } from '../../shared/charts/format';
import { useDeviceStatistic } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { QueryState } from './common';

const PERIODS = ['today', 'month', 'year', 'total'] as const;
/** Table columns: the periods, with the energy since the platform saw the device before the lifetime total. */
const COLUMNS = ['today', 'month', 'year', 'since', 'total'] as const;

/**
 * Whether the lifetime counter holds energy from before the platform saw the device (more than
 * rounding above what the platform recorded): the tab then says so.
 */
export function counterPredates(total: string, since: string): boolean {
  const t = Number(total);
  const s = Number(since);
  return Number.isFinite(t) && Number.isFinite(s) && t - s > 0.05;
}

export function StatisticsTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const q = useDeviceStatistic(device);
  const locale = currentLocale();
  return (
    <QueryState q={q}>
      {(s) => {
        const kinds = s.kinds.length > 0 ? s.kinds : (['generated'] as const);
        const main = kinds[0]!;
        const big = (v: string) => {
          const n = toNumber(v);
          const sc = scaleEnergy(n ?? 0);
          return <Statistic value={n === undefined ? '--' : formatNumber(sc.value, locale)} suffix={n === undefined ? undefined : sc.unit} />;
        };
        const rows = [
          ...kinds.map((k) => ({
            key: k,
            label: t(`devices:energyKinds.${k}`),
            ...Object.fromEntries(PERIODS.map((p) => [p, formatEnergy(s.energy[k][p], locale)])),
            since: formatEnergy(s.sincePlatform[k], locale),
          })),
          {
            key: 'income',
            label: t('devices:statistic.income'),
            ...Object.fromEntries(PERIODS.map((p) => [p, formatMoney(s.income[p], locale, s.currency)])),
            since: '',
          },
        ] as Array<{ key: string; label: string } & Record<(typeof COLUMNS)[number], string>>;
        const firstDay = s.firstDay || '--';
        const predates = kinds.some((k) => counterPredates(s.energy[k].total, s.sincePlatform[k]));
        const title = (p: (typeof COLUMNS)[number]) =>
          p === 'since'
            ? t('devices:statistic.sincePlatform', { date: firstDay })
            : p === 'total'
              ? t('devices:statistic.lifetime')
              : t(`devices:periods.${p}`);
        return (
          <Row gutter={[16, 16]}>
            {PERIODS.map((p) => (
              <Col key={p} xs={12} lg={6}>
                <Card size="small" title={`${t(`devices:energyKinds.${main}`)} · ${title(p)}`} data-period={p}>
                  {big(s.energy[main][p])}
                </Card>
              </Col>
            ))}
            {predates && (
              <Col span={24}>
                <Alert type="info" showIcon data-testid="lifetime-hint" message={t('devices:statistic.lifetimeHint', { date: firstDay })} />
              </Col>
            )}
            <Col span={24}>
              <Table
                size="middle"
                pagination={false}
                dataSource={rows}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: t('devices:statistic.kind'), dataIndex: 'label', key: 'label', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
                  ...COLUMNS.map((p) => ({ title: title(p), dataIndex: p, key: p, align: 'right' as const })),
                ]}
              />
              <Typography.Text type="secondary">{t('devices:realtime.lastUpdate', { time: s.lts || '--' })}</Typography.Text>
            </Col>
          </Row>
        );
      }}
    </QueryState>
  );
}
