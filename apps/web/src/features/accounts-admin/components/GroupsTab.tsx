/** User groups (spec §3 Group: name, note, user count): list, create, rename, note, delete. */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Space, Table, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UsrGroupRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ListStates, emptyLocale, responsiveTable, tableLoading } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { nameError } from '../api/account-types';
import { useAdminMutation, useGroups } from '../api/queries';
import { formText } from './form-text';
import { deleteErrorText } from './texts';
import type { AdminAccess } from './use-admin-access';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useConfirm } from '../../shared/dialog/use-confirm';

export default function GroupsTab({ access, classic }: { access: AdminAccess; classic: boolean }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [name, setName] = useState('');
  const list = useGroups({ name: name || undefined, page: page.current - 1, pagesize: page.pageSize });
  const [editing, setEditing] = useState<UsrGroupRow | 'new'>();
  const del = useAdminMutation('delUsrGroup');

  const confirmDelete = (g: UsrGroupRow) =>
    confirm({
      title: t('accounts:groups.deleteTitle', { name: g.name }),
      content: t('accounts:groups.deleteText', { n: g.count }),
      okText: t('accounts:actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('accounts:actions.cancel'),
      onOk: async () => {
        try {
          await del.mutateAsync({ groupid: g.groupid });
          void notice().success(t('accounts:done'));
        } catch (e) {
          void notice().error(deleteErrorText(e));
        }
      },
    });

  const columns: TableColumnsType<UsrGroupRow> = [
    { key: 'name', title: t('accounts:groups.name'), dataIndex: 'name' },
    { key: 'note', title: t('accounts:groups.note'), dataIndex: 'note', render: (v: string) => v || '--' },
    { key: 'count', title: t('accounts:groups.count'), dataIndex: 'count', align: 'right' },
    { key: 'gts', title: t('accounts:fields.created'), dataIndex: 'gts' },
    {
      key: 'actions',
      title: t('accounts:fields.actions'),
      render: (_, g) => (
        <Space>
          {access.edit && (
            <Button size="small" onClick={() => setEditing(g)}>
              {t('accounts:rowActions.edit')}
            </Button>
          )}
          {access.remove && (
            <Button size="small" danger onClick={() => confirmDelete(g)}>
              {t('accounts:actions.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="groups-tab">
      <Flex wrap gap={8} justify="space-between">
        <Input.Search
          allowClear
          placeholder={t('accounts:groups.search')}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
          style={{ width: phone ? '100%' : 240 }}
        />
        {access.edit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="group-create">
            {t('accounts:groups.create')}
          </Button>
        )}
      </Flex>
      <ListStates query={list} errorTitle={t('accounts:loadFailed')}>
        <Table<UsrGroupRow>
          rowKey="groupid"
          size={classic ? 'small' : 'middle'}
          bordered={classic}
          dataSource={list.data?.group ?? []}
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
      {editing && <GroupDialog group={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Flex>
  );
}

function GroupDialog({ group, onClose }: { group?: UsrGroupRow; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<{ name: string; note: string }>();
  const add = useAdminMutation('addUsrGroup');
  const edit = useAdminMutation('editUsrGroup');
  const [error, setError] = useState<string>();
  const submit = async () => {
    const v = await form.validateFields();
    setError(undefined);
    try {
      if (group) await edit.mutateAsync({ groupid: group.groupid, name: v.name.trim(), note: v.note ?? '' });
      else await add.mutateAsync({ name: v.name.trim(), note: v.note?.trim() || undefined });
    } catch (e) {
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };
  return (
    <DraggableModal
      open
      title={group ? t('accounts:groups.edit') : t('accounts:groups.create')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      okText={t('accounts:actions.save')}
      cancelText={t('accounts:actions.cancel')}
      confirmLoading={add.isPending || edit.isPending}
      width={phone ? '100%' : 480}
      destroyOnHidden
      data-testid="group-dialog"
    >
      <Form form={form} layout="vertical" initialValues={{ name: group?.name ?? '', note: group?.note ?? '' }}>
        <Form.Item
          name="name"
          label={t('accounts:groups.name')}
          required
          rules={[
            {
              validator: async (_, v: string) => {
                const k = nameError(v, 'group');
                if (k) throw new Error(formText(k));
              },
            },
          ]}
        >
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="note" label={t('accounts:groups.note')}>
          <Input.TextArea maxLength={512} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </DraggableModal>
  );
}
