/**
 * The device list of spec §2 "Device screens": card, list and map modes; search by device
 * (SN / alias) or datalogger (PN); status filter ("all" at 0, the rest shifted); follow star;
 * server-side paging. Its state lives in the address bar.
 */
import { lazy, Suspense } from 'react';
import { Card, Checkbox, Flex, Input, List, Pagination, Segmented, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { AppstoreOutlined, EnvironmentOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import {
  ListStates,
  emptyLocale,
  gridLoading,
  listPagination,
  tableLoading,
  useListState,
} from '../../../../components/list';
import { useIsPhone } from '../../../../components/responsive';
import { currentLocale } from '../../../../i18n';
import { formatMoney } from '../../charts/format';
import { useDeviceList } from '../api/queries';
import { DEVICE_LIST_SPEC, PAGE_SIZES, deviceListParams, type ListMode } from '../api/list-params';
import { areaFor, deviceDetailPath } from '../paths';
import { statusColor, statusFilterOptions } from '../status';
import { generates } from '../figures';
import { DeviceFigures } from './DeviceFigures';
import { FollowStar } from './FollowStar';
import { StatusTag } from './StatusTag';

const DeviceTable = lazy(() => import('./DeviceTable'));
const DeviceMap = lazy(() => import('./DeviceMap'));

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
  const phone = useIsPhone();
  const rows = list.data?.device ?? [];
  const total = list.data?.total ?? 0;
  const detail = (d: DeviceRow) => deviceDetailPath(area, d) ?? pathname;

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

  let body: React.ReactNode;
  if (state.mode === 'list') {
    body = (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
        <DeviceTable rows={rows} detail={detail} loading={tableLoading(list)} pagination={paging} phone={phone} />
      </Suspense>
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
    body = (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
        <DeviceMap rows={rows} detail={detail} total={total} loading={list.isPending} />
      </Suspense>
    );
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
