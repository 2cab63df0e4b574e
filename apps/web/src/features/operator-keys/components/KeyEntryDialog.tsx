/**
 * Add or edit a key entry (spec §3 "Key entry", §5 rules through the protocol's keyEntryFormSchema).
 * The key is typed once: editing, the field stays empty and a typed key replaces the stored one.
 */
import { useState } from 'react';
import { Alert, Col, Form, Input, Row, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { COMPANY_KEY_CLIENTS, COMPANY_KEY_TEXT_MAX, type CompanyKeyRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useAddCompanyKey, useEditCompanyKey } from '../api/queries';
import { CLIENT_LABELS } from '../clients';
import { keyFormErrors, keyFormValuesOf, keyWireParams, maskedKey, type KeyFormValues } from '../model';

export function KeyEntryDialog({ row, onClose }: { row?: CompanyKeyRow; onClose: () => void }) {
  const { t } = useTranslation('operatorKeys');
  const [form] = Form.useForm<KeyFormValues>();
  const add = useAddCompanyKey();
  const edit = useEditCompanyKey();
  const [error, setError] = useState<string>();
  const editing = row !== undefined;

  /** The protocol's schema decides; each field shows its own first error. */
  const rule = (field: keyof KeyFormValues) => ({
    validator: async () => {
      const key = keyFormErrors(form.getFieldsValue(true) as KeyFormValues, editing)[field];
      if (key) throw new Error(ruleText(key));
    },
  });

  const submit = async () => {
    let values: KeyFormValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true) as KeyFormValues;
    } catch {
      return;
    }
    setError(undefined);
    try {
      if (row) await edit.mutateAsync({ id: row.id, ...keyWireParams(values) });
      else await add.mutateAsync({ ...keyWireParams(values), 'company-key': values.key });
      void notice().success(t(row ? 'saved' : 'added', { company: values.company.trim() }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  const text = (name: keyof KeyFormValues, max: number, props: { placeholder?: string } = {}) => (
    <Form.Item name={name} label={t(`field.${name}`)} rules={[rule(name)]} validateTrigger="onBlur">
      <Input maxLength={max} autoComplete="off" data-testid={`key-field-${name}`} {...props} />
    </Form.Item>
  );

  return (
    <DraggableModal
      open
      title={t(editing ? 'form.editTitle' : 'form.addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'key-form-ok' } }}
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<KeyFormValues> form={form} layout="vertical" initialValues={keyFormValuesOf(row)} data-testid="key-form">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            {text('company', COMPANY_KEY_TEXT_MAX.company)}
          </Col>
          <Col xs={24} sm={12}>
            {text('contact', COMPANY_KEY_TEXT_MAX.contact)}
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="client" label={t('field.client')} rules={[rule('client')]}>
              <Select
                options={COMPANY_KEY_CLIENTS.map((c) => ({ value: c, label: CLIENT_LABELS[c] }))}
                placeholder={t('form.pickClient')}
                data-testid="key-field-client"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            {text('version', COMPANY_KEY_TEXT_MAX.version, { placeholder: '1.0.0' })}
          </Col>
          <Col xs={24} sm={12}>
            {text('domain', COMPANY_KEY_TEXT_MAX.host, { placeholder: 'example.com' })}
          </Col>
          <Col xs={24} sm={12}>
            {text('hostname', COMPANY_KEY_TEXT_MAX.host, { placeholder: 'app.example.com' })}
          </Col>
        </Row>
        <Form.Item
          name="key"
          label={t('field.key')}
          rules={[rule('key')]}
          validateTrigger="onBlur"
          extra={editing ? t('form.keyKeep', { key: maskedKey(row.keyHint) }) : t('form.keyHint')}
        >
          <Input.Password
            autoComplete="new-password"
            placeholder={editing ? t('form.keyKeepPlaceholder') : t('form.keyPlaceholder')}
            data-testid="key-field-key"
          />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('field.description')}
          rules={[rule('description')]}
          validateTrigger="onBlur"
        >
          <Input.TextArea
            rows={2}
            maxLength={COMPANY_KEY_TEXT_MAX.description}
            showCount
            data-testid="key-field-description"
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('field.enabled')} valuePropName="checked">
          <Switch data-testid="key-field-enabled" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('form.effect')}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="key-form-error" />}
    </DraggableModal>
  );
}
