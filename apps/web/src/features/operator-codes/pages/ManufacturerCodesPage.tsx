/**
 * /adminNewStatr/home/factoryCode (issue 14, operator only): the PN rules — a manufacturer code
 * (2-3 characters) plus a type code (1 letter) give every new PN with that prefix to a
 * manufacturer at registration. Searched and paged on the server (list kit: page and search in
 * the address bar); add, edit (type code, enabled, owner manufacturer), enable/disable, delete.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Select,
  Space,
  Switch,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { manufacturerCodeSchema, ruleErrorKey, typeCodeSchema, type ManufacturerCodeRow } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { noFilters, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useConfirm } from '../../shared/dialog/use-confirm';
import {
  useAddManufacturerCode,
  useDeleteManufacturerCode,
  useEditManufacturerCode,
  useManufacturerCodes,
  useManufacturers,
  useSetManufacturerCodeEnabled,
} from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
const SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...noFilters,
};

interface CodeValues {
  vendorUid?: number;
  code: string;
  typeCode: string;
  enabled: boolean;
}

/** Add a rule, or edit one (`row`): its code stays, its type code, state and manufacturer change. */
function CodeDialog({ row, onClose }: { row?: ManufacturerCodeRow; onClose: () => void }) {
  const { t } = useTranslation('operatorCodes');
  const [form] = Form.useForm<CodeValues>();
  const makers = useManufacturers();
  const add = useAddManufacturerCode();
  const edit = useEditManufacturerCode();
  const [error, setError] = useState<string>();
  const code = Form.useWatch('code', form) ?? row?.code ?? '';
  const typeCode = Form.useWatch('typeCode', form) ?? row?.typeCode ?? '';
  const schemaRule = (schema: typeof manufacturerCodeSchema) => ({
    validator: async (_: unknown, v: unknown) => {
      const key = ruleErrorKey(schema, typeof v === 'string' ? v : '');
      if (key) throw new Error(ruleText(key));
    },
  });
  const options = (makers.data?.account ?? []).map((a) => ({
    value: a.uid,
    label: a.qname ? `${a.usr} (${a.qname})` : a.usr,
  }));
  // the rule's manufacturer stays pickable when it is not among the first 50
  if (row && !options.some((o) => o.value === row.vendorUid))
    options.unshift({ value: row.vendorUid, label: row.vendorUsr });
  const submit = async () => {
    let v: CodeValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      if (row) {
        await edit.mutateAsync({
          id: row.id,
          vendorUid: v.vendorUid!,
          typeCode: v.typeCode.trim(),
          enabled: v.enabled,
        });
        void notice().success(t('saved', { prefix: `${row.code}${v.typeCode.trim()}`.toUpperCase() }));
      } else {
        const r = await add.mutateAsync({
          vendorUid: v.vendorUid!,
          code: v.code.trim(),
          typeCode: v.typeCode.trim(),
          enabled: v.enabled,
        });
        void notice().success(t('added', { prefix: r.prefix }));
      }
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={row ? t('editTitle', { prefix: row.prefix }) : t('addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'code-form-ok' } }}
      width={480}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<CodeValues>
        form={form}
        layout="vertical"
        initialValues={{
          vendorUid: row?.vendorUid,
          code: row?.code ?? '',
          typeCode: row?.typeCode ?? '',
          enabled: row?.enabled ?? true,
        }}
        data-testid="code-form"
      >
        <Form.Item
          name="vendorUid"
          label={t('field.manufacturer')}
          rules={[{ required: true, message: t('pickManufacturer') }]}
          extra={row ? t('ownerHint') : undefined}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={makers.isPending}
            placeholder={t('pickManufacturer')}
            options={options}
            data-testid="code-field-maker"
          />
        </Form.Item>
        <Form.Item name="code" label={t('field.code')} rules={row ? [] : [schemaRule(manufacturerCodeSchema)]}>
          <Input maxLength={3} autoComplete="off" disabled={row !== undefined} data-testid="code-field-code" />
        </Form.Item>
        <Form.Item name="typeCode" label={t('field.typeCode')} rules={[schemaRule(typeCodeSchema)]}>
          <Input maxLength={1} autoComplete="off" data-testid="code-field-type" />
        </Form.Item>
        <Form.Item name="enabled" label={t('col.enabled')} valuePropName="checked">
          <Switch size="small" data-testid="code-field-enabled" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">
        {t('prefixPreview', { prefix: `${code.trim()}${typeCode.trim()}`.toUpperCase() || '—' })}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="code-form-error" />}
    </DraggableModal>
  );
}

export default function ManufacturerCodesPage() {
  const { t } = useTranslation('operatorCodes');
  const confirm = useConfirm();
  const [state, update] = useListState(SPEC);
  const list = useManufacturerCodes({ ...wirePaging(state, 100), ...(state.search ? { search: state.search } : {}) });
  const toggle = useSetManufacturerCodeEnabled();
  const remove = useDeleteManufacturerCode();
  const [dialog, setDialog] = useState<{ row?: ManufacturerCodeRow }>();

  const setEnabled = async (r: ManufacturerCodeRow, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ id: r.id, enabled });
      void notice().success(t(enabled ? 'enabledDone' : 'disabledDone', { prefix: r.prefix }));
    } catch (e) {
      showApiError(e);
    }
  };
  const askDelete = (r: ManufacturerCodeRow) =>
    confirm({
      title: t('deleteTitle', { prefix: r.prefix }),
      content: t('deleteText'),
      okText: t('delete'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'code-delete-ok' } },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync({ id: r.id });
          void notice().success(t('deleted', { prefix: r.prefix }));
        } catch (e) {
          showApiError(e);
        }
      },
    });

  const columns: TableColumnsType<ManufacturerCodeRow> = [
    {
      title: t('col.prefix'),
      dataIndex: 'prefix',
      width: 100,
      render: (v: string) => (
        <Typography.Text code strong>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('col.manufacturer'), dataIndex: 'vendorUsr', width: 160 },
    { title: t('col.code'), dataIndex: 'code', width: 110 },
    { title: t('col.typeCode'), dataIndex: 'typeCode', width: 100 },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 100,
      render: (enabled: boolean, r) => (
        <Switch
          size="small"
          checked={enabled}
          aria-label={t(enabled ? 'disable' : 'enable')}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(v) => void setEnabled(r, v)}
          data-testid="code-enabled"
        />
      ),
    },
    { title: t('col.updatedBy'), dataIndex: 'updatedBy', width: 130 },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 100,
      render: (_, r) => (
        <Space size={4}>
          <Tooltip title={t('edit')}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={t('edit')}
              onClick={() => setDialog({ row: r })}
              data-testid="code-edit"
            />
          </Tooltip>
          <Tooltip title={t('delete')}>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('delete')}
              onClick={() => askDelete(r)}
              data-testid="code-delete"
            />
          </Tooltip>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('title')} size="small" data-testid="code-list-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8} justify="space-between" align="center">
          <Input.Search
            allowClear
            placeholder={t('searchPlaceholder')}
            defaultValue={state.search}
            onSearch={(v) => update({ search: v.trim() })}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="code-search"
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="code-add">
            {t('add')}
          </Button>
        </Flex>
        <PagedTable<ManufacturerCodeRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={list.data?.codes}
          total={list.data?.total}
          rowKey="id"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(r) => ({ 'data-testid': 'code-row', 'data-prefix': r.prefix, 'data-enabled': String(r.enabled) })}
        />
      </Space>
      {dialog && <CodeDialog {...(dialog.row ? { row: dialog.row } : {})} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
