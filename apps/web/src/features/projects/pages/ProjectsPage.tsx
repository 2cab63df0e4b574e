/**
 * Projects (plants): list and map views with the plant totals — today's and total energy,
 * current power, status (/adminNew/project, /generalNew/project).
 */
import { useMemo, useState } from 'react';
import { Alert, Card, Empty, Flex, Input, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { EnvironmentOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { formatEnergy, formatNumber, formatPower } from '../../charts/format';
import { StatusTag } from '../../devices/components/StatusTag';
import { areaFor, deviceListPath } from '../../devices/paths';
import { FILTER_ALL, filterToStatus, statusColor, statusFilterOptions } from '../../devices/status';
import { toGeoPoint } from '../../maps/basemap';
import { LazyMap, type MapMarker } from '../../maps/LazyMap';
import { usePlantList, usePlantsMap } from '../api/queries';

type PlantRow = ResultOf<Catalogue['webQueryPlants']>['plant'][number];
type View = 'list' | 'map';

export default function ProjectsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = currentLocale();
  const devicesPath = deviceListPath(areaFor(pathname));
  const [view, setView] = useState<View>('list');
  const [name, setName] = useState('');
  const [statusFilter, setStatusFilter] = useState(FILTER_ALL);
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const plantName = name.trim() || undefined;
  const list = usePlantList(
    {
      page: paging.current - 1,
      pagesize: paging.pageSize,
      ...(plantName ? { plantName } : {}),
      ...(statusFilter !== FILTER_ALL ? { statusFilter } : {}),
    },
    view === 'list',
  );
  const status = filterToStatus(statusFilter);
  const map = usePlantsMap({ ...(plantName ? { plantName } : {}), ...(status !== undefined ? { status } : {}) }, view === 'map');
  const devicesOf = (pid: number) => (devicesPath ? `${devicesPath}?mode=list&pid=${pid}` : undefined);

  const columns: TableColumnsType<PlantRow> = [
    {
      title: t('projects:field.name'),
      key: 'name',
      render: (_, p) => {
        const to = devicesOf(p.pid);
        return to ? <Link to={to}>{p.name}</Link> : p.name;
      },
    },
    { title: t('projects:field.status'), key: 'status', render: (_, p) => <StatusTag status={p.status} /> },
    { title: t('projects:field.power'), key: 'power', align: 'right', render: (_, p) => formatPower(p.outputPower, locale) },
    { title: t('projects:field.nominalPower'), key: 'nominal', align: 'right', responsive: ['lg'], render: (_, p) => formatPower(p.nominalPower, locale) },
    { title: t('projects:field.energyToday'), key: 'today', align: 'right', render: (_, p) => formatEnergy(p.energy, locale) },
    { title: t('projects:field.energyMonth'), key: 'month', align: 'right', responsive: ['xl'], render: (_, p) => formatEnergy(p.energyMonth, locale) },
    { title: t('projects:field.energyTotal'), key: 'total', align: 'right', render: (_, p) => formatEnergy(p.energyTotal, locale) },
    {
      title: t('projects:field.devices'),
      key: 'devices',
      align: 'right',
      responsive: ['md'],
      render: (_, p) => `${formatNumber(p.devices, locale, 0)} / ${formatNumber(p.collectors, locale, 0)}`,
    },
    {
      title: t('projects:field.location'),
      key: 'loc',
      responsive: ['lg'],
      render: (_, p) => [p.address.city, p.address.country].filter(Boolean).join(', ') || '--',
    },
    { title: t('projects:field.lastUpdate'), key: 'lts', responsive: ['xl'], render: (_, p) => p.lts || '--' },
  ];

  const markers = useMemo<MapMarker[]>(
    () =>
      (map.data?.plant ?? []).flatMap((p) => {
        const point = toGeoPoint(p.lat, p.lon);
        if (!point) return [];
        const to = devicesOf(p.pid);
        return [
          {
            id: String(p.pid),
            ...point,
            color: statusColor(p.status),
            popup: (
              <div style={{ minWidth: 180 }}>
                <Typography.Text strong>{p.name}</Typography.Text> <StatusTag status={p.status} />
                <div>
                  {t('projects:field.power')}: {formatPower(p.outputPower, locale)}
                </div>
                <div>
                  {t('projects:field.energyToday')}: {formatEnergy(p.energy, locale)}
                </div>
                <div style={{ color: '#8c8c8c' }}>{[p.city, p.country].filter(Boolean).join(', ')}</div>
                {to && <Link to={to}>{t('projects:openDevices')}</Link>}
              </div>
            ),
          },
        ];
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- devicesOf depends on the path only
    [map.data, t, locale, devicesPath],
  );
  const unplaced = (map.data?.plant.length ?? 0) - markers.length;
  const error = view === 'list' ? list.error : map.error;

  return (
    <Card title={t('projects:title')}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap={12} justify="space-between">
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t('projects:search')}
              onSearch={(v) => {
                setName(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              style={{ width: 240 }}
            />
            <Select
              aria-label={t('projects:field.status')}
              value={statusFilter}
              style={{ width: 150 }}
              onChange={(v) => {
                setStatusFilter(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              options={statusFilterOptions().map((o) => ({ value: o.value, label: t(o.labelKey) }))}
            />
          </Space>
          <Segmented<View>
            value={view}
            onChange={setView}
            options={[
              { value: 'list', icon: <UnorderedListOutlined />, label: t('projects:views.list') },
              { value: 'map', icon: <EnvironmentOutlined />, label: t('projects:views.map') },
            ]}
          />
        </Flex>
        {error ? (
          <Alert type="error" showIcon message={t('projects:loadFailed')} description={apiErrorText(error)} />
        ) : view === 'list' ? (
          <Table<PlantRow>
            rowKey="pid"
            size="middle"
            columns={columns}
            dataSource={list.data?.plant ?? []}
            loading={list.isFetching}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('projects:empty')} /> }}
            pagination={{
              current: paging.current,
              pageSize: paging.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (n) => t('projects:total', { n }),
              onChange: (current, pageSize) => setPaging({ current: pageSize !== paging.pageSize ? 1 : current, pageSize }),
            }}
          />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            {unplaced > 0 && <Alert type="warning" showIcon message={t('projects:unplaced', { n: unplaced })} />}
            <LazyMap markers={markers} height={560} />
          </Space>
        )}
      </Space>
    </Card>
  );
}
