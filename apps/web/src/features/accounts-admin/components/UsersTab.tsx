/**
 * The users list (spec §2 "Account management"): server-paged webQueryUsrEs with search and the
 * role / group / enabled / dealer-code filters, counts per account, the enabled switch, and the
 * row actions the caller's function buttons allow (hidden otherwise; the server refuses anyway).
 */
import { lazy, Suspense, useState } from 'react';
import {
  Button,
  Dropdown,
  Flex,
  Input,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  type MenuProps,
  type TableColumnsType,
} from 'antd';
import { DownOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ROLE, type AccountListRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import {
  ListStates,
  emptyLocale,
  listPagination,
  pinLeading,
  responsiveTable,
  tableLoading,
  useListState,
} from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { PAGE_SIZES, USERS_LIST_SPEC, usersListParams } from '../api/list-params';
import { useAdminMutation, useGroups, useUsersList } from '../api/queries';
import type { Target } from './DistributeDialog';
import { isDealerRow, type RowDialog } from './row-kinds';
import { deleteErrorText } from './texts';
import type { AdminAccess } from './use-admin-access';
import { useConfirm } from '../../shared/dialog/use-confirm';

// The dialogs (forms, rule schemas, upload, tree) load when first opened, not with the list.
const CreateAccountDialog = lazy(() => import('./CreateAccountDialog'));
const rowDialogs = () => import('./RowDialogs');
const EditAccountDialog = lazy(() => rowDialogs().then((m) => ({ default: m.EditAccountDialog })));
const ResetPasswordDialog = lazy(() => rowDialogs().then((m) => ({ default: m.ResetPasswordDialog })));
const MoveGroupDialog = lazy(() => rowDialogs().then((m) => ({ default: m.MoveGroupDialog })));
const RelateOwnerDialog = lazy(() => rowDialogs().then((m) => ({ default: m.RelateOwnerDialog })));
const AssignRoleDialog = lazy(() => rowDialogs().then((m) => ({ default: m.AssignRoleDialog })));
const distributeDialogs = () => import('./DistributeDialog');
const DistributeDialog = lazy(() => distributeDialogs().then((m) => ({ default: m.DistributeDialog })));
const AddStockDialog = lazy(() => distributeDialogs().then((m) => ({ default: m.AddStockDialog })));

const ROLE_FILTERS = [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.GROUP, ROLE.OWNER, ROLE.VIEWER] as const;

/** The account-type label of a row: a role-2 account acting for another is a sub-administrator. */
export function typeKey(r: Pick<AccountListRow, 'role' | 'subAdmin'>): string {
  return r.subAdmin ? 'accounts:types.subAdmin' : `common:roles.${r.role}`;
}

/** The row actions the caller may use on a row (menu keys). */
export function rowActions(r: AccountListRow, access: AdminAccess): RowDialog[] | string[] {
  const out: string[] = [];
  if (access.edit) out.push('edit');
  if (access.resetPassword) out.push('password');
  if (access.edit && access.administers) out.push('group', 'role');
  if (access.edit && access.administers && r.role === ROLE.OWNER) out.push('superior');
  if (access.edit && r.role === ROLE.OWNER) out.push(r.addCollector ? 'forbidAdd' : 'allowAdd');
  if (access.distribute && r.role !== ROLE.VIEWER && !r.subAdmin) out.push('distribute');
  if (access.remove) out.push('delete');
  return out;
}

/**
 * The users table has many columns: the username stays pinned at the left and, on a desktop, the
 * actions at the right while the figures scroll between them.
 */
function usersTableLayout(columns: TableColumnsType<AccountListRow>, phone: boolean) {
  const base = responsiveTable(columns, phone, 1);
  if (phone) return base;
  return {
    columns: pinLeading(columns, 1).map((c) => (c.key === 'actions' ? { ...c, fixed: 'right' as const } : c)),
    scroll: { x: 'max-content' as const },
  };
}

export function UsersTab({ access, classic }: { access: AdminAccess; classic: boolean }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const phone = useIsPhone();
  const [state, update] = useListState(USERS_LIST_SPEC, { keep: ['tab'] });
  const list = useUsersList(usersListParams(state));
  const groups = useGroups(undefined, access.administers);
  const rows = list.data?.account ?? [];
  const [selected, setSelected] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<{ kind: RowDialog; rows: AccountListRow[] }>();
  const [distribute, setDistribute] = useState<{ target?: Target }>();
  const [stock, setStock] = useState(false);
  const enable = useAdminMutation('disableOrEnableAccount');
  const addCollector = useAdminMutation('setAccountAddCollector');
  const delAccount = useAdminMutation('delAccount');
  const delDist = useAdminMutation('delDist');
  const selectedRows = rows.filter((r) => selected.includes(r.uid));

  const setEnabled = async (uids: number[], on: boolean) => {
    try {
      await enable.mutateAsync({ uid: uids.join(','), enable: on });
      void notice().success(t(on ? 'accounts:enable.enabled' : 'accounts:enable.disabled', { n: uids.length }));
      setSelected([]);
    } catch (e) {
      void notice().error(apiErrorText(e));
    }
  };

  const confirmDelete = (r: AccountListRow) => {
    confirm({
      title: t('accounts:delete.title', { usr: r.usr }),
      content: t('accounts:delete.text'),
      okText: t('accounts:actions.delete'),
      okButtonProps: { danger: true, id: 'confirm-delete' },
      cancelText: t('accounts:actions.cancel'),
      onOk: async () => {
        try {
          if (isDealerRow(r)) await delDist.mutateAsync({ uid: r.uid });
          else await delAccount.mutateAsync({ uid: r.uid });
          void notice().success(t('accounts:delete.done', { usr: r.usr }));
        } catch (e) {
          void notice().error(deleteErrorText(e));
        }
      },
    });
  };

  const onRowAction = (r: AccountListRow, key: string) => {
    if (key === 'delete') return confirmDelete(r);
    if (key === 'distribute') return setDistribute({ target: { uid: r.uid, usr: r.usr } });
    if (key === 'allowAdd' || key === 'forbidAdd') {
      addCollector.mutate(
        { uid: String(r.uid), enable: key === 'allowAdd' },
        {
          onSuccess: () => void notice().success(t('accounts:done')),
          onError: (e) => void notice().error(apiErrorText(e)),
        },
      );
      return;
    }
    setDialog({ kind: key as RowDialog, rows: [r] });
  };

  const columns: TableColumnsType<AccountListRow> = [
    {
      key: 'usr',
      title: t('accounts:fields.usr'),
      dataIndex: 'usr',
      render: (usr: string, r) => (
        <Flex vertical>
          <Typography.Text strong>{usr}</Typography.Text>
          {r.qname && <Typography.Text type="secondary">{r.qname}</Typography.Text>}
        </Flex>
      ),
    },
    {
      key: 'type',
      title: t('accounts:fields.type'),
      render: (_, r) => (
        <Tag color={r.subAdmin ? 'purple' : r.role === ROLE.DISTRIBUTOR ? 'blue' : undefined}>{t(typeKey(r))}</Tag>
      ),
    },
    { key: 'roleName', title: t('accounts:fields.role'), dataIndex: 'roleName', render: (v: string) => v || '--' },
    {
      key: 'group',
      title: t('accounts:fields.group'),
      dataIndex: 'group',
      render: (v: string) => v || t('accounts:filters.ungrouped'),
    },
    { key: 'parent', title: t('accounts:fields.superior'), dataIndex: 'parentUsr', render: (v: string) => v || '--' },
    { key: 'dist', title: t('accounts:fields.dealerCodes'), dataIndex: 'dist', render: (v: string) => v || '--' },
    {
      key: 'enable',
      title: t('accounts:fields.enabled'),
      render: (_, r) => (
        <Switch
          size="small"
          checked={r.enable}
          disabled={!access.enable}
          loading={enable.isPending && enable.variables?.uid === String(r.uid)}
          onChange={(on) => void setEnabled([r.uid], on)}
          aria-label={t('accounts:fields.enabled')}
          data-testid={`enable-${r.usr}`}
        />
      ),
    },
    { key: 'collectors', title: t('accounts:fields.collectors'), dataIndex: 'collectors', align: 'right' },
    { key: 'devices', title: t('accounts:fields.devices'), dataIndex: 'devices', align: 'right' },
    { key: 'plants', title: t('accounts:fields.plants'), dataIndex: 'plants', align: 'right' },
    { key: 'gts', title: t('accounts:fields.registered'), dataIndex: 'gts' },
    {
      key: 'lastLogin',
      title: t('accounts:fields.lastLogin'),
      dataIndex: 'lastLoginTs',
      render: (v: string) => v || '--',
    },
    {
      key: 'actions',
      title: t('accounts:fields.actions'),
      render: (_, r) => {
        const keys = rowActions(r, access);
        if (keys.length === 0) return null;
        const items: MenuProps['items'] = keys.map((k) => ({
          key: k,
          label: t(`accounts:rowActions.${k}`),
          danger: k === 'delete',
        }));
        return (
          <Dropdown menu={{ items, onClick: ({ key }) => onRowAction(r, key) }} trigger={['click']}>
            <Button size="small" data-testid={`row-actions-${r.usr}`}>
              {t('accounts:fields.actions')} <DownOutlined />
            </Button>
          </Dropdown>
        );
      },
    },
  ];

  const toolbar = (
    <Flex wrap gap={8} align="center" justify="space-between">
      <Flex wrap gap={8} align="center" style={{ minWidth: 0 }}>
        <Input.Search
          key={state.search}
          allowClear
          defaultValue={state.search}
          placeholder={t('accounts:filters.search')}
          onSearch={(search) => update({ search })}
          style={phone ? { width: '100%' } : { width: 220 }}
          data-testid="users-search"
        />
        <Select
          aria-label={t('accounts:fields.type')}
          value={state.role}
          style={{ width: 150 }}
          onChange={(role) => update({ role })}
          options={[
            { value: -1, label: t('accounts:filters.allTypes') },
            ...ROLE_FILTERS.map((r) => ({ value: r, label: t(`common:roles.${r}`) })),
          ]}
          data-testid="users-role-filter"
        />
        {access.administers && (
          <Select
            aria-label={t('accounts:fields.group')}
            value={state.group}
            style={{ width: 150 }}
            onChange={(group) => update({ group })}
            options={[
              { value: '', label: t('accounts:filters.allGroups') },
              { value: 'none', label: t('accounts:filters.ungrouped') },
              ...(groups.data?.group ?? []).map((g) => ({ value: String(g.groupid), label: g.name })),
            ]}
          />
        )}
        <Select
          aria-label={t('accounts:fields.enabled')}
          value={state.enabled}
          style={{ width: 130 }}
          onChange={(enabled) => update({ enabled })}
          options={(['all', 'enabled', 'disabled'] as const).map((v) => ({
            value: v,
            label: t(`accounts:filters.${v}`),
          }))}
        />
        <Input.Search
          key={`dist:${state.dist}`}
          allowClear
          defaultValue={state.dist}
          placeholder={t('accounts:filters.dealerCode')}
          onSearch={(dist) => update({ dist })}
          style={{ width: 160 }}
        />
      </Flex>
      <Space wrap>
        {access.createTypes.length > 0 && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="create-account">
            {t('accounts:actions.create')}
          </Button>
        )}
        {access.distribute && (
          <Button icon={<UploadOutlined />} onClick={() => setDistribute({})} data-testid="distribute-open">
            {t('accounts:distribute.title')}
          </Button>
        )}
        {access.distribute && <Button onClick={() => setStock(true)}>{t('accounts:stock.title')}</Button>}
      </Space>
    </Flex>
  );

  const batch = selected.length > 0 && (
    <Flex wrap gap={8} align="center" data-testid="users-batch">
      <Typography.Text>{t('accounts:batch.selected', { n: selected.length })}</Typography.Text>
      {access.enable && (
        <>
          <Button size="small" onClick={() => void setEnabled(selected, true)}>
            {t('accounts:batch.enable')}
          </Button>
          <Button size="small" danger onClick={() => void setEnabled(selected, false)}>
            {t('accounts:batch.disable')}
          </Button>
        </>
      )}
      {access.edit && access.administers && (
        <>
          <Button size="small" onClick={() => setDialog({ kind: 'group', rows: selectedRows })}>
            {t('accounts:rowActions.group')}
          </Button>
          <Button size="small" onClick={() => setDialog({ kind: 'role', rows: selectedRows })}>
            {t('accounts:rowActions.role')}
          </Button>
        </>
      )}
    </Flex>
  );

  const selectable = access.enable || (access.edit && access.administers);
  const paging = listPagination(state, list.data?.total ?? 0, update, {
    pageSizes: PAGE_SIZES,
    showTotal: (n) => t('accounts:total', { n }),
  });
  const closeDialog = () => setDialog(undefined);
  const one = dialog?.rows[0];

  return (
    <Flex vertical gap={12} data-testid="users-tab">
      {toolbar}
      {batch}
      <ListStates query={list} errorTitle={t('accounts:loadFailed')}>
        <Table<AccountListRow>
          rowKey="uid"
          size={classic ? 'small' : 'middle'}
          bordered={classic}
          dataSource={rows}
          loading={tableLoading(list)}
          pagination={paging}
          locale={emptyLocale(t('accounts:empty'))}
          rowSelection={
            selectable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) } : undefined
          }
          data-testid="users-table"
          {...usersTableLayout(columns, phone)}
        />
      </ListStates>
      <Suspense fallback={null}>
        {creating && (
          <CreateAccountDialog open role={access.role} types={access.createTypes} onClose={() => setCreating(false)} />
        )}
        {dialog?.kind === 'edit' && one && <EditAccountDialog row={one} onClose={closeDialog} />}
        {dialog?.kind === 'password' && one && <ResetPasswordDialog row={one} onClose={closeDialog} />}
        {dialog?.kind === 'group' && <MoveGroupDialog rows={dialog.rows} onClose={closeDialog} />}
        {dialog?.kind === 'superior' && <RelateOwnerDialog rows={dialog.rows} onClose={closeDialog} />}
        {dialog?.kind === 'role' && <AssignRoleDialog rows={dialog.rows} onClose={closeDialog} />}
        {distribute && <DistributeDialog target={distribute.target} onClose={() => setDistribute(undefined)} />}
        {stock && <AddStockDialog onClose={() => setStock(false)} />}
      </Suspense>
    </Flex>
  );
}
