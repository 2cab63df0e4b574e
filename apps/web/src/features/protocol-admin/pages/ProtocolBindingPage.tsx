/**
 * /adminNewStatr/home/protocolBinding (issue 14, operator only): which devcodes a datalogger type
 * code, a PN prefix or a PN range reports. A datalogger covered by an enabled binding may send
 * only its bound devcodes: ingestion refuses any other (reason `unbound_devcode`) within seconds
 * on every server. No binding: everything accepted (docs/operator/protocol-admin.md).
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Flex,
  Form,
  Input,
  Popconfirm,
  Segmented,
  Select,
  Switch,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BINDING_SCOPES, type BindingScope, type ProtocolBindingRow } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { intParam, useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import {
  useAddBinding,
  useAllTypeCodes,
  useBindings,
  useDeleteBinding,
  useDevcodes,
  useSetBindingEnabled,
} from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
interface BindingState {
  current: number;
  pageSize: number;
  search: string;
  /** 0 = every devcode. */
  devcode: number;
}
const SPEC: ListSpec<BindingState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters: (q) => ({ devcode: intParam(q.get('devcode'), 0) }),
  writeFilters(s, q) {
    if (s.devcode) q.set('devcode', String(s.devcode));
  },
};

interface BindingValues {
  devcode?: number;
  typeCode?: string;
  pnFrom?: string;
  pnTo?: string;
  note?: string;
}

function useDevcodeOptions() {
  const defs = useDevcodes();
  return {
    loading: defs.isPending,
    options: (defs.data?.rows ?? []).map((d) => ({ value: d.devcode, label: `${d.devcode} · ${d.name}` })),
  };
}

function AddBindingDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BindingValues>();
  const [scope, setScope] = useState<BindingScope>('type');
  const devcodes = useDevcodeOptions();
  const types = useAllTypeCodes();
  const add = useAddBinding();
  const [error, setError] = useState<string>();
  const pnRule = { pattern: /^[A-Za-z0-9]{1,18}$/, message: t('protocolAdmin:binding.pnRule') };
  const submit = async () => {
    let v: BindingValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      await add.mutateAsync({
        devcode: v.devcode!,
        scope,
        ...(scope === 'type' ? { typeCode: v.typeCode } : { pnFrom: v.pnFrom?.trim() }),
        ...(scope === 'range' ? { pnTo: v.pnTo?.trim() } : {}),
        note: v.note?.trim() ?? '',
      });
      void notice().success(t('protocolAdmin:binding.added'));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t('protocolAdmin:binding.addTitle')}
      okText={t('protocolAdmin:save')}
      cancelText={t('protocolAdmin:cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending}
      okButtonProps={{ ...{ 'data-testid': 'binding-form-ok' } }}
      width={520}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<BindingValues> form={form} layout="vertical">
        <Form.Item
          name="devcode"
          label={t('protocolAdmin:devcode')}
          rules={[{ required: true, message: t('protocolAdmin:binding.devcodeRule') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={devcodes.loading}
            options={devcodes.options}
            placeholder={t('protocolAdmin:binding.devcodeRule')}
            data-testid="binding-field-devcode"
          />
        </Form.Item>
        <Form.Item label={t('protocolAdmin:binding.scope')}>
          <Segmented<BindingScope>
            value={scope}
            onChange={setScope}
            options={BINDING_SCOPES.map((s) => ({ value: s, label: t(`protocolAdmin:binding.scopes.${s}`) }))}
            data-testid="binding-field-scope"
          />
        </Form.Item>
        {scope === 'type' && (
          <Form.Item
            name="typeCode"
            label={t('protocolAdmin:type.code')}
            rules={[{ required: true, message: t('protocolAdmin:binding.typeRule') }]}
          >
            <Select
              loading={types.isPending}
              options={(types.data?.codes ?? []).map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }))}
              placeholder={t('protocolAdmin:binding.typeRule')}
              notFoundContent={t('protocolAdmin:binding.noTypes')}
              data-testid="binding-field-type"
            />
          </Form.Item>
        )}
        {scope !== 'type' && (
          <Form.Item
            name="pnFrom"
            label={t(scope === 'prefix' ? 'protocolAdmin:binding.prefix' : 'protocolAdmin:binding.from')}
            rules={[{ required: true, message: t('protocolAdmin:binding.pnRule') }, pnRule]}
          >
            <Input maxLength={18} autoComplete="off" data-testid="binding-field-from" />
          </Form.Item>
        )}
        {scope === 'range' && (
          <Form.Item
            name="pnTo"
            label={t('protocolAdmin:binding.to')}
            rules={[{ required: true, message: t('protocolAdmin:binding.pnRule') }, pnRule]}
          >
            <Input maxLength={18} autoComplete="off" data-testid="binding-field-to" />
          </Form.Item>
        )}
        <Form.Item name="note" label={t('protocolAdmin:binding.note')}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t('protocolAdmin:binding.effect')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="binding-form-error" />}
    </DraggableModal>
  );
}

export default function ProtocolBindingPage() {
  const { t } = useTranslation();
  const [state, update] = useListState(SPEC);
  const list = useBindings({
    ...(state.search ? { search: state.search } : {}),
    ...(state.devcode ? { devcode: state.devcode } : {}),
    ...wirePaging(state),
  });
  const devcodes = useDevcodeOptions();
  const toggle = useSetBindingEnabled();
  const remove = useDeleteBinding();
  const [adding, setAdding] = useState(false);
  const pager = { state, update, pageSizes: PAGE_SIZES, showTotal: (n: number) => t('protocolAdmin:total', { n }) };

  const run = async (p: Promise<unknown>, done: string) => {
    try {
      await p;
      void notice().success(done);
    } catch (e) {
      showApiError(e);
    }
  };

  const scopeText = (r: ProtocolBindingRow) =>
    r.scope === 'type'
      ? t('protocolAdmin:binding.typeText', { code: r.typeCode })
      : r.scope === 'prefix'
        ? t('protocolAdmin:binding.prefixText', { prefix: r.pnFrom })
        : t('protocolAdmin:binding.rangeText', { from: r.pnFrom, to: r.pnTo });

  const columns: TableColumnsType<ProtocolBindingRow> = [
    {
      title: t('protocolAdmin:devcode'),
      key: 'devcode',
      render: (_, r) => (
        <Flex vertical>
          <span>{r.devcode}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.devcodeName}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('protocolAdmin:binding.scope'),
      key: 'scope',
      render: (_, r) => <Tag>{scopeText(r)}</Tag>,
    },
    { title: t('protocolAdmin:dataloggers'), dataIndex: 'dataloggers', key: 'n', width: 110 },
    { title: t('protocolAdmin:binding.note'), dataIndex: 'note', key: 'note' },
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
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(v) =>
            void run(
              toggle.mutateAsync({ id: r.id, enabled: v }),
              t(v ? 'protocolAdmin:enabledDone' : 'protocolAdmin:disabledDone'),
            )
          }
          data-testid="binding-enabled"
        />
      ),
    },
    {
      title: t('protocolAdmin:actions'),
      key: 'delete',
      width: 90,
      render: (_, r) => (
        <Popconfirm
          title={t('protocolAdmin:binding.deleteConfirm')}
          okText={t('protocolAdmin:delete')}
          cancelText={t('protocolAdmin:cancel')}
          onConfirm={() => run(remove.mutateAsync({ id: r.id }), t('protocolAdmin:binding.deleted'))}
        >
          <Button size="small" danger icon={<DeleteOutlined />} data-testid="binding-delete">
            {t('protocolAdmin:delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="protocol-binding-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('protocolAdmin:binding.intro')}
      </Typography.Paragraph>
      <Flex wrap gap={8} justify="space-between" align="center">
        <Flex wrap gap={8} style={{ flex: '1 1 auto' }}>
          <Select
            allowClear
            style={{ width: 220, maxWidth: '100%' }}
            placeholder={t('protocolAdmin:binding.allDevcodes')}
            value={state.devcode || undefined}
            options={devcodes.options}
            onChange={(v?: number) => update({ devcode: v ?? 0 })}
            data-testid="binding-filter-devcode"
          />
          <Input.Search
            allowClear
            style={{ flex: '1 1 200px', maxWidth: 320 }}
            placeholder={t('protocolAdmin:binding.search')}
            defaultValue={state.search}
            onSearch={(v) => update({ search: v.trim() })}
            data-testid="binding-search"
          />
        </Flex>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="binding-add">
          {t('protocolAdmin:binding.add')}
        </Button>
      </Flex>
      <PagedTable<ProtocolBindingRow>
        query={list}
        rows={list.data?.bindings}
        total={list.data?.total}
        rowKey="id"
        columns={columns}
        pager={pager}
        errorTitle={t('protocolAdmin:loadFailed')}
        emptyText={t('protocolAdmin:empty')}
        onRow={() => ({ 'data-testid': 'binding-row' })}
      />
      {adding && <AddBindingDialog onClose={() => setAdding(false)} />}
    </Flex>
  );
}
