import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiCallError, changePasswordFormSchema, ruleErrors } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useSignOut } from '../../../app/use-sign-out';
import { useUpdatePasswordMutation } from '../api/update-password-mutation';
import { PasswordStrength } from '../../../components/password/PasswordStrength';

interface Values {
  oldPwd: string;
  pwd: string;
  confPwd: string;
}

/** Change password (spec §2 personal settings): old, new with strength, confirm. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const signOut = useSignOut();
  const mutation = useUpdatePasswordMutation();
  const pwd = Form.useWatch('pwd', form);

  /** The protocol's changePasswordFormSchema decides; each field shows its own first error. */
  const fieldRule = (field: keyof Values) => ({
    validator: async () => {
      const key = ruleErrors(changePasswordFormSchema, form.getFieldsValue(true))[field];
      if (key) throw new Error(ruleText(key));
    },
  });

  const submit = async (values: Values) => {
    try {
      await mutation.mutateAsync({ oldPassword: values.oldPwd, newPassword: values.pwd });
    } catch (e) {
      if (e instanceof ApiCallError && e.err === 16) {
        form.setFields([{ name: 'oldPwd', errors: [t('pages:password.oldWrong')] }]);
      } else if (e instanceof ApiCallError && e.err === 17) {
        form.setFields([{ name: 'pwd', errors: [apiErrorText(e)] }]);
      } else {
        showApiError(e);
      }
      return;
    }
    void notice().success(t('pages:password.success'));
    await signOut();
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 420 }}
      onFinish={(v) => void submit(v)}
      requiredMark
      validateTrigger="onBlur"
    >
      <Form.Item name="oldPwd" label={t('pages:password.old')} required rules={[fieldRule('oldPwd')]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="pwd"
        label={t('pages:password.new')}
        required
        dependencies={['oldPwd']}
        rules={[fieldRule('pwd')]}
        extra={<PasswordStrength value={pwd} />}
      >
        <Input.Password autoComplete="new-password" maxLength={32} />
      </Form.Item>
      <Form.Item
        name="confPwd"
        label={t('pages:password.confirm')}
        required
        dependencies={['pwd']}
        rules={[fieldRule('confPwd')]}
      >
        <Input.Password autoComplete="new-password" maxLength={32} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('pages:password.submit')}
      </Button>
    </Form>
  );
}
