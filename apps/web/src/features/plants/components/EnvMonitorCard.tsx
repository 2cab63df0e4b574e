/** The plant's environment monitors: irradiance, module and ambient temperature, wind, irradiation today. */
import { Card, Col, Row, Statistic, Typography } from 'antd';
import type { PlantEnvMonitorRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatNumber, toNumber } from '../../shared/charts/format';

const FIGURES = [
  { key: 'irradiance', unit: 'W/m²' },
  { key: 'moduleTemp', unit: '°C' },
  { key: 'ambientTemp', unit: '°C' },
  { key: 'windSpeed', unit: 'm/s' },
  { key: 'irradiationToday', unit: 'kWh/m²' },
] as const;

export function EnvMonitorCard({ monitors }: { monitors: readonly PlantEnvMonitorRow[] }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <Card size="small" title={t('plants:env.title')} data-testid="plant-env">
      {monitors.map((m) => (
        <div key={`${m.pn}/${m.devaddr}/${m.sn}`}>
          {monitors.length > 1 && <Typography.Text strong>{m.alias || m.sn}</Typography.Text>}
          <Row gutter={[12, 12]}>
            {FIGURES.map((f) => {
              const n = toNumber(m[f.key]);
              return (
                <Col key={f.key} xs={12} sm={8} xl={4}>
                  <Statistic
                    title={t(`plants:env.${f.key}`)}
                    value={n === undefined ? '--' : formatNumber(n, locale, 1)}
                    suffix={n === undefined ? undefined : f.unit}
                    valueStyle={{ fontSize: 20 }}
                  />
                </Col>
              );
            })}
          </Row>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('plants:page.lastUpdate', { time: m.lts || '--' })}
          </Typography.Text>
        </div>
      ))}
    </Card>
  );
}
