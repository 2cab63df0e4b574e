/**
 * /adminNewStatr/home/factoryCode (issue 14, operator only): the PN rules — a manufacturer code
 * (2-3 characters) plus a type code (1 letter) give every new PN with that prefix to a
 * manufacturer at registration. Searched and paged on the server; add, enable and disable.
 */
import { useState, type HTMLAttributes } from 'react';
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
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { manufacturerCodeSchema, ruleErrorKey, typeCodeSchema, type ManufacturerCodeRow } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { ListStates, emptyLocale, responsiveTable, tableLoading } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import {
  useAddManufacturerCode,
  useManufacturerCodes,
  useManufacturers,
  useSetManufacturerCodeEnabled,
} from '../api/queries';

interface AddValues {
  vendorUid?: number;
  code: string;
  typeCode: string;
}

function AddCodeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('operatorCodes');
  const [form] = Form.useForm<AddValues>();
  const makers = useManufacturers();
  const add = useAddManufacturerCode();
  const [error, setError] = useState<string>();
  const code = Form.useWatch('code', form) ?? '';
  const typeCode = Form.useWatch('typeCode', form) ?? '';
  const schemaRule = (schema: typeof manufacturerCodeSchema) => ({
    validator: async (_: unknown, v: unknown) => {
      const key = ruleErrorKey(schema, typeof v === 'string' ? v : '');
      if (key) throw new Error(ruleText(key));
    },
  });
  const submit = async () => {
    let v: AddValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      const r = await add.mutateAsync({ vendorUid: v.vendorUid!, code: v.code.trim(), typeCode: v.typeCode.trim() });
      void notice().success(t('added', { prefix: r.prefix }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t('addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending}
      okButtonProps={{ ...{ 'data-testid': 'code-form-ok' } }}
      width={480}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<AddValues> form={form} layout="vertical" initialValues={{ code: '', typeCode: '' }} data-testid="code-form">
        <Form.Item
          name="vendorUid"
          label={t('field.manufacturer')}
          rules={[{ required: true, message: t('pickManufacturer') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={makers.isPending}
            placeholder={t('pickManufacturer')}
            options={(makers.data?.account ?? []).map((a) => ({
              value: a.uid,
              label: a.qname ? `${a.usr} (${a.qname})` : a.usr,
            }))}
            data-testid="code-field-maker"
          />
        </Form.Item>
        <Form.Item name="code" label={t('field.code')} rules={[schemaRule(manufacturerCodeSchema)]}>
          <Input maxLength={3} autoComplete="off" data-testid="code-field-code" />
        </Form.Item>
        <Form.Item name="typeCode" label={t('field.typeCode')} rules={[schemaRule(typeCodeSchema)]}>
          <Input maxLength={1} autoComplete="off" data-testid="code-field-type" />
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
  const phone = useIsPhone();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const list = useManufacturerCodes({ page: page.current - 1, pagesize: page.pageSize, ...(search ? { search } : {}) });
  const toggle = useSetManufacturerCodeEnabled();
  const [adding, setAdding] = useState(false);

  const setEnabled = async (r: ManufacturerCodeRow, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ id: r.id, enabled });
      void notice().success(t(enabled ? 'enabledDone' : 'disabledDone', { prefix: r.prefix }));
    } catch (e) {
      showApiError(e);
    }
  };

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
            onSearch={(v) => {
              setSearch(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="code-search"
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="code-add">
            {t('add')}
          </Button>
        </Flex>
        <ListStates query={list} errorTitle={t('loadFailed')}>
          <Table<ManufacturerCodeRow>
            rowKey="id"
            size="small"
            dataSource={list.data?.codes ?? []}
            loading={tableLoading(list)}
            locale={emptyLocale(t('empty'))}
            {...responsiveTable(columns, phone)}
            onRow={(r) => ({ 'data-testid': 'code-row', 'data-prefix': r.prefix }) as HTMLAttributes<HTMLElement>}
            pagination={{
              current: page.current,
              pageSize: page.pageSize,
              total: list.data?.total ?? 0,
              size: 'small',
              showTotal: (n) => t('total', { n }),
              onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
            }}
          />
        </ListStates>
      </Space>
      {adding && <AddCodeDialog onClose={() => setAdding(false)} />}
    </Card>
  );
}
