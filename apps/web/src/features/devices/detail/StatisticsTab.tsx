/** Statistical overview: today / month / year / total of each energy kind, and income. */
import { Card, Col, Row, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatEnergy, formatMoney, formatNumber, scaleEnergy, toNumber } from '../../shared/charts/format';
import { useDeviceStatistic } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { QueryState } from './common';

const PERIODS = ['today', 'month', 'year', 'total'] as const;

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
          })),
          {
            key: 'income',
            label: t('devices:statistic.income'),
            ...Object.fromEntries(PERIODS.map((p) => [p, formatMoney(s.income[p], locale, s.currency)])),
          },
        ] as Array<{ key: string; label: string } & Record<(typeof PERIODS)[number], string>>;
        return (
          <Row gutter={[16, 16]}>
            {PERIODS.map((p) => (
              <Col key={p} xs={12} lg={6}>
                <Card size="small" title={`${t(`devices:energyKinds.${main}`)} · ${t(`devices:periods.${p}`)}`}>
                  {big(s.energy[main][p])}
                </Card>
              </Col>
            ))}
            <Col span={24}>
              <Table
                size="middle"
                pagination={false}
                dataSource={rows}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: t('devices:statistic.kind'), dataIndex: 'label', key: 'label', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
                  ...PERIODS.map((p) => ({ title: t(`devices:periods.${p}`), dataIndex: p, key: p, align: 'right' as const })),
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
