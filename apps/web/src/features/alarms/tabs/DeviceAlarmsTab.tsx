/**
 * The alarm tab of the device detail (spec §2 device detail "alarm info"): the device's alarms,
 * ongoing, ended or all, newest first and server-paged, with the status and who processed them;
 * accounts that may handle alarms mark one or many processed. Links to the area's alarm list
 * filtered to the device where the account may open it.
 */
import { lazy, Suspense, useState } from 'react';
import { Button, Flex, Segmented, Space } from 'antd';
import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { accessFor } from '../../../app/access';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { areaOfPath } from '../../../app/routes';
import { useSession } from '../../../app/use-session';
import { ListStates, tableLoading } from '../../../components/list';
import { alarmListPath } from '../../shared/alarms/paths';
import { useDeviceAlarms } from '../api/device-queries';
import { AlarmTable } from '../components/AlarmTable';
import { useAlarmAbilities } from '../model/abilities';

const HandleDialog = lazy(() => import('../components/HandleDialog'));

type View = 'current' | 'history' | 'all';
const STATE: Record<View, number> = { current: 1, history: 2, all: 0 };

export default function DeviceAlarmsTab({ device }: DeviceTabProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const abilities = useAlarmAbilities();
  const session = useSession();
  const [view, setView] = useState<View>('all');
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [selected, setSelected] = useState<number[]>([]);
  const [handling, setHandling] = useState<number[]>();
  const list = useDeviceAlarms({
    pn: device.pn,
    devcode: Number(device.devcode),
    devaddr: Number(device.devaddr),
    sn: device.sn,
    state: STATE[view],
    page: page.current - 1,
    pagesize: page.pageSize,
  });
  const rows = list.data?.warning ?? [];
  const open = selected.filter((id) => rows.some((r) => r.id === id && !r.handle));
  const listPath = accessFor(session).hasModule('alarm_manag') ? alarmListPath(areaOfPath(pathname)) : undefined;

  return (
    <Flex vertical gap={12} data-testid="device-alarms">
      <Flex wrap gap={8} justify="space-between" align="center">
        <Segmented<View>
          value={view}
          onChange={(v) => {
            setView(v);
            setPage((p) => ({ ...p, current: 1 }));
            setSelected([]);
          }}
          options={[
            { value: 'all', label: t('alarms:device.all') },
            { value: 'current', label: t('alarms:tabs.current') },
            { value: 'history', label: t('alarms:tabs.history') },
          ]}
          data-testid="device-alarms-view"
        />
        <Space wrap>
          {abilities.handle && (
            <Button icon={<CheckOutlined />} disabled={open.length === 0} onClick={() => setHandling(open)}>
              {t('alarms:handle.selected', { n: open.length })}
            </Button>
          )}
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching}>
            {t('alarms:refresh')}
          </Button>
          {listPath && (
            <Link to={`${listPath}?pn=${encodeURIComponent(device.pn)}&sn=${encodeURIComponent(device.sn)}`} data-testid="device-alarms-list-link">
              {t('alarms:device.openList')}
            </Link>
          )}
        </Space>
      </Flex>
      <ListStates query={list} errorTitle={t('alarms:loadFailed')}>
        <AlarmTable
          rows={rows}
          scope="device"
          loading={tableLoading(list)}
          emptyText={t('alarms:empty')}
          ended
          canHandle={abilities.handle}
          selected={open}
          onSelect={setSelected}
          onHandle={setHandling}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showTotal: (n) => t('alarms:total', { n }),
            onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
          }}
        />
      </ListStates>
      <Suspense fallback={null}>
        {handling && <HandleDialog ids={handling} onClose={() => setHandling(undefined)} onDone={() => setSelected([])} />}
      </Suspense>
    </Flex>
  );
}
