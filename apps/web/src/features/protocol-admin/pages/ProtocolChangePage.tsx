/**
 * /adminNewStatr/home/protocolChange (issue 14, operator only): change a device's devcode (found
 * by PN + SN or PN + device address), with a reason; the list of past changes, paged. The device
 * keeps its history: samples stored before the change decode with the old devcode's definition
 * (docs/operator/protocol-admin.md).
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Select,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { SearchOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProtocolChangeRow, ProtocolDeviceRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { noFilters, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useChangeDevcode, useChanges, useDevcodes, useProtocolDevices } from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
const formatDateTime = (ms: number) =>
  new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(ms));
const SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...noFilters,
};

interface FindValues {
  pn: string;
  sn?: string;
  devaddr?: number | null;
}

function ChangeDialog({ device, onClose }: { device: ProtocolDeviceRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ devcode?: number; reason: string }>();
  const defs = useDevcodes();
  const change = useChangeDevcode();
  const [error, setError] = useState<string>();
  const submit = async () => {
    let v: { devcode?: number; reason: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      await change.mutateAsync({ deviceId: device.id, devcode: v.devcode!, reason: v.reason.trim() });
      void notice().success(t('protocolAdmin:change.done', { from: device.devcode, to: v.devcode }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t('protocolAdmin:change.title', { sn: device.sn })}
      okText={t('protocolAdmin:change.submit')}
      cancelText={t('protocolAdmin:cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={change.isPending}
      okButtonProps={{ ...{ 'data-testid': 'change-form-ok' } }}
      width={480}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Typography.Paragraph>
        {t('protocolAdmin:change.current', { devcode: device.devcode, name: device.devcodeName })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ reason: '' }}>
        <Form.Item
          name="devcode"
          label={t('protocolAdmin:change.newDevcode')}
          rules={[{ required: true, message: t('protocolAdmin:binding.devcodeRule') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={defs.isPending}
            options={(defs.data?.rows ?? [])
              .filter((d) => d.devcode !== device.devcode)
              .map((d) => ({ value: d.devcode, label: `${d.devcode} · ${d.name}` }))}
            placeholder={t('protocolAdmin:binding.devcodeRule')}
            data-testid="change-field-devcode"
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('protocolAdmin:change.reason')}
          rules={[{ required: true, whitespace: true, message: t('protocolAdmin:change.reasonRule') }]}
        >
          <Input.TextArea maxLength={255} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="change-field-reason" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t('protocolAdmin:change.history')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="change-form-error" />}
    </DraggableModal>
  );
}

function FindDevice() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FindValues>();
  const [find, setFind] = useState<{ pn: string; sn?: string; devaddr?: number }>();
  const devices = useProtocolDevices(find);
  const [changing, setChanging] = useState<ProtocolDeviceRow>();
  const submit = (v: FindValues) => {
    const sn = v.sn?.trim();
    setFind({
      pn: v.pn.trim(),
      ...(sn ? { sn } : {}),
      ...(v.devaddr !== undefined && v.devaddr !== null ? { devaddr: v.devaddr } : {}),
    });
  };
  return (
    <Card size="small" title={t('protocolAdmin:change.find')}>
      <Form<FindValues> form={form} layout="inline" onFinish={submit} style={{ rowGap: 8 }}>
        <Form.Item name="pn" rules={[{ required: true, whitespace: true, message: t('protocolAdmin:change.pnRule') }]}>
          <Input placeholder="PN" maxLength={32} style={{ width: 180 }} data-testid="change-find-pn" />
        </Form.Item>
        <Form.Item name="sn">
          <Input placeholder="SN" maxLength={64} style={{ width: 180 }} data-testid="change-find-sn" />
        </Form.Item>
        <Form.Item name="devaddr">
          <InputNumber
            placeholder={t('protocolAdmin:change.devaddr')}
            min={0}
            max={255}
            style={{ width: 140 }}
            data-testid="change-find-addr"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="change-find">
          {t('protocolAdmin:change.search')}
        </Button>
      </Form>
      {devices.isError && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={apiErrorText(devices.error)}
          data-testid="change-find-error"
        />
      )}
      {devices.data && (
        <List<ProtocolDeviceRow>
          style={{ marginTop: 12 }}
          size="small"
          dataSource={devices.data.devices}
          locale={{ emptyText: t('protocolAdmin:change.noDevice') }}
          renderItem={(d) => (
            <List.Item
              data-testid="change-device"
              actions={[
                <Button
                  key="change"
                  size="small"
                  icon={<SwapOutlined />}
                  onClick={() => setChanging(d)}
                  data-testid="change-open"
                >
                  {t('protocolAdmin:change.open')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={`${d.sn} · ${t('protocolAdmin:change.addr', { n: d.devaddr })}`}
                description={
                  <Flex wrap gap={4}>
                    <Tag>
                      {d.devcode} · {d.devcodeName}
                    </Tag>
                    {d.alias && <Tag>{d.alias}</Tag>}
                    {d.changes > 0 && <Tag color="orange">{t('protocolAdmin:change.changes', { n: d.changes })}</Tag>}
                  </Flex>
                }
              />
            </List.Item>
          )}
        />
      )}
      {changing && <ChangeDialog device={changing} onClose={() => setChanging(undefined)} />}
    </Card>
  );
}

export default function ProtocolChangePage() {
  const { t } = useTranslation();
  const [state, update] = useListState(SPEC);
  const list = useChanges({ ...(state.search ? { search: state.search } : {}), ...wirePaging(state) });
  const pager = { state, update, pageSizes: PAGE_SIZES, showTotal: (n: number) => t('protocolAdmin:total', { n }) };
  const columns: TableColumnsType<ProtocolChangeRow> = [
    { title: t('protocolAdmin:change.when'), key: 'at', render: (_, r) => formatDateTime(r.changedAt) },
    {
      title: t('protocolAdmin:change.device'),
      key: 'device',
      render: (_, r) => (
        <Flex vertical>
          <span>{r.pn}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.sn} · {t('protocolAdmin:change.addr', { n: r.devaddr })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('protocolAdmin:devcode'),
      key: 'devcode',
      render: (_, r) => (
        <span>
          {r.oldDevcode} → {r.newDevcode}
        </span>
      ),
    },
    { title: t('protocolAdmin:change.from'), key: 'from', render: (_, r) => formatDateTime(r.fromTs) },
    { title: t('protocolAdmin:change.reason'), dataIndex: 'reason', key: 'reason' },
    { title: t('protocolAdmin:change.by'), dataIndex: 'changedBy', key: 'by' },
  ];
  return (
    <Flex vertical gap={12} data-testid="protocol-change-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('protocolAdmin:change.intro')}
      </Typography.Paragraph>
      <FindDevice />
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('protocolAdmin:change.past')}
      </Typography.Title>
      <Input.Search
        allowClear
        style={{ maxWidth: 320 }}
        placeholder={t('protocolAdmin:change.searchPast')}
        defaultValue={state.search}
        onSearch={(v) => update({ search: v.trim() })}
        data-testid="change-search"
      />
      <PagedTable<ProtocolChangeRow>
        query={list}
        rows={list.data?.changes}
        total={list.data?.total}
        rowKey="id"
        columns={columns}
        pager={pager}
        errorTitle={t('protocolAdmin:loadFailed')}
        emptyText={t('protocolAdmin:empty')}
        onRow={() => ({ 'data-testid': 'change-row' })}
      />
    </Flex>
  );
}
