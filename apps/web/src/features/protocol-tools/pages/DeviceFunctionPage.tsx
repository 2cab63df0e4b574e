/**
 * Operator area, deviceFunction (issue 14): which functions each devcode (control fields, device
 * upgrade, debug, acceleration) and each datalogger type (commands, upgrade, debug, acceleration,
 * flow card) offers. The server derives them from the definitions, firmware types and command
 * protocol in code and from the fleet (webQueryDeviceFunctions, webQueryDataloggerTypeFunctions).
 */
import { Flex, Input, Segmented, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DataloggerTypeFunctionRow, DeviceFunctionRow } from '@sunwatch/protocol';
import { enumFilter, useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useDeviceFunctions, useTypeFunctions } from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
const VIEWS = ['devcode', 'datalogger'] as const;
type View = (typeof VIEWS)[number];

interface FnState {
  current: number;
  pageSize: number;
  search: string;
  view: View;
}
const SPEC: ListSpec<FnState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...enumFilter('view', VIEWS, 'devcode'),
};

function Yes({ on, children }: { on: boolean; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Tag color={on ? 'success' : 'default'}>{children ?? t(on ? 'protocolTools:fn.yes' : 'protocolTools:fn.no')}</Tag>
  );
}

const small = { fontSize: 12 } as const;

export default function DeviceFunctionPage() {
  const { t } = useTranslation();
  const [state, update] = useListState(SPEC);
  const paging = { q: state.search, ...wirePaging(state) };
  const devs = useDeviceFunctions(paging);
  const types = useTypeFunctions(paging, state.view === 'datalogger');
  const fw = (keys: string[]) => keys.map((k) => t(`protocolTools:firmwareType.${k}`)).join(', ');
  const table = {
    pager: { state, update, pageSizes: PAGE_SIZES, showTotal: (n: number) => t('protocolTools:total', { n }) },
    errorTitle: t('protocolTools:loadFailed'),
    emptyText: t('protocolTools:empty'),
  };

  const devCols: TableColumnsType<DeviceFunctionRow> = [
    {
      title: t('protocolTools:devcode'),
      key: 'devcode',
      render: (_, r) => (
        <Flex vertical>
          <span>{r.devcode}</span>
          <Typography.Text type="secondary" style={small}>
            {r.name}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('protocolTools:fn.devices'), dataIndex: 'devices', key: 'devices' },
    {
      title: t('protocolTools:fn.controls'),
      key: 'controls',
      render: (_, r) => (
        <Flex vertical gap={2}>
          <Yes on={r.controls.count > 0}>
            {t('protocolTools:fn.controlCount', { n: r.controls.count, readback: r.controls.readback })}
          </Yes>
          {r.controls.count > 0 && (
            <Typography.Text type="secondary" style={small}>
              {r.controls.ids.join(', ')}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('protocolTools:fn.upgrade'),
      key: 'upgrade',
      render: (_, r) => (
        <Typography.Text style={small}>
          {fw(r.upgrade.firmwareTypes)} · {r.upgrade.baudRates.join('/')} bps
        </Typography.Text>
      ),
    },
    {
      title: t('protocolTools:fn.debug'),
      key: 'debug',
      render: (_, r) => r.debug.commands.map((c) => <Tag key={c}>{t(`protocolTools:command.${c}`)}</Tag>),
    },
    {
      title: t('protocolTools:fn.acceleration'),
      key: 'acc',
      render: (_, r) => (
        <Flex gap={4} wrap>
          <Yes on={r.acceleration.energyFlow}>{t('protocolTools:fn.energyFlow')}</Yes>
          <Yes on={r.acceleration.detail}>{t('protocolTools:fn.detail')}</Yes>
          <Typography.Text type="secondary" style={small}>
            {t('protocolTools:fn.parameters', { n: r.acceleration.parameters })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('protocolTools:fn.monitoring'),
      key: 'mon',
      render: (_, r) => (
        <Typography.Text type="secondary" style={small}>
          {t('protocolTools:fn.monitoringText', {
            faults: r.monitoring.faults,
            keys: r.monitoring.keyParameters,
            counters: r.monitoring.energyCounters.length,
          })}
        </Typography.Text>
      ),
    },
  ];
  const typeCols: TableColumnsType<DataloggerTypeFunctionRow> = [
    {
      title: t('protocolTools:fn.typeCode'),
      key: 'type',
      render: (_, r) => r.typeCode || t('protocolTools:fn.noType'),
    },
    { title: t('protocolTools:fn.dataloggers'), dataIndex: 'dataloggers', key: 'n' },
    {
      title: t('protocolTools:fn.comm'),
      key: 'comm',
      render: (_, r) => (
        <Typography.Text style={small}>{[...r.commMethods, ...r.models].join(', ') || '--'}</Typography.Text>
      ),
    },
    { title: t('protocolTools:fn.devcodes'), key: 'devcodes', render: (_, r) => r.devcodes.join(', ') || '--' },
    {
      title: t('protocolTools:fn.commands'),
      key: 'cmds',
      render: (_, r) => r.commands.map((c) => <Tag key={c}>{t(`protocolTools:command.${c}`)}</Tag>),
    },
    {
      title: t('protocolTools:fn.upgrade'),
      key: 'upgrade',
      render: (_, r) => (
        <Typography.Text style={small}>
          {fw(r.upgrade.firmwareTypes)} · {t('protocolTools:fn.defaults', { n: r.defaultFirmwares })}
        </Typography.Text>
      ),
    },
    { title: t('protocolTools:fn.debug'), key: 'debug', render: (_, r) => <Yes on={r.debug} /> },
    { title: t('protocolTools:fn.acceleration'), key: 'acc', render: (_, r) => <Yes on={r.acceleration} /> },
    { title: t('protocolTools:fn.flowCard'), key: 'card', render: (_, r) => <Yes on={r.flowCard} /> },
  ];
  return (
    <Flex vertical gap={12} data-testid="device-function">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('protocolTools:fn.intro')}
      </Typography.Paragraph>
      <Flex gap={12} wrap align="center">
        <Segmented<View>
          value={state.view}
          onChange={(view) => update({ view, search: '' })}
          options={[
            { value: 'devcode', label: t('protocolTools:fn.byDevcode') },
            { value: 'datalogger', label: t('protocolTools:fn.byType') },
          ]}
        />
        <Input.Search
          key={state.view}
          allowClear
          style={{ flex: '1 1 200px', maxWidth: 320 }}
          placeholder={t(state.view === 'devcode' ? 'protocolTools:def.search' : 'protocolTools:fn.typeSearch')}
          defaultValue={state.search}
          onSearch={(v) => update({ search: v })}
        />
      </Flex>
      {state.view === 'devcode' ? (
        <PagedTable
          query={devs}
          rows={devs.data?.rows}
          total={devs.data?.total}
          rowKey="devcode"
          columns={devCols}
          {...table}
        />
      ) : (
        <PagedTable
          query={types}
          rows={types.data?.rows}
          total={types.data?.total}
          rowKey="typeCode"
          columns={typeCols}
          {...table}
        />
      )}
    </Flex>
  );
}
