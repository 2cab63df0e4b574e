/**
 * Add or edit an e-mail push subscription: e-mail, plants (a picker of the caller's plants),
 * alarm types, report types, mail language and on/off. The rules (e-mail of spec §5, at least
 * one plant, something to send) are checked on blur and before sending; a server refusal lands
 * under its field, or under the form, in the user's language.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Checkbox, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiCallError, EMAIL_PUSH_ALARM_LEVELS, EMAIL_PUSH_REPORT_TYPES, LOCALES, LOCALE_NAMES } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { currentLocale } from '../../../i18n';
import { useAllPlants } from '../../shared/plants/api/all-plants';
import { useSaveSubscription, type SubscriptionRow } from '../api/queries';
import {
  ALARM_LEVEL_KEYS,
  emptySubscription,
  fieldOfError,
  subscriptionErrors,
  subscriptionFormOf,
  type SubscriptionField,
  type SubscriptionFocus,
  type SubscriptionFormValues,
} from '../subscription-form';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface SubscriptionFormModalProps {
  open: boolean;
  focus: SubscriptionFocus;
  /** The subscription to edit; absent to add one. */
  row?: SubscriptionRow;
  onClose: () => void;
}

export function SubscriptionFormModal({ open, focus, row, onClose }: SubscriptionFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SubscriptionFormValues>();
  const [formError, setFormError] = useState<string>();
  const plants = useAllPlants(open);
  const save = useSaveSubscription();
  const submitted = useRef(false);

  useEffect(() => {
    if (!open) return;
    submitted.current = false;
    setFormError(undefined);
    form.resetFields();
    form.setFieldsValue(row ? subscriptionFormOf(row) : emptySubscription(focus, currentLocale()));
  }, [open, row, focus, form]);

  const text = (key: string) => (key.startsWith('notifications:') ? t(key) : ruleText(key));
  const rule = (field: SubscriptionField) => ({
    validator: async () => {
      const key = subscriptionErrors(form.getFieldsValue(true) as SubscriptionFormValues)[field];
      if (key) throw new Error(text(key));
    },
  });

  const submit = async () => {
    setFormError(undefined);
    submitted.current = true;
    let values: SubscriptionFormValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true) as SubscriptionFormValues;
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ ...(row ? { id: row.id } : {}), values });
    } catch (e) {
      const field = e instanceof ApiCallError ? fieldOfError(e.err) : undefined;
      if (field) form.setFields([{ name: field, errors: [apiErrorText(e)] }]);
      else setFormError(apiErrorText(e));
      return;
    }
    void notice().success(t(row ? 'notifications:saved' : 'notifications:created', { email: values.email.trim() }));
    onClose();
  };

  // a plant of the subscription the picker no longer lists still shows by its name
  const known = new Map((plants.data ?? []).map((p) => [p.pid, p.name]));
  for (const p of row?.plants ?? []) if (!known.has(p.pid)) known.set(p.pid, p.pname);
  const plantOptions = [...known].map(([value, label]) => ({ value, label }));
  // ticking one group re-checks the other ("something to send" spans both)
  const recheck = (other: SubscriptionField) => () => {
    if (submitted.current) void form.validateFields([other]).catch(() => undefined);
  };

  return (
    <DraggableModal
      open={open}
      title={row ? t('notifications:form.editTitle', { email: row.email }) : t('notifications:form.createTitle')}
      okText={t('notifications:form.save')}
      cancelText={t('notifications:form.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      forceRender
      width={560}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<SubscriptionFormValues> form={form} layout="vertical" validateTrigger="onBlur" data-testid="subscription-form">
        <Form.Item name="email" label={t('notifications:field.email')} required rules={[rule('email')]}>
          <Input type="email" autoComplete="off" maxLength={64} data-testid="subscription-email" />
        </Form.Item>
        <Form.Item
          name="pid"
          label={t('notifications:field.plants')}
          required
          rules={[rule('pid')]}
          validateTrigger={['onBlur', 'onChange']}
          extra={plants.isSuccess && plantOptions.length === 0 ? t('notifications:form.noPlants') : undefined}
        >
          <Select
            mode="multiple"
            allowClear
            loading={plants.isLoading}
            options={plantOptions}
            optionFilterProp="label"
            placeholder={t('notifications:form.plantsPlaceholder')}
            data-testid="subscription-plants"
          />
        </Form.Item>
        <Form.Item
          name="level"
          label={t('notifications:field.level')}
          extra={t('notifications:form.levelHint')}
          rules={[rule('level')]}
          validateTrigger={['onChange']}
        >
          <Checkbox.Group
            data-testid="subscription-level"
            onChange={recheck('report')}
            options={EMAIL_PUSH_ALARM_LEVELS.map((l) => ({ value: l, label: t(`notifications:level.${ALARM_LEVEL_KEYS[l]}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="report"
          label={t('notifications:field.report')}
          extra={t('notifications:form.reportHint')}
          rules={[rule('report')]}
          validateTrigger={['onChange']}
        >
          <Checkbox.Group
            data-testid="subscription-report"
            onChange={recheck('level')}
            options={EMAIL_PUSH_REPORT_TYPES.map((r) => ({ value: r, label: t(`notifications:report.${r}`) }))}
          />
        </Form.Item>
        <Form.Item name="language" label={t('notifications:field.language')}>
          <Select
            options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
            data-testid="subscription-language"
            style={{ maxWidth: 240 }}
          />
        </Form.Item>
        <Form.Item name="enable" label={t('notifications:field.enable')} valuePropName="checked">
          <Switch data-testid="subscription-enable" />
        </Form.Item>
        {formError && <Alert type="error" showIcon message={formError} data-testid="subscription-form-error" />}
      </Form>
    </DraggableModal>
  );
}
