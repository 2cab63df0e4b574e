/**
 * Adjust a manufacturer's ecoin (factoryAccount): a signed integer with a reason; the balance can
 * never go below 0 (checked here and by the server, 13). The latest adjustments below.
 */
import { useState } from 'react';
import { Alert, Form, Input, InputNumber, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ManufacturerEcoinRow, ManufacturerRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { emptyLocale, tableLoading } from '../../../components/list';
import { bcp47 } from '../../shared/charts/format';
import { currentLocale } from '../../../i18n';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useAdjustEcoin, useEcoinLog } from '../api/queries';
import { ecoinFormErrors, type EcoinFormValues } from '../model';

export function EcoinDialog({ row, onClose }: { row: ManufacturerRow; onClose: () => void }) {
  const { t } = useTranslation('operatorMakers');
  const [form] = Form.useForm<EcoinFormValues>();
  const adjust = useAdjustEcoin();
  const [page, setPage] = useState(0);
  const log = useEcoinLog(row.uid, page);
  const [error, setError] = useState<string>();
  const [balance, setBalance] = useState(row.ecoin);
  const delta = Form.useWatch('delta', form);
  const rule = (field: keyof EcoinFormValues) => ({
    validator: async () => {
      const key = ecoinFormErrors({ reason: '', ...form.getFieldsValue(true) }, balance)[field];
      if (key) throw new Error(t(key.replace('operatorMakers:', '')));
    },
  });
  const when = (ms: number) =>
    new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  const submit = async () => {
    let v: EcoinFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      const r = await adjust.mutateAsync({ uid: row.uid, delta: v.delta!, reason: v.reason.trim() });
      setBalance(r.ecoin);
      form.resetFields();
      void notice().success(t('ecoin.done', { usr: row.usr, ecoin: r.ecoin }));
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  const columns: TableColumnsType<ManufacturerEcoinRow> = [
    { title: t('ecoin.at'), dataIndex: 'at', render: (v: number) => when(v), width: 140 },
    { title: t('ecoin.delta'), dataIndex: 'delta', render: (v: number) => (v > 0 ? `+${v}` : String(v)), width: 90 },
    { title: t('ecoin.balance'), dataIndex: 'balance', width: 90 },
    { title: t('ecoin.reason'), dataIndex: 'reason', ellipsis: { showTitle: true } },
    { title: t('ecoin.by'), dataIndex: 'usr', width: 110 },
  ];
  return (
    <DraggableModal
      open
      title={t('ecoin.title', { usr: row.usr })}
      okText={t('ecoin.apply')}
      cancelText={t('close')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={adjust.isPending}
      okButtonProps={{ ...{ 'data-testid': 'ecoin-form-ok' } }}
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Typography.Paragraph data-testid="ecoin-balance">
        {t('ecoin.current', { ecoin: balance })}
        {typeof delta === 'number' && Number.isInteger(delta) && delta !== 0 && (
          <Typography.Text type="secondary"> → {balance + delta}</Typography.Text>
        )}
      </Typography.Paragraph>
      <Form<EcoinFormValues> form={form} layout="vertical" initialValues={{ reason: '' }} data-testid="ecoin-form">
        <Form.Item name="delta" label={t('ecoin.delta')} rules={[rule('delta')]} extra={t('ecoin.deltaHint')}>
          <InputNumber precision={0} style={{ width: '100%' }} data-testid="ecoin-field-delta" />
        </Form.Item>
        <Form.Item name="reason" label={t('ecoin.reason')} rules={[rule('reason')]}>
          <Input maxLength={200} data-testid="ecoin-field-reason" />
        </Form.Item>
      </Form>
      {error && (
        <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="ecoin-form-error" />
      )}
      <Table<ManufacturerEcoinRow>
        rowKey="id"
        size="small"
        scroll={{ x: 520 }}
        loading={tableLoading(log)}
        dataSource={log.data?.rows ?? []}
        locale={emptyLocale(t('ecoin.empty'))}
        columns={columns}
        pagination={{
          current: page + 1,
          pageSize: 5,
          total: log.data?.total ?? 0,
          size: 'small',
          onChange: (p) => setPage(p - 1),
        }}
      />
    </DraggableModal>
  );
}
