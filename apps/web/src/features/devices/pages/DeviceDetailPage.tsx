/**
 * Device detail (…/<list>/:pn/:devcode/:devaddr/:sn): real-time data, energy flow,
 * statistical overview, chart, parameter analysis, data details and device info tabs.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Button, Card, Flex, Space, Spin, Tabs, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useDeviceInfo, useDeviceStatistic } from '../api/queries';
import { DeviceFigures } from '../../shared/devices/components/DeviceFigures';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { areaFor, deviceListPath, type DeviceTupleLike } from '../../shared/devices/paths';
import { plantPathFrom } from '../../shared/plants/paths';
import { RealtimeTab } from '../detail/RealtimeTab';
import { DEVICE_EXTRA_TABS, useDeviceTabs, type DeviceTabProps } from '../../../app/device-tabs';
import { useSession } from '../../../app/use-session';

/*
 * The real-time tab (the default) comes with the page; every other tab loads when it is opened,
 * so the page's first load carries no ECharts (chart and parameter analysis) and no data table.
 */
const ChartTab = lazy(() => import('../detail/ChartTab').then((m) => ({ default: m.ChartTab })));
const DataTab = lazy(() => import('../detail/DataTab').then((m) => ({ default: m.DataTab })));
const EnergyFlowTab = lazy(() => import('../detail/EnergyFlowTab').then((m) => ({ default: m.EnergyFlowTab })));
const InfoTab = lazy(() => import('../detail/InfoTab').then((m) => ({ default: m.InfoTab })));
const ParamsTab = lazy(() => import('../detail/ParamsTab').then((m) => ({ default: m.ParamsTab })));
const StatisticsTab = lazy(() => import('../detail/StatisticsTab').then((m) => ({ default: m.StatisticsTab })));

/** Tabs of other features (app/device-tabs.ts: control, send command, report export, history), lazy too. */
const EXTRA_TABS: ReadonlyMap<string, ComponentType<DeviceTabProps>> = new Map(DEVICE_EXTRA_TABS.map((d) => [d.key, lazy(d.load)]));

const tabLoading = (
  <Flex justify="center" style={{ padding: 48 }}>
    <Spin />
  </Flex>
);

export const DETAIL_TABS = ['realtime', 'flow', 'statistic', 'chart', 'params', 'data', 'info'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

export default function DeviceDetailPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const p = useParams();
  const [search, setSearch] = useSearchParams();
  const device: DeviceTupleLike = { pn: p.pn ?? '', devcode: Number(p.devcode), devaddr: Number(p.devaddr), sn: p.sn ?? '' };
  const info = useDeviceInfo(device);
  // the device's key figures, the same the device list shows (one server computation)
  const stat = useDeviceStatistic(device);
  const session = useSession();
  const extra = useDeviceTabs(device, session);
  const wanted = search.get('tab') ?? '';
  const tab = (DETAIL_TABS as readonly string[]).includes(wanted) || extra.some((d) => d.key === wanted) ? wanted : 'realtime';
  const back = deviceListPath(areaFor(pathname)) ?? '..';

  const render: Record<DetailTab, () => React.ReactNode> = {
    realtime: () => <RealtimeTab device={device} />,
    flow: () => <EnergyFlowTab device={device} />,
    statistic: () => <StatisticsTab device={device} />,
    chart: () => <ChartTab device={device} />,
    params: () => <ParamsTab device={device} />,
    data: () => <DataTab device={device} />,
    info: () => <InfoTab device={device} />,
  };

  return (
    <Card>
      <Flex align="center" gap={12} wrap style={{ marginBottom: 8 }}>
        <Link to={back}>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('devices:detail.back')}>
            {t('devices:detail.back')}
          </Button>
        </Link>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {info.data?.alias || device.sn}
        </Typography.Title>
        {info.data && <StatusTag status={info.data.status} />}
        <Space size={16} wrap>
          <Typography.Text type="secondary">
            {t('devices:field.sn')}: {device.sn}
          </Typography.Text>
          <Typography.Text type="secondary">
            {t('devices:field.pn')}: {device.pn}
          </Typography.Text>
          {info.data?.pname && (
            <Typography.Text type="secondary">
              {t('plants:page.title')}:{' '}
              {plantPathFrom(pathname, info.data.pid) ? (
                <Link to={plantPathFrom(pathname, info.data.pid)!} data-testid="device-plant-link">
                  {info.data.pname}
                </Link>
              ) : (
                info.data.pname
              )}
            </Typography.Text>
          )}
        </Space>
      </Flex>
      {stat.data && stat.data.figures.length > 0 && (
        <div data-testid="detail-figures" style={{ margin: '8px 0 4px' }}>
          <DeviceFigures figures={stat.data.figures} variant="grid" cols={{ xs: 12, sm: 8, lg: 6, xxl: 4 }} />
        </div>
      )}
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(k) => {
          const next = new URLSearchParams(search);
          next.set('tab', k);
          setSearch(next, { replace: true });
        }}
        items={[
          ...DETAIL_TABS.map((k) => ({ key: k, label: t(`devices:tabs.${k}`), children: <Suspense fallback={tabLoading}>{render[k]()}</Suspense> })),
          ...extra.map((d) => {
            const Tab = EXTRA_TABS.get(d.key)!;
            return {
              key: d.key,
              label: t(d.titleKey),
              children: (
                <Suspense fallback={tabLoading}>
                  <Tab device={device} />
                </Suspense>
              ),
            };
          }),
        ]}
      />
    </Card>
  );
}
