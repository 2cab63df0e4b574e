/**
 * The plant's dataloggers (status, signal, firmware, last report) and, under each, its devices
 * (status, power, energy today, SOC) linking to the device detail (queryPlantDeviceView).
 */
import { Button, Card, Empty, Flex, Tag, Typography } from 'antd';
import { ClusterOutlined, PlusOutlined } from '@ant-design/icons';
import type { PlantDeviceViewDat } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { currentLocale } from '../../../i18n';
import { formatEnergy, formatPercent, formatPower, toNumber } from '../../shared/charts/format';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { areaFor, deviceDetailPath } from '../../shared/devices/paths';

/** Signal strength 0..100 as five bars (no progress component on the page's first load). */
function SignalBars({ percent }: { percent: number }) {
  const lit = Math.round((Math.max(0, Math.min(100, percent)) / 100) * 5);
  return (
    <span role="img" aria-label={`${percent} %`} style={{ display: 'inline-flex', alignItems: 'flex-end', gap: 2, height: 14 }}>
      {[0, 1, 2, 3, 4].map((i) => (
        <span key={i} style={{ width: 3, height: 4 + i * 2.5, borderRadius: 1, background: i < lit ? '#1677ff' : 'rgba(0,0,0,0.15)' }} />
      ))}
    </span>
  );
}

/** `onAdd`: the "Add datalogger" button, for those who may bind one to this plant. */
export function PlantDevicesCard({ view, onAdd }: { view: PlantDeviceViewDat; onAdd?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = currentLocale();
  const area = areaFor(pathname);
  return (
    <Card
      size="small"
      title={t('plants:devices.title', { n: view.collector.length })}
      data-testid="plant-dataloggers"
      extra={
        onAdd && (
          <Button size="small" type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="plant-add-datalogger">
            {t('plants:devices.add')}
          </Button>
        )
      }
    >
      {view.collector.length === 0 ? (
        <Empty description={t('plants:devices.none')} />
      ) : (
        <Flex vertical gap={12}>
          {view.collector.map((c) => (
            <Card
              key={c.pn}
              size="small"
              type="inner"
              data-testid="plant-datalogger"
              data-pn={c.pn}
              title={
                <Flex gap={8} align="center" wrap>
                  <ClusterOutlined />
                  <Typography.Text strong>{c.alias || c.pn}</Typography.Text>
                  {c.alias && <Typography.Text type="secondary">{c.pn}</Typography.Text>}
                  <StatusTag status={c.status} />
                </Flex>
              }
            >
              <Flex gap={16} wrap style={{ marginBottom: 8 }}>
                <Flex gap={6} align="center">
                  <Typography.Text type="secondary">{t('plants:devices.signal')}</Typography.Text>
                  <SignalBars percent={c.signal} />
                </Flex>
                <Typography.Text type="secondary">
                  {t('plants:devices.firmware')}: {c.firmware || '--'}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {t('plants:devices.lastReport')}: {c.lts || '--'}
                </Typography.Text>
              </Flex>
              {c.device.length === 0 ? (
                <Typography.Text type="secondary">{t('plants:devices.noDevices')}</Typography.Text>
              ) : (
                <Flex vertical>
                  {c.device.map((d) => {
                    const to = deviceDetailPath(area, { pn: c.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn });
                    const name = d.alias || d.sn;
                    return (
                      <Flex
                        key={`${d.devcode}/${d.devaddr}/${d.sn}`}
                        data-testid="plant-device"
                        gap={12}
                        wrap
                        align="center"
                        justify="space-between"
                        style={{ padding: '8px 0', borderTop: '1px solid rgba(5,5,5,0.06)' }}
                      >
                        <Flex gap={8} align="center" wrap>
                          {to ? <Link to={to}>{name}</Link> : <Typography.Text>{name}</Typography.Text>}
                          <StatusTag status={d.status} />
                        </Flex>
                        <Flex gap={12} wrap>
                          <Typography.Text>{formatPower(d.outputPower, locale)}</Typography.Text>
                          <Typography.Text type="secondary">
                            {t('plants:figures.ENERGY_TODAY')}: {formatEnergy(d.energyToday, locale)}
                          </Typography.Text>
                          {toNumber(d.soc) !== undefined && <Tag>SOC {formatPercent(d.soc, locale)}</Tag>}
                        </Flex>
                      </Flex>
                    );
                  })}
                </Flex>
              )}
            </Card>
          ))}
        </Flex>
      )}
    </Card>
  );
}
