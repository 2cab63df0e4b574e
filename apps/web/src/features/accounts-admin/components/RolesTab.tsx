/**
 * Roles and permissions (spec §3 Role, §5 "Roles and accounts", §6): custom roles with function
 * points and data permission (user groups). Unique names ("The role name already exists, please
 * re-enter"); a role bound to a user cannot be deleted (528); the data permission of a role bound
 * to a dealer cannot change.
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Select, Space, Table, Tag, Tree, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiCallError, type CustomRoleDat } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ListStates, emptyLocale, responsiveTable, tableLoading } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { nameError } from '../api/account-types';
import { useAdminMutation, useGroups, useRoles } from '../api/queries';
import { PERMISSION_NODES, checkedLeaves, grantedFunctions, type PermNode } from './permission-tree';
import { formText } from './form-text';
import { deleteErrorText } from './texts';
import type { AdminAccess } from './use-admin-access';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useConfirm } from '../../shared/dialog/use-confirm';

export default function RolesTab({ access, classic }: { access: AdminAccess; classic: boolean }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [name, setName] = useState('');
  const list = useRoles({ name: name || undefined, page: page.current - 1, pagesize: page.pageSize });
  const [editing, setEditing] = useState<CustomRoleDat | 'new'>();
  const del = useAdminMutation('delRole');

  const confirmDelete = (r: CustomRoleDat) =>
    confirm({
      title: t('accounts:roles.deleteTitle', { name: r.name }),
      content: t('accounts:roles.deleteText'),
      okText: t('accounts:actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('accounts:actions.cancel'),
      onOk: async () => {
        try {
          await del.mutateAsync({ rid: r.rid });
          void notice().success(t('accounts:done'));
        } catch (e) {
          void notice().error(
            e instanceof ApiCallError && e.err === 528 ? t('accounts:roles.bound') : deleteErrorText(e),
          );
        }
      },
    });

  const columns: TableColumnsType<CustomRoleDat> = [
    { key: 'name', title: t('accounts:roles.name'), dataIndex: 'name' },
    { key: 'desc', title: t('accounts:fields.desc'), dataIndex: 'desc', render: (v: string) => v || '--' },
    { key: 'functions', title: t('accounts:roles.functions'), render: (_, r) => r.functions.length },
    {
      key: 'data',
      title: t('accounts:roles.data'),
      render: (_, r) =>
        r.dataGroups.length ? t('accounts:roles.groupsN', { n: r.dataGroups.length }) : t('accounts:roles.allData'),
    },
    { key: 'users', title: t('accounts:roles.users'), dataIndex: 'users', align: 'right' },
    {
      key: 'dist',
      title: t('accounts:roles.boundToDist'),
      render: (_, r) => (r.boundToDist ? <Tag color="blue">{t('accounts:yes')}</Tag> : '--'),
    },
    {
      key: 'actions',
      title: t('accounts:fields.actions'),
      render: (_, r) => (
        <Space>
          {access.edit && (
            <Button size="small" onClick={() => setEditing(r)}>
              {t('accounts:rowActions.edit')}
            </Button>
          )}
          {access.remove && (
            <Button size="small" danger onClick={() => confirmDelete(r)}>
              {t('accounts:actions.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="roles-tab">
      <Flex wrap gap={8} justify="space-between">
        <Input.Search
          allowClear
          placeholder={t('accounts:roles.search')}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
          style={{ width: phone ? '100%' : 240 }}
        />
        {access.edit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="role-create">
            {t('accounts:roles.create')}
          </Button>
        )}
      </Flex>
      <ListStates query={list} errorTitle={t('accounts:loadFailed')}>
        <Table<CustomRoleDat>
          rowKey="rid"
          size={classic ? 'small' : 'middle'}
          bordered={classic}
          dataSource={list.data?.role ?? []}
          loading={tableLoading(list)}
          locale={emptyLocale(t('accounts:empty'))}
          pagination={{
            ...page,
            total: list.data?.total ?? 0,
            showTotal: (n) => t('accounts:total', { n }),
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
          {...responsiveTable(columns, phone, 1)}
        />
      </ListStates>
      {editing && <RoleDialog role={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Flex>
  );
}

function treeData(
  nodes: PermNode[],
  t: (k: string) => string,
): Array<{ key: string; title: string; children?: ReturnType<typeof treeData> }> {
  return nodes.map((n) => ({
    key: n.key,
    title: t(n.labelKey),
    ...(n.children ? { children: treeData(n.children, t) } : {}),
  }));
}

function RoleDialog({ role, onClose }: { role?: CustomRoleDat; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<{ name: string; desc: string; dataGroups: number[] }>();
  const groups = useGroups();
  const add = useAdminMutation('addRole');
  const edit = useAdminMutation('editRole');
  const [checked, setChecked] = useState<string[]>(checkedLeaves(role?.functions ?? []));
  const [functions, setFunctions] = useState<string[]>(role?.functions ?? []);
  const [error, setError] = useState<string>();
  const frozen = role?.boundToDist === true;

  const submit = async () => {
    const v = await form.validateFields();
    setError(undefined);
    const data = frozen ? undefined : (v.dataGroups ?? []).join(',');
    try {
      if (role)
        await edit.mutateAsync({
          rid: role.rid,
          name: v.name.trim(),
          desc: v.desc ?? '',
          functions: functions.join(','),
          ...(data === undefined ? {} : { dataGroups: data }),
        });
      else
        await add.mutateAsync({
          name: v.name.trim(),
          desc: v.desc?.trim() || undefined,
          functions: functions.join(',') || undefined,
          dataGroups: data || undefined,
        });
    } catch (e) {
      if (e instanceof ApiCallError && e.err === 516) {
        form.setFields([{ name: 'name', errors: [t('accounts:roles.nameExists')] }]);
        setError(t('accounts:roles.nameExists'));
      } else setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };

  return (
    <DraggableModal
      open
      title={role ? t('accounts:roles.edit') : t('accounts:roles.create')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      okText={t('accounts:actions.save')}
      cancelText={t('accounts:actions.cancel')}
      confirmLoading={add.isPending || edit.isPending}
      width={phone ? '100%' : 640}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      destroyOnHidden
      data-testid="role-dialog"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: role?.name ?? '', desc: role?.desc ?? '', dataGroups: role?.dataGroups ?? [] }}
      >
        <Form.Item
          name="name"
          label={t('accounts:roles.name')}
          required
          rules={[
            {
              validator: async (_, v: string) => {
                const k = nameError(v, 'role');
                if (k) throw new Error(formText(k));
              },
            },
          ]}
        >
          <Input maxLength={32} data-testid="role-name" />
        </Form.Item>
        <Form.Item name="desc" label={t('accounts:fields.desc')}>
          <Input.TextArea maxLength={512} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
        <Form.Item label={t('accounts:roles.functions')}>
          <div
            style={{
              maxHeight: 280,
              overflow: 'auto',
              border: '1px solid rgba(5,5,5,0.06)',
              borderRadius: 6,
              padding: 8,
            }}
          >
            <Tree
              checkable
              selectable={false}
              defaultExpandAll
              checkedKeys={checked}
              onCheck={(keys, info) => {
                const c = (Array.isArray(keys) ? keys : keys.checked).map(String);
                setChecked(c.filter((k) => !k.endsWith(':buttons')));
                setFunctions(grantedFunctions(c, (info.halfCheckedKeys ?? []).map(String)));
              }}
              treeData={treeData(PERMISSION_NODES, t)}
              data-testid="role-tree"
            />
          </div>
        </Form.Item>
        <Form.Item
          name="dataGroups"
          label={t('accounts:roles.data')}
          extra={frozen ? t('accounts:roles.frozen') : t('accounts:roles.dataHint')}
        >
          <Select
            mode="multiple"
            allowClear
            disabled={frozen}
            loading={groups.isFetching}
            options={(groups.data?.group ?? []).map((g) => ({ value: g.groupid, label: g.name }))}
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} data-testid="role-error" />}
    </DraggableModal>
  );
}
