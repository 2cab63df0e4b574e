/**
 * Create or edit a manufacturer (factoryAccount): account and password on creation (the password
 * goes RC4-sealed with the session secret, as every sub-account's), name, code (2-3 characters,
 * unique) and the devcodes its area may see (none picked = all).
 */
import { useState } from 'react';
import { Alert, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { encodeSubAccountPassword, type ManufacturerRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { getSession } from '../../../app/session';
import i18n from '../../../i18n';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useAddManufacturer, useEditManufacturer } from '../api/queries';
import { DEVCODE_OPTIONS, devcodeWire, makerFormErrors, type MakerFormValues } from '../model';

function text(key: string): string {
  return key.includes(':') ? i18n.t(key) : ruleText(key);
}

export function MakerDialog({ row, onClose }: { row?: ManufacturerRow; onClose: () => void }) {
  const { t } = useTranslation('operatorMakers');
  const editing = row !== undefined;
  const [form] = Form.useForm<MakerFormValues>();
  const add = useAddManufacturer();
  const edit = useEditManufacturer();
  const [error, setError] = useState<string>();
  const rule = (field: keyof MakerFormValues) => ({
    validator: async () => {
      const key = makerFormErrors({ ...initial, ...form.getFieldsValue(true) }, editing)[field];
      if (key) throw new Error(text(key));
    },
  });
  const initial: MakerFormValues = {
    usr: '',
    pwd: '',
    confPwd: '',
    name: row?.name ?? '',
    code: row?.code ?? '',
    devcodes: row?.devcodes ?? [],
  };
  const submit = async () => {
    let v: MakerFormValues;
    try {
      v = { ...initial, ...(await form.validateFields()) };
    } catch {
      return;
    }
    setError(undefined);
    try {
      if (row) {
        await edit.mutateAsync({
          uid: row.uid,
          name: v.name.trim(),
          code: v.code.trim(),
          devcodes: devcodeWire(v.devcodes),
        });
        void notice().success(t('saved', { usr: row.usr }));
      } else {
        const session = getSession();
        if (!session) return;
        await add.mutateAsync({
          usr: v.usr.trim(),
          ...encodeSubAccountPassword(session.secret, v.pwd),
          name: v.name.trim(),
          code: v.code.trim(),
          devcodes: devcodeWire(v.devcodes),
        });
        void notice().success(t('added', { usr: v.usr.trim() }));
      }
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={editing ? t('editTitle', { usr: row.usr }) : t('addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'maker-form-ok' } }}
      width={520}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<MakerFormValues> form={form} layout="vertical" initialValues={initial} data-testid="maker-form">
        {!editing && (
          <>
            <Form.Item name="usr" label={t('field.usr')} rules={[rule('usr')]}>
              <Input maxLength={32} autoComplete="off" data-testid="maker-field-usr" />
            </Form.Item>
            <Form.Item name="pwd" label={t('field.pwd')} rules={[rule('pwd')]}>
              <Input.Password maxLength={32} autoComplete="new-password" data-testid="maker-field-pwd" />
            </Form.Item>
            <Form.Item name="confPwd" label={t('field.confPwd')} dependencies={['pwd']} rules={[rule('confPwd')]}>
              <Input.Password maxLength={32} autoComplete="new-password" data-testid="maker-field-confpwd" />
            </Form.Item>
          </>
        )}
        <Form.Item name="name" label={t('field.name')} rules={[rule('name')]}>
          <Input maxLength={64} data-testid="maker-field-name" />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('field.code')}
          rules={[rule('code')]}
          extra={editing ? t('codeHint') : undefined}
        >
          <Input maxLength={3} autoComplete="off" data-testid="maker-field-code" />
        </Form.Item>
        <Form.Item name="devcodes" label={t('field.devcodes')} extra={t('devcodesHint')}>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            placeholder={t('allDevcodes')}
            options={DEVCODE_OPTIONS}
            data-testid="maker-field-devcodes"
          />
        </Form.Item>
      </Form>
      {editing && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('accountHint')}
        </Typography.Paragraph>
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="maker-form-error" />}
    </DraggableModal>
  );
}
