/**
 * /adminNewStatr/home/device (issue 14, operator only): every device of the platform — PN, SN,
 * devcode, status, owner, manufacturer, datalogger and plant — searched by PN, SN, devcode or
 * owner and filtered by status and manufacturer on the server, paged on the server (list kit: the
 * state is in the address bar). A row opens the device detail page under this list.
 */
import { Card, Flex, Input, Select, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { FleetDeviceRow } from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useIsPhone } from '../../../components/responsive';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { areaFor, deviceDetailPath } from '../../shared/devices/paths';
import { statusFilterOptions } from '../../shared/devices/status';
import {
  FLEET_DEVICE_LIST_SPEC,
  FLEET_PAGE_SIZES,
  fleetDeviceParams,
  useFleetDevices,
  useFleetManufacturers,
} from '../api/queries';

export default function FleetDevicesPage() {
  const { t } = useTranslation(['operatorFleet', 'devices']);
  const phone = useIsPhone();
  const { pathname } = useLocation();
  const area = areaFor(pathname);
  const [state, update] = useListState(FLEET_DEVICE_LIST_SPEC);
  const list = useFleetDevices(fleetDeviceParams(state));
  const makers = useFleetManufacturers();
  const rows = list.data?.device ?? [];
  const dash = (v: string) => v || '--';

  const columns: TableColumnsType<FleetDeviceRow> = [
    {
      title: t('operatorFleet:col.sn'),
      key: 'sn',
      render: (_, d) => {
        const to = deviceDetailPath(area, d);
        return to ? (
          <Link to={to} data-testid="fleet-device-open">
            {d.sn}
          </Link>
        ) : (
          d.sn
        );
      },
    },
    { title: t('operatorFleet:col.pn'), key: 'pn', render: (_, d) => <Typography.Text code>{d.pn}</Typography.Text> },
    { title: t('operatorFleet:col.devcode'), key: 'devcode', dataIndex: 'devcode', width: 90 },
    { title: t('operatorFleet:col.status'), key: 'status', render: (_, d) => <StatusTag status={d.status} /> },
    { title: t('operatorFleet:col.owner'), key: 'usr', render: (_, d) => dash(d.usr) },
    { title: t('operatorFleet:col.manufacturer'), key: 'vendor', render: (_, d) => dash(d.vendorUsr) },
    {
      title: t('operatorFleet:col.datalogger'),
      key: 'collalias',
      responsive: ['lg'],
      render: (_, d) => dash(d.collalias),
    },
    { title: t('operatorFleet:col.plant'), key: 'pname', responsive: ['md'], render: (_, d) => dash(d.pname) },
  ];

  return (
    <Card title={t('operatorFleet:devices.title')} data-testid="fleet-devices-page">
      <Flex vertical gap={16}>
        <Flex wrap gap={8}>
          <Input.Search
            key={state.search}
            allowClear
            defaultValue={state.search}
            placeholder={t('operatorFleet:devices.search')}
            aria-label={t('operatorFleet:devices.search')}
            onSearch={(search) => update({ search })}
            style={{ width: phone ? '100%' : 300 }}
            data-testid="fleet-device-search"
          />
          <Select
            aria-label={t('operatorFleet:col.status')}
            value={state.statusFilter}
            style={{ width: phone ? '100%' : 150 }}
            onChange={(statusFilter) => update({ statusFilter })}
            options={statusFilterOptions().map((o) => ({ value: o.value, label: t(o.labelKey) }))}
            data-testid="fleet-device-status"
          />
          <Select
            aria-label={t('operatorFleet:col.manufacturer')}
            value={state.vendor}
            style={{ width: phone ? '100%' : 200 }}
            showSearch
            optionFilterProp="label"
            loading={makers.isPending}
            onChange={(vendor) => update({ vendor })}
            options={[
              { value: 0, label: t('operatorFleet:devices.allManufacturers') },
              ...(makers.data?.account ?? []).map((a) => ({ value: a.uid, label: a.usr })),
            ]}
            data-testid="fleet-device-vendor"
          />
        </Flex>
        <PagedTable<FleetDeviceRow>
          query={list}
          errorTitle={t('operatorFleet:devices.loadFailed')}
          emptyText={t('operatorFleet:devices.empty')}
          rows={rows}
          total={list.data?.total}
          rowKey={(d) => `${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}`}
          columns={columns}
          size="middle"
          pager={{
            state,
            update,
            pageSizes: FLEET_PAGE_SIZES,
            showTotal: (n) => t('operatorFleet:devices.total', { n }),
          }}
          onRow={(d) => ({ 'data-sn': d.sn })}
        />
      </Flex>
    </Card>
  );
}
