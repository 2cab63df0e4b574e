/**
 * /adminNewStatr/home/typeCode (issue 14, operator only): the datalogger type codes (spec §5
 * "type code 1 letter"): letter → type name, communication method, description, enabled. While
 * any type code exists, a new PN's type letter (after its manufacturer code) must name an enabled
 * one, which gives the datalogger its type and communication method (docs/operator/protocol-admin.md).
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Select, Switch, Typography, type TableColumnsType } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMM_METHODS, type CollectorTypeCodeRow, type CommMethod } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { noFilters, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useAddTypeCode, useEditTypeCode, useTypeCodes } from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
const SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...noFilters,
};

interface TypeValues {
  code: string;
  name: string;
  commMethod?: CommMethod;
  description: string;
}

function TypeCodeDialog({ row, onClose }: { row?: CollectorTypeCodeRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TypeValues>();
  const add = useAddTypeCode();
  const edit = useEditTypeCode();
  const [error, setError] = useState<string>();
  const submit = async () => {
    let v: TypeValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      const common = { name: v.name.trim(), commMethod: v.commMethod!, description: v.description.trim() };
      if (row) await edit.mutateAsync({ code: row.code, ...common });
      else await add.mutateAsync({ code: v.code.trim(), ...common });
      void notice().success(t('protocolAdmin:type.saved', { code: (row?.code ?? v.code).toUpperCase() }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t(row ? 'protocolAdmin:type.editTitle' : 'protocolAdmin:type.addTitle')}
      okText={t('protocolAdmin:save')}
      cancelText={t('protocolAdmin:cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'type-form-ok' } }}
      width={480}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<TypeValues>
        form={form}
        layout="vertical"
        initialValues={
          row
            ? { code: row.code, name: row.name, commMethod: row.commMethod as CommMethod, description: row.description }
            : { code: '', name: '', description: '' }
        }
      >
        <Form.Item
          name="code"
          label={t('protocolAdmin:type.code')}
          rules={[{ required: true, pattern: /^[A-Za-z]$/, message: t('protocolAdmin:type.codeRule') }]}
        >
          <Input maxLength={1} disabled={!!row} autoComplete="off" data-testid="type-field-code" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('protocolAdmin:type.name')}
          rules={[{ required: true, whitespace: true, message: t('protocolAdmin:type.nameRule') }]}
        >
          <Input maxLength={64} data-testid="type-field-name" />
        </Form.Item>
        <Form.Item
          name="commMethod"
          label={t('protocolAdmin:type.comm')}
          rules={[{ required: true, message: t('protocolAdmin:type.commRule') }]}
        >
          <Select
            options={COMM_METHODS.map((m) => ({ value: m, label: m }))}
            placeholder={t('protocolAdmin:type.commRule')}
            data-testid="type-field-comm"
          />
        </Form.Item>
        <Form.Item name="description" label={t('protocolAdmin:type.description')}>
          <Input.TextArea maxLength={255} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} data-testid="type-form-error" />}
    </DraggableModal>
  );
}

export default function TypeCodePage() {
  const { t } = useTranslation();
  const [state, update] = useListState(SPEC);
  const list = useTypeCodes({ ...(state.search ? { search: state.search } : {}), ...wirePaging(state) });
  const edit = useEditTypeCode();
  const [dialog, setDialog] = useState<{ row?: CollectorTypeCodeRow } | undefined>();
  const pager = { state, update, pageSizes: PAGE_SIZES, showTotal: (n: number) => t('protocolAdmin:total', { n }) };

  const setEnabled = async (r: CollectorTypeCodeRow, enabled: boolean) => {
    try {
      await edit.mutateAsync({ code: r.code, enabled });
      void notice().success(t(enabled ? 'protocolAdmin:enabledDone' : 'protocolAdmin:disabledDone'));
    } catch (e) {
      showApiError(e);
    }
  };

  const columns: TableColumnsType<CollectorTypeCodeRow> = [
    {
      title: t('protocolAdmin:type.code'),
      dataIndex: 'code',
      key: 'code',
      width: 80,
      render: (v: string) => (
        <Typography.Text code strong>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('protocolAdmin:type.name'), dataIndex: 'name', key: 'name' },
    { title: t('protocolAdmin:type.comm'), dataIndex: 'commMethod', key: 'comm', width: 110 },
    { title: t('protocolAdmin:type.description'), dataIndex: 'description', key: 'desc' },
    { title: t('protocolAdmin:dataloggers'), dataIndex: 'dataloggers', key: 'n', width: 110 },
    {
      title: t('protocolAdmin:enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 90,
      render: (on: boolean, r) => (
        <Switch
          size="small"
          checked={on}
          aria-label={t(on ? 'protocolAdmin:disable' : 'protocolAdmin:enable')}
          loading={edit.isPending && edit.variables?.code === r.code}
          onChange={(v) => void setEnabled(r, v)}
          data-testid="type-enabled"
        />
      ),
    },
    {
      title: t('protocolAdmin:actions'),
      key: 'edit',
      width: 90,
      render: (_, r) => (
        <Button size="small" icon={<EditOutlined />} onClick={() => setDialog({ row: r })} data-testid="type-edit">
          {t('protocolAdmin:edit')}
        </Button>
      ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="type-code-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('protocolAdmin:type.intro')}
      </Typography.Paragraph>
      <Flex wrap gap={8} justify="space-between" align="center">
        <Input.Search
          allowClear
          style={{ flex: '1 1 200px', maxWidth: 320 }}
          placeholder={t('protocolAdmin:type.search')}
          defaultValue={state.search}
          onSearch={(v) => update({ search: v.trim() })}
          data-testid="type-search"
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="type-add">
          {t('protocolAdmin:type.add')}
        </Button>
      </Flex>
      <PagedTable<CollectorTypeCodeRow>
        query={list}
        rows={list.data?.codes}
        total={list.data?.total}
        rowKey="code"
        columns={columns}
        pager={pager}
        errorTitle={t('protocolAdmin:loadFailed')}
        emptyText={t('protocolAdmin:empty')}
        onRow={() => ({ 'data-testid': 'type-row' })}
      />
      {dialog && <TypeCodeDialog row={dialog.row} onClose={() => setDialog(undefined)} />}
    </Flex>
  );
}
