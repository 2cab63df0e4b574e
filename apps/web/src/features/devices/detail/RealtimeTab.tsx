/** Real-time data: querySPDeviceLastData panels gd_/sy_/pv_/bt_/bc_, refreshed every 45 s. */
import { Button, Card, Col, Descriptions, Flex, Row, Space, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { getDefinition } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatNumber } from '../../shared/charts/format';
import { LIVE_REFRESH_MS, useLastData } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { QueryState } from './common';

export const PANEL_GROUPS = ['gd_', 'sy_', 'pv_', 'bt_', 'bc_', 'ol_'] as const;

/**
 * A wire value for display: measurements (with a unit) by locale with their decimals kept;
 * text (enums) and unit-less numbers (firmware versions, codes: "7214", not "7,214") as is.
 */
export function displayValue(val: string, locale: string, unit?: string): string {
  if (val === '' || val === '--') return '--';
  if (!/^-?\d+(\.\d+)?$/.test(val) || !unit) return val;
  const decimals = val.includes('.') ? val.split('.')[1]!.length : 0;
  return formatNumber(val, locale, Math.min(decimals, 3), Math.min(decimals, 3));
}

export function RealtimeTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const q = useLastData(device);
  const locale = currentLocale();
  // the field that is the state of charge, whatever its vendor title ("Battery Capacity")
  const socField = getDefinition(Number(device.devcode))?.roles?.soc;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text type="secondary" data-testid="realtime-updated" data-gts={q.data?.gts ?? ''}>
          {t('devices:realtime.lastUpdate', { time: q.data?.gts ?? '--' })} ·{' '}
          {t('devices:realtime.autoRefresh', { seconds: LIVE_REFRESH_MS / 1000 })}
        </Typography.Text>
        <Button icon={<ReloadOutlined />} loading={q.isFetching} onClick={() => void q.refetch()}>
          {t('devices:detail.refresh')}
        </Button>
      </Flex>
      <QueryState q={q} rows={8}>
        {(data) => (
          <Row gutter={[16, 16]}>
            {PANEL_GROUPS.filter((g) => (data.pars[g]?.length ?? 0) > 0).map((g) => (
              <Col key={g} xs={24} lg={12} xxl={8}>
                <Card size="small" title={t(`devices:groups.${g}`)} data-group={g}>
                  <Descriptions column={1} size="small" bordered>
                    {data.pars[g]!.map((it) => (
                      <Descriptions.Item key={it.id} label={it.id === socField ? t('devices:figures.soc') : it.par}>
                        <span data-testid={`value-${it.id}`} data-val={it.val}>
                          <Typography.Text strong={it.val !== '--'} type={it.val === '--' ? 'secondary' : undefined}>
                            {displayValue(it.val, locale, it.unit)}
                          </Typography.Text>
                          {it.unit && it.val !== '--' ? ` ${it.unit}` : ''}
                        </span>
                      </Descriptions.Item>
                    ))}
                  </Descriptions>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </QueryState>
    </Space>
  );
}
