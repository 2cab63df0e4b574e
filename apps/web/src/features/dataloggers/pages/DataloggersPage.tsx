/**
 * Datalogger management (spec §2 "Datalogger", §4, §5): /adminNew/setting/datalogger,
 * /generalNew/setting/datalogger and the operator's /adminNewStatr/home/datalogger. A server-paged
 * list (search by PN or alias, status and plant filters in the address bar) with status, signal,
 * firmware, last report and plant; add (single and batch), and per row the actions the account
 * may use: details, edit, reboot, debug, log, reset and unbind (typed YES), delete, and for the
 * operator the move to another manufacturer or owner (issue 14). The details
 * drawer is in the address bar too (`detail=<PN>`), so it survives a reload and can be shared.
 */
import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Dropdown,
  Flex,
  Input,
  Select,
  Space,
  Table,
  type MenuProps,
  type TableColumnsType,
} from 'antd';
import { DownOutlined, PlusOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { WebCollectorRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListStates, emptyLocale, listPagination, pinLeading, responsiveTable, tableLoading, useListState } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { DATALOGGER_LIST_SPEC, PAGE_SIZES, dataloggerListParams } from '../api/list-params';
import { useDataloggerList } from '../api/queries';
import { DataloggerStatusTag } from '../components/DataloggerStatusTag';
import { rowActions, useDataloggerAbilities, type RowAction } from '../model/abilities';
import { SignalBars } from '../components/SignalBars';
import type { DataloggerRef } from '../model/types';

// Dialogs and the drawer load when first opened, not with the list.
const AddDataloggerDialog = lazy(() => import('../components/AddDataloggerDialog'));
const DataloggerDrawer = lazy(() => import('../components/DataloggerDrawer'));
const actionDialogs = () => import('../components/ActionDialogs');
const EditDataloggerDialog = lazy(() => import('../components/EditDataloggerDialog'));
const ConfirmYesDialog = lazy(() => actionDialogs().then((m) => ({ default: m.ConfirmYesDialog })));
const RebootDialog = lazy(() => actionDialogs().then((m) => ({ default: m.RebootDialog })));
const DeleteDialog = lazy(() => actionDialogs().then((m) => ({ default: m.DeleteDialog })));
const DebugDialog = lazy(() => import('../components/DebugDialog'));
const MoveDataloggerDialog = lazy(() => import('../components/MoveDataloggerDialog'));

/**
 * The list has many columns and sits in the settings layout: the PN stays pinned at the left and,
 * on a desktop, the actions at the right while the figures scroll between them.
 */
function dataloggerTableLayout(columns: TableColumnsType<WebCollectorRow>, phone: boolean) {
  if (phone) return responsiveTable(columns, phone, 1);
  return {
    columns: pinLeading(columns, 1).map((c) => (c.key === 'actions' ? { ...c, fixed: 'right' as const } : c)),
    scroll: { x: 'max-content' as const },
  };
}

type Dialog =
  | { kind: 'add'; tab: 'single' | 'batch' }
  | { kind: Exclude<RowAction, 'details' | 'log'>; row: DataloggerRef };

export default function DataloggersPage() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const abilities = useDataloggerAbilities();
  const [state, update] = useListState(DATALOGGER_LIST_SPEC, { keep: ['detail', 'dtab'] });
  const [params, setParams] = useSearchParams();
  const list = useDataloggerList(dataloggerListParams(state));
  const rows = list.data?.collector ?? [];
  const [dialog, setDialog] = useState<Dialog>();
  const detail = params.get('detail') ?? undefined;
  const detailTab = params.get('dtab') ?? undefined;

  const openDetail = (pn: string | undefined, tab?: string) => {
    const next = new URLSearchParams(params);
    if (pn) next.set('detail', pn);
    else next.delete('detail');
    if (pn && tab) next.set('dtab', tab);
    else next.delete('dtab');
    setParams(next, { replace: true });
  };

  const onRowAction = (row: DataloggerRef, action: RowAction) => {
    if (action === 'details') openDetail(row.pn);
    else if (action === 'log') openDetail(row.pn, 'log');
    else setDialog({ kind: action, row: { pn: row.pn, alias: row.alias, status: row.status } });
  };

  const menuOf = (row: WebCollectorRow): MenuProps['items'] =>
    rowActions(abilities).map((a) => ({
      key: a,
      label: t(`dataloggers:actions.${a}`),
      danger: a === 'reset' || a === 'unbind' || a === 'delete',
      onClick: () => onRowAction(row, a),
    }));

  const ownerColumn: TableColumnsType<WebCollectorRow> = [
    { title: t('dataloggers:field.owner'), key: 'usr', responsive: ['lg'], render: (_, r) => r.usr || '--' },
  ];
  const columns: TableColumnsType<WebCollectorRow> = [
    {
      title: t('dataloggers:field.pn'),
      key: 'pn',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => openDetail(r.pn)} style={{ padding: 0 }} data-testid="dl-open">
          {r.pn}
        </Button>
      ),
    },
    { title: t('dataloggers:field.alias'), key: 'alias', render: (_, r) => r.alias || '--' },
    { title: t('dataloggers:field.status'), key: 'status', render: (_, r) => <DataloggerStatusTag status={r.status} /> },
    {
      title: t('dataloggers:field.signal'),
      key: 'signal',
      responsive: ['md'],
      render: (_, r) =>
        r.status === 0 ? (
          <SignalBars percent={r.signal} label={t('dataloggers:field.signal')} />
        ) : (
          '--'
        ),
    },
    { title: t('dataloggers:field.firmware'), key: 'fw', responsive: ['lg'], render: (_, r) => r.fireware || '--' },
    { title: t('dataloggers:field.lastReport'), key: 'lts', responsive: ['md'], render: (_, r) => r.lts || '--' },
    { title: t('dataloggers:field.plant'), key: 'plant', render: (_, r) => r.pname || t('dataloggers:unbound') },
    ...(abilities.admin ? ownerColumn : []),
    { title: t('dataloggers:field.devices'), key: 'devices', align: 'right', responsive: ['md'], render: (_, r) => r.devices },
    {
      title: t('dataloggers:field.actions'),
      key: 'actions',
      render: (_, r) => (
        <Dropdown menu={{ items: menuOf(r) }} trigger={['click']}>
          <Button size="small" data-testid={`dl-actions-${r.pn}`}>
            <Space size={4}>
              {t('dataloggers:actions.more')}
              <DownOutlined />
            </Space>
          </Button>
        </Dropdown>
      ),
    },
  ];

  const close = () => setDialog(undefined);
  const row = dialog && 'row' in dialog ? dialog.row : undefined;

  return (
    <Card title={t('dataloggers:title')} data-testid="dataloggers-page">
      <Flex vertical gap={16}>
        {abilities.readOnly && <Alert type="info" showIcon message={t('dataloggers:readOnly')} />}
        <Flex wrap gap={12} justify="space-between">
          <Space wrap>
            <Input.Search
              key={state.search}
              allowClear
              defaultValue={state.search}
              placeholder={t('dataloggers:search')}
              onSearch={(search) => update({ search })}
              style={{ width: phone ? '100%' : 260 }}
              data-testid="dl-search"
            />
            <Select
              aria-label={t('dataloggers:field.status')}
              value={state.statusFilter}
              style={{ width: 140 }}
              onChange={(statusFilter) => update({ statusFilter })}
              options={[
                { value: 0, label: t('dataloggers:status.all') },
                { value: 1, label: t('dataloggers:status.online') },
                { value: 2, label: t('dataloggers:status.offline') },
              ]}
              data-testid="dl-status-filter"
            />
            <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching} data-testid="dl-refresh">
              {t('dataloggers:refresh')}
            </Button>
          </Space>
          {(abilities.add || abilities.batch) && (
            <Space wrap>
              {abilities.add && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add', tab: 'single' })} data-testid="dl-add">
                  {t('dataloggers:add.single')}
                </Button>
              )}
              {abilities.batch && (
                <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'add', tab: 'batch' })} data-testid="dl-add-batch">
                  {t('dataloggers:add.batch')}
                </Button>
              )}
            </Space>
          )}
        </Flex>
        <ListStates query={list} errorTitle={t('dataloggers:loadFailed')}>
          <Table<WebCollectorRow>
            rowKey="pn"
            size="middle"
            dataSource={rows}
            loading={tableLoading(list)}
            locale={emptyLocale(t('dataloggers:empty'))}
            pagination={listPagination(state, list.data?.total ?? 0, update, {
              pageSizes: PAGE_SIZES,
              showTotal: (n) => t('dataloggers:total', { n }),
            })}
            onRow={(r) => ({ 'data-pn': r.pn }) as React.HTMLAttributes<HTMLElement>}
            {...dataloggerTableLayout(columns, phone)}
          />
        </ListStates>
      </Flex>
      <Suspense fallback={null}>
        {detail && (
          <DataloggerDrawer
            pn={detail}
            tab={detailTab}
            onTab={(tab) => openDetail(detail, tab)}
            onClose={() => openDetail(undefined)}
            onAction={(r, a) => onRowAction(r, a)}
          />
        )}
      </Suspense>
      <Suspense fallback={null}>
        {dialog?.kind === 'add' && <AddDataloggerDialog initialTab={dialog.tab} onClose={close} />}
        {dialog?.kind === 'edit' && row && <EditDataloggerDialog pn={row.pn} onClose={close} />}
        {(dialog?.kind === 'reset' || dialog?.kind === 'unbind') && row && (
          <ConfirmYesDialog kind={dialog.kind} row={row} onClose={close} />
        )}
        {dialog?.kind === 'reboot' && row && <RebootDialog row={row} onClose={close} />}
        {dialog?.kind === 'delete' && row && <DeleteDialog row={row} onClose={close} />}
        {dialog?.kind === 'debug' && row && <DebugDialog row={row} onClose={close} />}
        {dialog?.kind === 'move' && row && <MoveDataloggerDialog row={row} onClose={close} />}
      </Suspense>
    </Card>
  );
}
