/**
 * The device-control password of a manufacturer's domain (spec §3 "Device control password: one
 * per custom domain"): whether it is set and when it last changed; set or change it (typed twice,
 * 6–32 characters without spaces, the protocol's rule) and clear it after a confirmation. When
 * it is set, every write to a device of the domain (control, send command) asks for it.
 */
import { Alert, App, Button, Descriptions, Flex, Form, Input, Skeleton, Tag, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CTRL_PWD_MAX, CTRL_PWD_MIN, isValidCtrlPwd } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useDeviceCtrlPwd, useSetDeviceCtrlPwd } from '../api/device-ctrl-pwd';
import { useConfirm } from '../../shared/dialog/use-confirm';

interface Values {
  pwd: string;
  pwd2: string;
}

export function DeviceCtrlPwdCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const q = useDeviceCtrlPwd(true);
  const save = useSetDeviceCtrlPwd();
  const [form] = Form.useForm<Values>();
  const range = { min: CTRL_PWD_MIN, max: CTRL_PWD_MAX };

  const submit = async (v: Values) => {
    try {
      await save.mutateAsync(v.pwd);
      form.resetFields();
      void message.success(t('deviceOps:ctrlPwd.saved'));
    } catch (e) {
      void message.error(apiErrorText(e));
    }
  };

  const clear = () =>
    confirm({
      title: t('deviceOps:ctrlPwd.clearTitle'),
      content: t('deviceOps:ctrlPwd.clearBody'),
      okText: t('deviceOps:ctrlPwd.clear'),
      okButtonProps: { danger: true, 'data-testid': 'ctrl-pwd-clear-ok' },
      cancelText: t('deviceOps:common.cancel'),
      onOk: async () => {
        try {
          await save.mutateAsync('');
          void message.success(t('deviceOps:ctrlPwd.cleared'));
        } catch (e) {
          void message.error(apiErrorText(e));
        }
      },
    });

  if (q.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (q.isError) return <Alert type="error" showIcon message={t('deviceOps:ctrlPwd.loadFailed')} description={apiErrorText(q.error)} />;
  const s = q.data;
  return (
    <Flex vertical gap={16} data-testid="ctrl-pwd-card">
      <Typography.Text type="secondary">{t('deviceOps:ctrlPwd.intro')}</Typography.Text>
      <Descriptions column={{ xs: 1, md: 3 }} bordered size="small">
        <Descriptions.Item label={t('deviceOps:ctrlPwd.domain')}>
          <span data-testid="ctrl-pwd-domain">{s.domain}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceOps:ctrlPwd.state')}>
          <Tag color={s.set ? 'green' : 'default'} data-testid="ctrl-pwd-state" data-set={s.set ? '1' : '0'}>
            {s.set ? t('deviceOps:ctrlPwd.isSet') : t('deviceOps:ctrlPwd.notSet')}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('deviceOps:ctrlPwd.changed')}>
          <span data-testid="ctrl-pwd-uts">{s.set && s.uts ? s.uts : '--'}</span>
        </Descriptions.Item>
      </Descriptions>
      <Form<Values> form={form} layout="vertical" style={{ maxWidth: 420 }} onFinish={(v) => void submit(v)} validateTrigger="onBlur">
        <Form.Item
          name="pwd"
          label={s.set ? t('deviceOps:ctrlPwd.newChange') : t('deviceOps:ctrlPwd.new')}
          extra={t('deviceOps:ctrlPwd.rule', range)}
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                if (!v || !isValidCtrlPwd(v)) throw new Error(t('deviceOps:ctrlPwd.rule', range));
              },
            },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={CTRL_PWD_MAX} data-testid="ctrl-pwd-new" />
        </Form.Item>
        <Form.Item
          name="pwd2"
          label={t('deviceOps:ctrlPwd.repeat')}
          dependencies={['pwd']}
          rules={[
            {
              validator: async (_, v: string | undefined) => {
                if (!v) throw new Error(t('deviceOps:ctrlPwd.repeatMissing'));
                if (v !== form.getFieldValue('pwd')) throw new Error(t('deviceOps:ctrlPwd.mismatch'));
              },
            },
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="new-password"
            maxLength={CTRL_PWD_MAX}
            data-testid="ctrl-pwd-repeat"
            onPaste={(e) => e.preventDefault()}
          />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending && save.variables !== ''} data-testid="ctrl-pwd-save">
            {s.set ? t('deviceOps:ctrlPwd.change') : t('deviceOps:ctrlPwd.save')}
          </Button>
          {s.set && (
            <Button danger onClick={clear} loading={save.isPending && save.variables === ''} data-testid="ctrl-pwd-clear">
              {t('deviceOps:ctrlPwd.clear')}
            </Button>
          )}
        </Flex>
      </Form>
    </Flex>
  );
}
