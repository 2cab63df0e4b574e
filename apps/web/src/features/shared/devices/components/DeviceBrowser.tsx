/**
 * The device list of spec §2 "Device screens": card, list and map modes; search by device
 * (SN / alias) or datalogger (PN); status filter ("all" at 0, the rest shifted); follow star;
 * server-side paging. Its state lives in the address bar.
 */
import { useMemo } from 'react';
import {
  Alert,
  Card,
  Checkbox,
  Flex,
  Input,
  List,
  Pagination,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { AppstoreOutlined, EnvironmentOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import {
  ListStates,
  emptyLocale,
  gridLoading,
  listPagination,
  responsiveTable,
  tableLoading,
  useListState,
} from '../../../../components/list';
import { useIsPhone } from '../../../../components/responsive';
import { currentLocale } from '../../../../i18n';
import { formatMoney } from '../../charts/format';
import { toGeoPoint } from '../../maps/basemap';
import { LazyMap, type MapMarker } from '../../maps/LazyMap';
import { usePlantsMap } from '../../plants/api/queries';
import { useDeviceList } from '../api/queries';
import { DEVICE_LIST_SPEC, PAGE_SIZES, deviceListParams, type ListMode } from '../api/list-params';
import { areaFor, deviceDetailPath } from '../paths';
import { statusColor, statusFilterOptions } from '../status';
import { generates } from '../figures';
import { DeviceFigures } from './DeviceFigures';
import { FollowStar } from './FollowStar';
import { StatusTag } from './StatusTag';

export type DeviceRow = ResultOf<Catalogue['webQueryDeviceEs']>['device'][number];

export interface DeviceBrowserProps {
  /** Modes offered (the classic homes show card and list only). */
  modes?: readonly ListMode[];
  /** Page size when the address bar has none. */
  title?: string;
}

export function DeviceBrowser({ modes = ['card', 'list', 'map'], title }: DeviceBrowserProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const area = areaFor(pathname);
  const [rawState, update] = useListState(DEVICE_LIST_SPEC);
  const state = modes.includes(rawState.mode) ? rawState : { ...rawState, mode: modes[0]! };
  const params = deviceListParams(state);
  const list = useDeviceList(params);
  const locale = currentLocale();
  const phone = useIsPhone();
  const rows = list.data?.device ?? [];
  const total = list.data?.total ?? 0;
  const detail = (d: DeviceRow) => deviceDetailPath(area, d) ?? pathname;
  const name = (d: DeviceRow) => d.devalias || d.sn;

  const modeIcon = { card: <AppstoreOutlined />, list: <UnorderedListOutlined />, map: <EnvironmentOutlined /> };
  const toolbar = (
    <Flex wrap gap={12} align="center" justify="space-between">
      <Flex wrap gap={8} align="center" style={{ minWidth: 0 }}>
        {/* on a phone the search takes the full row: scope select plus a field that shrinks */}
        <Space.Compact style={phone ? { width: '100%' } : undefined}>
          <Select
            aria-label={t('devices:search.scope')}
            data-testid="device-search-scope"
            value={state.scope}
            style={{ width: phone ? 116 : 130, flex: 'none' }}
            onChange={(scope) => update({ scope })}
            options={[
              { value: 'device', label: t('devices:search.byDevice') },
              { value: 'datalogger', label: t('devices:search.byDatalogger') },
            ]}
          />
          <Input.Search
            key={`${state.scope}:${state.search}`}
            allowClear
            defaultValue={state.search}
            placeholder={state.scope === 'device' ? t('devices:search.devicePlaceholder') : t('devices:search.dataloggerPlaceholder')}
            onSearch={(search) => update({ search })}
            data-testid="device-search"
            style={phone ? { flex: 1, minWidth: 0 } : { width: 240 }}
          />
        </Space.Compact>
        <Select
          aria-label={t('devices:filter.status')}
          data-testid="device-status-filter"
          value={state.statusFilter}
          style={{ width: 150 }}
          onChange={(statusFilter) => update({ statusFilter })}
          options={statusFilterOptions().map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
        <Checkbox checked={state.followed} onChange={(e) => update({ followed: e.target.checked })}>
          {t('devices:filter.followed')}
        </Checkbox>
        {state.pid ? (
          <Tag closable onClose={() => update({ pid: undefined })}>
            {t('devices:filter.plant', { id: state.pid })}
          </Tag>
        ) : null}
      </Flex>
      {modes.length > 1 && (
        <Segmented<ListMode>
          value={state.mode}
          onChange={(mode) => update({ mode, current: 1 })}
          data-testid="device-mode"
          options={modes.map((m) => ({ value: m, icon: modeIcon[m], label: t(`devices:mode.${m}`) }))}
        />
      )}
    </Flex>
  );

  const paging = listPagination(state, total, update, {
    pageSizes: PAGE_SIZES,
    showTotal: (n) => t('devices:list.total', { n }),
  });

  const columns: TableColumnsType<DeviceRow> = [
    {
      key: 'focus',
      width: 48,
      render: (_, d) => <FollowStar device={d} followed={d.focus} />,
    },
    {
      title: t('devices:field.name'),
      key: 'name',
      render: (_, d) => <Link to={detail(d)}>{name(d)}</Link>,
    },
    { title: t('devices:field.sn'), dataIndex: 'sn', key: 'sn' },
    { title: t('devices:field.pn'), dataIndex: 'pn', key: 'pn', responsive: ['md'] },
    { title: t('devices:field.plant'), dataIndex: 'pname', key: 'pname', responsive: ['lg'] },
    { title: t('devices:field.status'), key: 'status', render: (_, d) => <StatusTag status={d.status} /> },
    {
      title: t('devices:field.figures'),
      key: 'figures',
      render: (_, d) => <DeviceFigures figures={d.figures} variant="inline" />,
    },
    {
      title: t('devices:field.incomeToday'),
      key: 'income',
      align: 'right',
      responsive: ['lg'],
      render: (_, d) => (generates(d.figures) ? formatMoney(d.profitToday, locale, d.currency) : '--'),
    },
    { title: t('devices:field.lastUpdate'), dataIndex: 'lts', key: 'lts', responsive: ['xl'], render: (v: string) => v || '--' },
  ];

  let body: React.ReactNode;
  if (state.mode === 'list') {
    body = (
      <Table<DeviceRow>
        data-testid="device-table"
        rowKey={(d) => `${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}`}
        // phone: star and name stay pinned while the figures scroll inside the table
        {...responsiveTable(columns, phone, 2)}
        dataSource={rows}
        loading={tableLoading(list)}
        pagination={paging}
        locale={emptyLocale(t('devices:list.empty'))}
        size="middle"
      />
    );
  } else if (state.mode === 'card') {
    body = (
      <div data-testid="device-cards">
        <List<DeviceRow>
          grid={{ gutter: 16, xs: 1, sm: 2, md: 2, lg: 3, xl: 3, xxl: 4 }}
          dataSource={rows}
          loading={gridLoading(list)}
          locale={emptyLocale(t('devices:list.empty'))}
          rowKey={(d) => `${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}`}
          renderItem={(d) => (
            <List.Item>
              <DeviceCard d={d} to={detail(d)} />
            </List.Item>
          )}
        />
        {total > 0 && (
          <Flex justify="end">
            <Pagination {...paging} />
          </Flex>
        )}
      </div>
    );
  } else {
    body = <DeviceMap rows={rows} detail={detail} total={total} loading={list.isPending} />;
  }

  return (
    <Card title={title} data-testid="device-browser" data-mode={state.mode}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {toolbar}
        <ListStates query={list} errorTitle={t('devices:list.loadFailed')}>
          {body}
        </ListStates>
      </Space>
    </Card>
  );
}

function DeviceCard({ d, to }: { d: DeviceRow; to: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <Card
      size="small"
      hoverable
      data-testid="device-card"
      data-sn={d.sn}
      data-status={d.status}
      title={
        <Link to={to} style={{ color: 'inherit' }}>
          {d.devalias || d.sn}
        </Link>
      }
      extra={
        <Space size={4}>
          <StatusTag status={d.status} />
          <FollowStar device={d} followed={d.focus} />
        </Space>
      }
      style={{ borderTop: `3px solid ${statusColor(d.status)}` }}
    >
      <DeviceFigures figures={d.figures} variant="grid" />
      {generates(d.figures) && (
        <div style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">{t('devices:field.incomeToday')}</Typography.Text>
          <div>{formatMoney(d.profitToday, locale, d.currency)}</div>
        </div>
      )}
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }} ellipsis>
        {t('devices:field.sn')}: {d.sn} · {t('devices:field.pn')}: {d.pn}
        {d.pname ? ` · ${d.pname}` : ''}
      </Typography.Paragraph>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('devices:field.lastUpdate')}: {d.lts || '--'}
      </Typography.Text>
    </Card>
  );
}

/** Map mode: one pin per plant of the listed devices, its devices in the popup. */
function DeviceMap({
  rows,
  detail,
  total,
  loading,
}: {
  rows: DeviceRow[];
  detail: (d: DeviceRow) => string;
  total: number;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const plants = usePlantsMap({});
  const markers = useMemo<MapMarker[]>(() => {
    const byPlant = new Map<number, DeviceRow[]>();
    for (const d of rows) byPlant.set(d.pid, [...(byPlant.get(d.pid) ?? []), d]);
    const out: MapMarker[] = [];
    for (const p of plants.data?.plant ?? []) {
      const devices = byPlant.get(p.pid);
      const point = toGeoPoint(p.lat, p.lon);
      if (!devices || !point) continue;
      // The worst status of the plant's listed devices colours the pin.
      const worst = devices.map((d) => d.status).sort((a, b) => severity(b) - severity(a))[0] ?? p.status;
      out.push({
        id: String(p.pid),
        ...point,
        color: statusColor(worst),
        popup: (
          <div>
            <Typography.Text strong>{p.name}</Typography.Text>
            <ul style={{ paddingLeft: 16, margin: '4px 0 0' }}>
              {devices.map((d) => (
                <li key={`${d.pn}/${d.devaddr}/${d.sn}`}>
                  <Link to={detail(d)}>{d.devalias || d.sn}</Link> <StatusTag status={d.status} />
                </li>
              ))}
            </ul>
          </div>
        ),
      });
    }
    return out;
  }, [rows, plants.data, detail]);
  const unplaced = rows.length - markers.reduce((n, m) => n + (rows.filter((d) => String(d.pid) === m.id).length || 0), 0);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!loading && total > rows.length && <Alert type="info" showIcon message={t('devices:map.truncated', { shown: rows.length, total })} />}
      {!loading && unplaced > 0 && <Alert type="warning" showIcon message={t('devices:map.unplaced', { n: unplaced })} />}
      <LazyMap markers={markers} height={520} />
    </Space>
  );
}

/** Fault/error first, then warning, offline, standby, normal. */
function severity(status: number): number {
  return [0, 2, 5, 1, 4, 6, 3][status] ?? 0;
}
