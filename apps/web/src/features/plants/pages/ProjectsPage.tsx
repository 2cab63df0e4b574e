/**
 * Projects (plants): list and map views with the plant totals — today's and total energy,
 * current power, status (/adminNew/project, /generalNew/project). A plant's name opens its page;
 * owners and administrators create, edit and delete plants here (viewers see no write button).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, Dropdown, Flex, Input, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, EnvironmentOutlined, MoreOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ListStates, emptyLocale, listPagination, responsiveTable, tableLoading, useListState } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { currentLocale } from '../../../i18n';
import { NO_VALUE, formatEnergy, formatNumber, formatPower, toNumber } from '../../shared/charts/format';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { areaFor, deviceListPath } from '../../shared/devices/paths';
import { statusColor, statusFilterOptions } from '../../shared/devices/status';
import { toGeoPoint } from '../../shared/maps/basemap';
import { LazyMap, type MapMarker } from '../../shared/maps/LazyMap';
import { usePlantList, usePlantsMap } from '../../shared/plants/api/queries';
import { plantPathFrom } from '../../shared/plants/paths';
import { useDeletePlant } from '../components/use-delete-plant';
import { usePlantWriteAccess } from '../components/use-plant-writes-access';
import { PROJECTS_LIST_SPEC, PROJECTS_PAGE_SIZES, plantListParams, plantMapParams, type ProjectsView } from '../api/list-params';

const PlantFormDialog = lazy(() => import('../components/PlantFormDialog'));
const EditPlantDialog = lazy(() => import('../components/EditPlantDialog'));

/** Below 0.5 W the grid exchange is idle (the energy flow's deadband). */
const GRID_IDLE_KW = 0.0005;

type PlantRow = ResultOf<Catalogue['webQueryPlants']>['plant'][number];

export default function ProjectsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = currentLocale();
  const phone = useIsPhone();
  const devicesPath = deviceListPath(areaFor(pathname));
  const [state, update] = useListState(PROJECTS_LIST_SPEC);
  const { view } = state;
  const list = usePlantList(plantListParams(state), view === 'list');
  const map = usePlantsMap(plantMapParams(state), view === 'map');
  const devicesOf = (pid: number) => (devicesPath ? `${devicesPath}?mode=list&pid=${pid}` : undefined);
  const pageOf = (pid: number) => plantPathFrom(pathname, pid);
  const navigate = useNavigate();
  const access = usePlantWriteAccess();
  const confirmDelete = useDeletePlant();
  const [creating, setCreating] = useState(false);
  const [editPid, setEditPid] = useState<number>();

  /** Grid exchange without a sign to decode: "1.2 kW · importing" / "0.4 kW · exporting"; "--" unknown. */
  const gridText = (v: string) => {
    const kw = toNumber(v);
    if (kw === undefined) return NO_VALUE;
    const power = formatPower(Math.abs(kw), locale);
    if (Math.abs(kw) < GRID_IDLE_KW) return power;
    return `${power} · ${t(kw > 0 ? 'projects:grid.importing' : 'projects:grid.exporting')}`;
  };

  const columns: TableColumnsType<PlantRow> = [
    {
      title: t('projects:field.name'),
      key: 'name',
      render: (_, p) => {
        const to = pageOf(p.pid);
        return to ? (
          <Link to={to} data-testid="plant-link">
            {p.name}
          </Link>
        ) : (
          p.name
        );
      },
    },
    { title: t('projects:field.status'), key: 'status', render: (_, p) => <StatusTag status={p.status} /> },
    { title: t('projects:field.power'), key: 'power', align: 'right', render: (_, p) => formatPower(p.outputPower, locale) },
    { title: t('projects:field.consumption'), key: 'load', align: 'right', render: (_, p) => <span data-testid="plant-load">{formatPower(p.loadPower, locale)}</span> },
    { title: t('projects:field.grid'), key: 'grid', align: 'right', responsive: ['md'], render: (_, p) => <span data-testid="plant-grid">{gridText(p.gridPower)}</span> },
    { title: t('projects:field.nominalPower'), key: 'nominal', align: 'right', responsive: ['lg'], render: (_, p) => formatPower(p.nominalPower, locale) },
    { title: t('projects:field.energyToday'), key: 'today', align: 'right', render: (_, p) => formatEnergy(p.energy, locale) },
    { title: t('projects:field.energyUsed'), key: 'used', align: 'right', responsive: ['lg'], render: (_, p) => <span data-testid="plant-used">{formatEnergy(p.energyUsed, locale)}</span> },
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
    ...(access.write
      ? [
          {
            title: t('plants:actions.title'),
            key: 'actions',
            width: 56,
            render: (_: unknown, p: PlantRow) => (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    ...(access.edit ? [{ key: 'edit', icon: <EditOutlined />, label: t('plants:actions.edit') }] : []),
                    ...(access.remove
                      ? [{ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('plants:actions.delete') }]
                      : []),
                  ],
                  onClick: ({ key }) => (key === 'edit' ? setEditPid(p.pid) : confirmDelete(p)),
                }}
              >
                <Button type="text" icon={<MoreOutlined />} aria-label={t('plants:actions.more', { name: p.name })} data-testid="plant-actions" />
              </Dropdown>
            ),
          },
        ]
      : []),
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
                <Space size={12} wrap>
                  {pageOf(p.pid) && <Link to={pageOf(p.pid)!}>{t('plants:actions.open')}</Link>}
                  {to && <Link to={to}>{t('projects:openDevices')}</Link>}
                </Space>
              </div>
            ),
          },
        ];
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- devicesOf and pageOf depend on the path only
    [map.data, t, locale, devicesPath, pathname],
  );
  const unplaced = (map.data?.plant.length ?? 0) - markers.length;

  return (
    <Card
      title={t('projects:title')}
      extra={
        access.create && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="plant-create">
            {t('plants:actions.create')}
          </Button>
        )
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap={12} justify="space-between">
          <Space wrap>
            <Input.Search
              key={state.search}
              allowClear
              defaultValue={state.search}
              placeholder={t('projects:search')}
              onSearch={(search) => update({ search })}
              style={{ width: 240 }}
            />
            <Select
              aria-label={t('projects:field.status')}
              value={state.statusFilter}
              style={{ width: 150 }}
              onChange={(statusFilter) => update({ statusFilter })}
              options={statusFilterOptions().map((o) => ({ value: o.value, label: t(o.labelKey) }))}
            />
          </Space>
          <Segmented<ProjectsView>
            value={view}
            // the view keeps the page (paging is the list view's own)
            onChange={(v) => update({ view: v, current: state.current })}
            options={[
              { value: 'list', icon: <UnorderedListOutlined />, label: t('projects:views.list') },
              { value: 'map', icon: <EnvironmentOutlined />, label: t('projects:views.map') },
            ]}
          />
        </Flex>
        <ListStates query={view === 'list' ? list : map} errorTitle={t('projects:loadFailed')}>
          {view === 'list' ? (
            <Table<PlantRow>
              rowKey="pid"
              size="middle"
              // desktop: the table is as wide as its card (headers wrap), no column cut off; phone: the
              // plant name stays pinned and the figures scroll inside the table, never the page
              {...responsiveTable(columns, phone)}
              dataSource={list.data?.plant ?? []}
              loading={tableLoading(list)}
              locale={emptyLocale(t('projects:empty'))}
              pagination={listPagination(state, list.data?.total ?? 0, update, {
                pageSizes: PROJECTS_PAGE_SIZES,
                showTotal: (n) => t('projects:total', { n }),
              })}
            />
          ) : (
            <Space direction="vertical" style={{ width: '100%' }}>
              {unplaced > 0 && <Alert type="warning" showIcon message={t('projects:unplaced', { n: unplaced })} />}
              <LazyMap markers={markers} height={560} />
            </Space>
          )}
        </ListStates>
      </Space>
      <Suspense fallback={null}>
        {creating && (
          <PlantFormDialog
            open={creating}
            chooseOwner={access.chooseOwner}
            onClose={() => setCreating(false)}
            onSaved={(pid) => {
              const to = pageOf(pid);
              if (to) void navigate(to);
            }}
          />
        )}
        {editPid !== undefined && <EditPlantDialog pid={editPid} onClose={() => setEditPid(undefined)} />}
      </Suspense>
    </Card>
  );
}
