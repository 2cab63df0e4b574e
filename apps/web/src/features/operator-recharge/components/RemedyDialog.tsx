/**
 * The remedy of one order: the new state (only those RECHARGE_TRANSITIONS allows from the state
 * shown) and a reason (required). The state shown is sent as `from`: when another operator changed
 * the order first, the server refuses (err 14) and the dialog says so; the order then reloads.
 */
import { useState } from 'react';
import { Alert, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { ArrowRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ApiCallError, RECHARGE_REASON_MAX, type RechargeOrderRow, type RechargeOrderStatus } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useRemedyRechargeOrder } from '../api/queries';
import { STATUS_COLORS, remedyFormError, remedyOptions } from '../model';

export function RemedyDialog({ order, onClose }: { order: RechargeOrderRow; onClose: () => void }) {
  const { t } = useTranslation('operatorRecharge');
  const remedy = useRemedyRechargeOrder();
  const [status, setStatus] = useState<RechargeOrderStatus>();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const formError = remedyFormError({ status, reason }, order.status);
  const targets = remedyOptions(order.status);

  const submit = async () => {
    setTouched(true);
    if (formError || !status) return;
    setError(undefined);
    try {
      await remedy.mutateAsync({ id: order.id, from: order.status, status, reason: reason.trim() });
      void notice().success(t('remedy.done', { orderNo: order.orderNo, status: t(`status.${status}`) }));
      onClose();
    } catch (e) {
      setError(e instanceof ApiCallError && e.err === 14 ? t('remedy.stale') : apiErrorText(e));
    }
  };

  return (
    <DraggableModal
      open
      title={t('remedy.title', { orderNo: order.orderNo })}
      okText={t('remedy.ok')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={remedy.isPending}
      okButtonProps={{ disabled: targets.length === 0, ...{ 'data-testid': 'remedy-ok' } }}
      width={520}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form layout="vertical" data-testid="remedy-form">
        <Form.Item label={t('remedy.current')}>
          <Space wrap>
            <Tag color={STATUS_COLORS[order.status]} data-testid="remedy-from">
              {t(`status.${order.status}`)}
            </Tag>
            <ArrowRightOutlined aria-hidden />
            {status ? <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag> : '…'}
          </Space>
        </Form.Item>
        <Form.Item
          label={t('remedy.to')}
          required
          validateStatus={touched && formError === 'remedy.pickStatus' ? 'error' : ''}
          help={
            touched && formError === 'remedy.pickStatus' ? t('remedy.pickStatus') : t(`remedy.help.${order.status}`)
          }
        >
          <Select<RechargeOrderStatus>
            id="remedy-status"
            value={status}
            onChange={setStatus}
            placeholder={t('remedy.pick')}
            options={targets.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            data-testid="remedy-status"
          />
        </Form.Item>
        <Form.Item
          label={t('remedy.reason')}
          required
          validateStatus={touched && formError?.startsWith('remedy.reason') ? 'error' : ''}
          help={touched && formError?.startsWith('remedy.reason') ? t(formError) : undefined}
        >
          <Input.TextArea
            id="remedy-reason"
            rows={3}
            value={reason}
            maxLength={RECHARGE_REASON_MAX}
            showCount
            placeholder={t('remedy.reasonPlaceholder')}
            onChange={(e) => setReason(e.target.value)}
            data-testid="remedy-reason"
          />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {status === 'success' ? t('remedy.successNote') : t('remedy.recorded')}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} data-testid="remedy-error" />}
    </DraggableModal>
  );
}
