/**
 * The details of one datalogger (spec §3 Datalogger): identity, state, ownership, configuration,
 * location, plant data, flow card and connection info (queryCollectorDetail), the devices behind
 * it (queryCollectorDevices), its log (webQueryCollectorLog) and its operation history
 * (`?dtab=history`: webQueryOperationLog by `pn`, its own operations and its devices', the
 * shared OperationHistory). The buttons are those the server says the caller may use on THIS
 * datalogger (`can`).
 */
import { Suspense, lazy, useMemo, type ComponentType } from 'react';
import { Alert, Button, Descriptions, Drawer, Flex, Skeleton, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { timezoneLabel, type CollectorDetail } from '@sunwatch/protocol';
import { accessFor } from '../../../app/access';
import { api } from '../../../app/api';
import { DATALOGGER_EXTRA_TABS, type DataloggerPanelProps } from '../../../app/datalogger-panels';
import { apiErrorText } from '../../../app/notify';
import { useSession } from '../../../app/use-session';
import { useIsPhone } from '../../../components/responsive';
import { OperationHistory } from '../../shared/operations/OperationHistory';
import { dataloggerKeys } from '../api/keys';
import { useDataloggerDevices } from '../api/queries';
import type { RowAction } from '../model/abilities';
import type { DataloggerRef } from '../model/types';
import { ConnectionInfo } from './ConnectionInfo';
import { DataloggerStatusTag } from './DataloggerStatusTag';
import { LogPanel } from './LogPanel';

/** The drawer tabs other features provide (app/datalogger-panels.ts), loaded when opened. */
const EXTRA_PANELS: ReadonlyMap<string, ComponentType<DataloggerPanelProps>> = new Map(DATALOGGER_EXTRA_TABS.map((d) => [d.key, lazy(d.load)]));

const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '--' : String(v));

function Section({ title, items }: { title: string; items: Array<[string, React.ReactNode]> }) {
  return (
    <Descriptions
      title={title}
      size="small"
      bordered
      column={{ xs: 1, sm: 1, md: 2 }}
      style={{ marginBottom: 16 }}
      items={items.map(([label, children], i) => ({ key: String(i), label, children }))}
    />
  );
}

function InfoTab({ d }: { d: CollectorDetail }) {
  const { t } = useTranslation();
  const yes = (b: boolean) => t(b ? 'dataloggers:detail.yes' : 'dataloggers:detail.no');
  const a = d.address;
  const p = d.profit;
  return (
    <div data-testid="dl-detail-info">
      <Section
        title={t('dataloggers:detail.identity')}
        items={[
          [t('dataloggers:field.pn'), <Typography.Text copyable>{d.pn}</Typography.Text>],
          [t('dataloggers:field.alias'), dash(d.alias)],
          [t('dataloggers:detail.typeCode'), dash(d.typeCode)],
          [t('dataloggers:detail.model'), dash(d.model)],
          [t('dataloggers:detail.commMethod'), dash(d.commMethod)],
          [t('dataloggers:detail.commAddress'), dash(d.commAddress)],
          [t('dataloggers:detail.devcode'), dash(d.devcode || '')],
          [t('dataloggers:detail.onlineDomain'), dash(d.onlineDomain)],
        ]}
      />
      <Section
        title={t('dataloggers:detail.state')}
        items={[
          [t('dataloggers:field.status'), <DataloggerStatusTag status={d.status} />],
          [t('dataloggers:detail.active'), t(d.active ? 'dataloggers:detail.activeYes' : 'dataloggers:detail.activeNo')],
          [t('dataloggers:field.firmware'), dash(d.fireware)],
          [t('dataloggers:field.signal'), d.status === 0 ? `${d.signal} %` : '--'],
          [t('dataloggers:detail.load'), dash(d.load)],
          [t('dataloggers:detail.commBalance'), dash(d.commBalance)],
          [t('dataloggers:field.devices'), d.devices],
          [t('dataloggers:field.lastReport'), dash(d.lts)],
          [t('dataloggers:detail.registered'), dash(d.gts)],
        ]}
      />
      <Section
        title={t('dataloggers:detail.ownership')}
        items={[
          [t('dataloggers:field.owner'), dash(d.usr)],
          [t('dataloggers:detail.admin'), dash(d.adminUsr)],
          [t('dataloggers:detail.vendor'), dash(d.vendorUsr)],
          [t('dataloggers:field.plant'), d.pname || t('dataloggers:unbound')],
        ]}
      />
      <Section
        title={t('dataloggers:detail.configuration')}
        items={[
          [t('dataloggers:edit.timezone'), timezoneLabel(d.timezone)],
          [t('dataloggers:edit.datFetch'), dash(d.datFetch)],
          [t('dataloggers:edit.heartbeat'), dash(d.heartbeat)],
          [t('dataloggers:detail.storageDays'), dash(d.storageDays)],
          [t('dataloggers:detail.polling'), `${d.pollStart} – ${d.pollEnd}`],
          [t('dataloggers:detail.addrRange'), `${d.minAddr} – ${d.maxAddr}`],
          [t('dataloggers:detail.transparent'), yes(d.transparent)],
          [t('dataloggers:detail.protocolSet'), dash(d.protocolSet)],
        ]}
      />
      <Section
        title={t('dataloggers:detail.location')}
        items={[
          [t('dataloggers:edit.country'), dash(a.country)],
          [t('dataloggers:edit.province'), dash(a.province)],
          [t('dataloggers:edit.city'), dash(a.city)],
          [t('dataloggers:edit.county'), dash(a.county)],
          [t('dataloggers:edit.town'), dash(a.town)],
          [t('dataloggers:edit.address'), dash(a.address)],
          [t('dataloggers:detail.coordinates'), a.lon !== null && a.lat !== null ? `${a.lat}, ${a.lon}` : '--'],
        ]}
      />
      <Section
        title={t('dataloggers:detail.plantData')}
        items={[
          [t('dataloggers:edit.nominalPower'), d.nominalPower ? d.nominalPower : '--'],
          [t('dataloggers:edit.installDate'), dash(d.installDate)],
          [t('dataloggers:edit.installer'), dash(d.installer)],
          [t('dataloggers:edit.currency'), dash(p.currency)],
          [t('dataloggers:detail.prices'), `${p.buyProfit} / ${p.sellProfit} / ${p.useProfit} / ${p.genProfit}`],
        ]}
      />
      {d.gprs.ccid ? (
        <Section
          title={t('dataloggers:detail.flowCard')}
          items={[
            [t('dataloggers:detail.ccid'), <Typography.Text copyable>{d.gprs.ccid}</Typography.Text>],
            [t('dataloggers:detail.cardStatus'), <Tag>{t(`dataloggers:detail.card.${d.gprs.card}`, { defaultValue: String(d.gprs.card) })}</Tag>],
            [t('dataloggers:detail.expire'), dash(d.gprs.expire)],
            [t('dataloggers:detail.traffic'), dash(d.gprs.traffic)],
          ]}
        />
      ) : (
        <Alert type="info" showIcon message={t('dataloggers:detail.noCard')} style={{ marginBottom: 16 }} />
      )}
      <Typography.Title level={5}>{t('dataloggers:add.connection')}</Typography.Title>
      <ConnectionInfo detail={d} />
    </div>
  );
}

function DevicesTab({ pn }: { pn: string }) {
  const { t } = useTranslation();
  const devices = useDataloggerDevices(pn);
  if (devices.isError) return <Alert type="error" showIcon message={apiErrorText(devices.error)} />;
  return (
    <Table
      size="small"
      rowKey={(d) => `${d.devcode}:${d.devaddr}:${d.sn}`}
      loading={devices.isFetching}
      dataSource={devices.data ?? []}
      pagination={false}
      locale={{ emptyText: t('dataloggers:detail.devicesEmpty') }}
      data-testid="dl-detail-devices"
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'alias', title: t('dataloggers:detail.device'), render: (_, d) => d.alias || d.sn },
        { key: 'sn', title: t('dataloggers:detail.sn'), dataIndex: 'sn' },
        { key: 'devcode', title: t('dataloggers:detail.devcode'), dataIndex: 'devcode' },
        { key: 'devaddr', title: t('dataloggers:detail.devaddr'), dataIndex: 'devaddr' },
      ]}
    />
  );
}

export default function DataloggerDrawer({
  pn,
  tab,
  onTab,
  onClose,
  onAction,
}: {
  pn: string;
  tab?: string;
  onTab: (tab: string) => void;
  onClose: () => void;
  onAction: (row: DataloggerRef, action: RowAction) => void;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const detail = useQuery({ queryKey: dataloggerKeys.detail(pn), queryFn: () => api.call('queryCollectorDetail', { pn }) });
  const d = detail.data;
  const session = useSession();
  const extra = useMemo(() => DATALOGGER_EXTRA_TABS.filter((p) => p.visible(accessFor(session))), [session]);
  const active = tab === 'devices' || tab === 'log' || tab === 'history' || extra.some((p) => p.key === tab) ? tab : 'info';
  const ref: DataloggerRef | undefined = d && { pn: d.pn, alias: d.alias, status: d.status };
  const buttons: Array<[RowAction, boolean]> = d
    ? [
        ['edit', d.can.edit],
        ['reboot', d.can.reboot],
        ['debug', d.can.debug],
        ['reset', d.can.reset],
        ['unbind', d.can.unbind],
        ['move', d.can.move === true],
        ['delete', d.can.delete],
      ]
    : [];
  return (
    <Drawer
      open
      onClose={onClose}
      width={phone ? '100%' : 860}
      title={
        <Space wrap>
          {t('dataloggers:detail.title', { pn })}
          {d && <DataloggerStatusTag status={d.status} />}
        </Space>
      }
      data-testid="dl-drawer"
      destroyOnHidden
    >
      {detail.isError ? (
        <Alert type="error" showIcon message={t('dataloggers:detail.loadFailed')} description={apiErrorText(detail.error)} />
      ) : !d || !ref ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Flex vertical gap={12}>
          <Space wrap>
            {buttons
              .filter(([, allowed]) => allowed)
              .map(([a]) => (
                <Button
                  key={a}
                  size="small"
                  danger={a === 'reset' || a === 'unbind' || a === 'delete'}
                  onClick={() => onAction(ref, a)}
                  data-testid={`dl-drawer-${a}`}
                >
                  {t(`dataloggers:actions.${a}`)}
                </Button>
              ))}
          </Space>
          <Tabs
            activeKey={active}
            onChange={onTab}
            items={[
              { key: 'info', label: t('dataloggers:detail.tabs.info'), children: <InfoTab d={d} /> },
              { key: 'devices', label: t('dataloggers:detail.tabs.devices'), children: <DevicesTab pn={pn} /> },
              { key: 'log', label: t('dataloggers:detail.tabs.log'), children: <LogPanel pn={pn} timezone={d.timezone} /> },
              {
                key: 'history',
                label: t('dataloggers:detail.tabs.history'),
                children: <OperationHistory pn={pn} queryKey={dataloggerKeys.history({})} />,
              },
              ...extra.map((p) => {
                const Panel = EXTRA_PANELS.get(p.key)!;
                return {
                  key: p.key,
                  label: t(p.titleKey),
                  children: (
                    <Suspense fallback={<Skeleton active />}>
                      <Panel pn={pn} version={d.fireware} />
                    </Suspense>
                  ),
                };
              }),
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}
