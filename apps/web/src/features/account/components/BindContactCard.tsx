/**
 * Bind and unbind the email and phone of the signed-in account (issue 12, spec §4 "Removing a
 * binding"): each change needs a 6-digit code (to the new address for a binding, to the bound one
 * for an unbinding); unbinding warns that recovery through it is gone. A card the personal page
 * places (sendBindCode, bindEmail / bindMobile, unbindEmail / unbindMobile).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Flex, Form, Input, Skeleton, Space, Typography, type ButtonProps } from 'antd';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { MailOutlined, MobileOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CODE_COUNTDOWN_S, RULE_MESSAGE_VALUES, emailSchema, mainlandMobileSchema, ruleErrorKey, verificationCodeSchema, type RuleMessageKey } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText } from '../../../app/notify';
import { useAccountInfoQuery } from '../api/account-info-query';
import { accountKeys } from '../api/keys';

type Channel = 'phone' | 'email';
type Purpose = 'bind' | 'unbind';

function useCountdown(): [number, (s: number) => void] {
  const [left, setLeft] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  return [
    left,
    (s) => {
      clearInterval(timer.current);
      setLeft(s);
      timer.current = setInterval(() => setLeft((n) => (n <= 1 ? (clearInterval(timer.current), 0) : n - 1)), 1000);
    },
  ];
}

function BindDialog({ channel, purpose, current, onClose }: { channel: Channel; purpose: Purpose; current: string; onClose: () => void }) {
  const { t } = useTranslation('selfservice');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ value: string; code: string }>();
  const [left, start] = useCountdown();
  // The countdown belongs to the address the code went to: a corrected address can be sent to at once.
  const [sentTo, setSentTo] = useState<string>();
  const typed = (Form.useWatch('value', form) ?? '').trim();
  const shownLeft = purpose === 'unbind' || sentTo === typed ? left : 0;
  const [sending, setSending] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const rule = (schema: typeof emailSchema) => ({
    validator: (_: unknown, v: string | undefined) => {
      const key = ruleErrorKey(schema, (v ?? '').trim());
      return key ? Promise.reject(new Error(t(key, { ns: 'rules', ...(RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {}) }))) : Promise.resolve();
    },
  });
  const valueSchema = channel === 'phone' ? mainlandMobileSchema : emailSchema;

  const send = async () => {
    setError(undefined);
    let value: string | undefined;
    if (purpose === 'bind') {
      try {
        value = (await form.validateFields(['value'])).value.trim();
      } catch {
        return;
      }
    }
    setSending(true);
    try {
      await api.call('sendBindCode', {
        purpose,
        channel: channel === 'phone' ? '0' : '1',
        ...(value !== undefined ? (channel === 'phone' ? { mobile: value } : { email: value }) : {}),
      });
      setSentTo(value);
      start(channel === 'phone' ? CODE_COUNTDOWN_S.resetPhone : CODE_COUNTDOWN_S.resetEmail);
      void message.success(t(channel === 'phone' ? 'code.sentPhone' : 'code.sentEmail'));
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setSending(false);
    }
  };

  const save = async () => {
    setError(undefined);
    let v: { value: string; code: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const smsCode = v.code.trim();
      if (purpose === 'unbind') await api.call(channel === 'phone' ? 'unbindMobile' : 'unbindEmail', { smsCode });
      else if (channel === 'phone') await api.call('bindMobile', { mobile: v.value.trim(), smsCode });
      else await api.call('bindEmail', { email: v.value.trim(), smsCode });
      await qc.invalidateQueries({ queryKey: accountKeys.info() });
      void message.success(t(purpose === 'bind' ? 'bind.bound' : 'bind.unbound'));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setSaving(false);
    }
  };

  const what = t(channel === 'phone' ? 'bind.phone' : 'bind.email');
  return (
    <DraggableModal
      open
      title={t(purpose === 'bind' ? (current ? 'bind.changeTitle' : 'bind.bindTitle') : 'bind.unbindTitle', { what })}
      okText={t(purpose === 'bind' ? 'bind.bind' : 'bind.unbind')}
      okButtonProps={{ danger: purpose === 'unbind', loading: saving, 'data-testid': 'bind-save' } as ButtonProps}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="bind-dialog"
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ value: purpose === 'unbind' ? current : '', code: '' }}>
        {purpose === 'unbind' ? (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('bind.unbindWarning', { what, value: current })} data-testid="unbind-warning" />
        ) : null}
        <Form.Item name="value" label={what} rules={purpose === 'bind' ? [rule(valueSchema)] : []}>
          <Input disabled={purpose === 'unbind'} maxLength={channel === 'phone' ? 11 : 64} inputMode={channel === 'phone' ? 'tel' : 'email'} data-testid="bind-value" />
        </Form.Item>
        <Form.Item label={t('fields.code')} required>
          <Flex gap={8}>
            <Form.Item name="code" noStyle rules={[rule(verificationCodeSchema)]}>
              <Input maxLength={6} inputMode="numeric" data-testid="bind-code" />
            </Form.Item>
            <Button onClick={() => void send()} loading={sending} disabled={shownLeft > 0} data-testid="bind-send">
              {shownLeft > 0 ? t('code.resendIn', { seconds: shownLeft }) : t('code.send')}
            </Button>
          </Flex>
        </Form.Item>
        {error ? <Alert type="error" showIcon message={error} data-testid="bind-error" /> : null}
      </Form>
    </DraggableModal>
  );
}

export function BindContactCard() {
  const { t } = useTranslation('selfservice');
  const info = useAccountInfoQuery();
  const [dialog, setDialog] = useState<{ channel: Channel; purpose: Purpose }>();
  const row = (channel: Channel) => {
    const value = channel === 'phone' ? info.data?.mobile ?? '' : info.data?.email ?? '';
    return (
      <Descriptions.Item label={<Space>{channel === 'phone' ? <MobileOutlined /> : <MailOutlined />}{t(channel === 'phone' ? 'bind.phone' : 'bind.email')}</Space>}>
        <Flex wrap gap={8} align="center" justify="space-between" data-testid={`bind-row-${channel}`}>
          {value ? <Typography.Text data-testid={`bound-${channel}`}>{value}</Typography.Text> : <Typography.Text type="secondary">{t('bind.none')}</Typography.Text>}
          <Space wrap>
            <Button size="small" type={value ? 'default' : 'primary'} onClick={() => setDialog({ channel, purpose: 'bind' })} data-testid={`bind-${channel}`}>
              {t(value ? 'bind.change' : 'bind.bind')}
            </Button>
            {value ? (
              <Button size="small" danger onClick={() => setDialog({ channel, purpose: 'unbind' })} data-testid={`unbind-${channel}`}>
                {t('bind.unbind')}
              </Button>
            ) : null}
          </Space>
        </Flex>
      </Descriptions.Item>
    );
  };
  return (
    <Card title={t('bind.title')} data-testid="bind-card">
      <Typography.Paragraph type="secondary">{t('bind.hint')}</Typography.Paragraph>
      {info.isPending ? <Skeleton active paragraph={{ rows: 2 }} /> : null}
      {info.isError ? <Alert type="error" showIcon message={apiErrorText(info.error)} /> : null}
      {info.data ? (
        <Descriptions column={1} bordered size="middle">
          {row('email')}
          {row('phone')}
        </Descriptions>
      ) : null}
      {dialog ? (
        <BindDialog
          channel={dialog.channel}
          purpose={dialog.purpose}
          current={(dialog.channel === 'phone' ? info.data?.mobile : info.data?.email) ?? ''}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
    </Card>
  );
}

export default BindContactCard;
