/**
 * Create or edit a viewer sub-account (spec §3 "Sub-account (viewer)"): username (create only),
 * password with strength and confirm (required on create, optional on edit), e-mail, phone,
 * description, enabled and the plants it may see. Rules of spec §5 on blur; a server error lands
 * under its field, or under the form, in the user's language.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { PasswordStrength } from '../../../components/password/PasswordStrength';
import { useAddViewer, useEditViewer } from '../api/mutations';
import { useOwnPlants, type ViewerRow } from '../api/queries';
import {
  VIEWER_DESC_MAX,
  emptyViewerForm,
  fieldOfError,
  viewerFormErrors,
  viewerFormOf,
  type ViewerField,
  type ViewerFormValues,
} from '../viewer-form';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface ViewerFormModalProps {
  open: boolean;
  /** The viewer to edit; absent to create one. */
  viewer?: ViewerRow;
  onClose: () => void;
}

export function ViewerFormModal({ open, viewer, onClose }: ViewerFormModalProps) {
  const { t } = useTranslation();
  const mode = viewer ? 'edit' : 'create';
  const [form] = Form.useForm<ViewerFormValues>();
  const [formError, setFormError] = useState<string>();
  const plants = useOwnPlants(open);
  const add = useAddViewer();
  const edit = useEditViewer();
  const pending = add.isPending || edit.isPending;
  const pwd = Form.useWatch('pwd', form);
  /** After the first save attempt every rule applies, touched or not. */
  const submitted = useRef(false);

  useEffect(() => {
    if (!open) return;
    submitted.current = false;
    setFormError(undefined);
    form.resetFields();
    form.setFieldsValue(viewer ? viewerFormOf(viewer) : emptyViewerForm());
  }, [open, viewer, form]);

  /** The shared rules decide; each field shows its own first error. */
  const rule = (field: ViewerField) => ({
    validator: async () => {
      // typing a password re-checks the confirmation, but an untouched one is not yet an error
      if (field === 'confPwd' && !submitted.current && !form.isFieldTouched('confPwd')) return;
      const key = viewerFormErrors(form.getFieldsValue(true) as ViewerFormValues, mode)[field];
      if (key) throw new Error(ruleText(key));
    },
  });

  const submit = async () => {
    setFormError(undefined);
    let values: ViewerFormValues;
    submitted.current = true;
    try {
      await form.validateFields();
      values = { ...emptyViewerForm(), ...(form.getFieldsValue(true) as Partial<ViewerFormValues>) };
    } catch {
      return; // the fields show their errors
    }
    try {
      if (viewer) await edit.mutateAsync({ uid: viewer.uid, values });
      else await add.mutateAsync(values);
    } catch (e) {
      const field = e instanceof ApiCallError ? fieldOfError(e.err) : undefined;
      if (field) form.setFields([{ name: field, errors: [apiErrorText(e)] }]);
      else setFormError(apiErrorText(e));
      return;
    }
    void notice().success(t(viewer ? 'subaccounts:saved' : 'subaccounts:created', { usr: values.usr }));
    onClose();
  };

  const plantOptions = (plants.data ?? []).map((p) => ({ value: p.pid, label: p.name }));

  return (
    <DraggableModal
      open={open}
      title={viewer ? t('subaccounts:form.editTitle', { usr: viewer.usr }) : t('subaccounts:form.createTitle')}
      okText={t('subaccounts:form.save')}
      cancelText={t('subaccounts:form.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={pending}
      forceRender
      data-testid="viewer-form-modal"
      width={520}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<ViewerFormValues>
        form={form}
        layout="vertical"
        validateTrigger="onBlur"
        requiredMark
        data-testid="viewer-form"
        onFinish={() => void submit()}
      >
        <Form.Item name="usr" label={t('subaccounts:field.usr')} required={mode === 'create'} rules={[rule('usr')]}>
          <Input autoComplete="off" maxLength={32} disabled={mode === 'edit'} data-testid="viewer-usr" />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={mode === 'create' ? t('subaccounts:field.pwd') : t('subaccounts:field.newPwd')}
          required={mode === 'create'}
          rules={[rule('pwd')]}
          extra={mode === 'edit' && !pwd ? t('subaccounts:form.keepPassword') : <PasswordStrength value={pwd} />}
        >
          <Input.Password autoComplete="new-password" maxLength={32} data-testid="viewer-pwd" />
        </Form.Item>
        <Form.Item
          name="confPwd"
          label={t('subaccounts:field.confPwd')}
          required={mode === 'create'}
          dependencies={['pwd']}
          rules={[rule('confPwd')]}
        >
          <Input.Password autoComplete="new-password" maxLength={32} data-testid="viewer-confpwd" />
        </Form.Item>
        <Form.Item
          name="pid"
          label={t('subaccounts:field.plants')}
          extra={plants.isSuccess && plantOptions.length === 0 ? t('subaccounts:form.noPlants') : t('subaccounts:form.plantsHint')}
        >
          <Select
            mode="multiple"
            allowClear
            loading={plants.isLoading}
            options={plantOptions}
            optionFilterProp="label"
            placeholder={t('subaccounts:form.plantsPlaceholder')}
            data-testid="viewer-plants"
          />
        </Form.Item>
        <Form.Item name="email" label={t('subaccounts:field.email')} rules={[rule('email')]}>
          <Input type="email" autoComplete="off" maxLength={64} data-testid="viewer-email" />
        </Form.Item>
        <Form.Item name="mobile" label={t('subaccounts:field.mobile')} rules={[rule('mobile')]}>
          <Input inputMode="tel" autoComplete="off" maxLength={32} data-testid="viewer-mobile" />
        </Form.Item>
        <Form.Item name="desc" label={t('subaccounts:field.desc')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={VIEWER_DESC_MAX} data-testid="viewer-desc" />
        </Form.Item>
        <Form.Item name="enable" label={t('subaccounts:field.enable')} valuePropName="checked">
          <Switch data-testid="viewer-enable" />
        </Form.Item>
        {formError && <Alert type="error" showIcon message={formError} data-testid="viewer-form-error" />}
      </Form>
    </DraggableModal>
  );
}
