/** Edit the describing fields of a firmware (editFirmware); the image and its signature never change. */
import { useState } from 'react';
import { Alert, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FirmwareRow } from '@sunwatch/protocol';
import { notice, apiErrorText } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useEditFirmware } from '../api/queries';
import { FirmwareFields, formValuesOf, wireParamsOf, type FirmwareFormValues } from './FirmwareFields';

export function FirmwareEditDialog({ row, onClose }: { row: FirmwareRow; onClose: () => void }) {
  const { t } = useTranslation('firmware');
  const [form] = Form.useForm<FirmwareFormValues>();
  const edit = useEditFirmware();
  const [error, setError] = useState<string>();

  const submit = async () => {
    let values: FirmwareFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      await edit.mutateAsync({ firmware: row.firmware, ...wireParamsOf({ ...formValuesOf(row), ...values }) });
      void notice().success(t('saved', { name: values.firmwareName.trim() }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  return (
    <DraggableModal
      open
      title={t('form.editTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'fw-edit-ok' } }}
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<FirmwareFormValues>
        form={form}
        layout="vertical"
        initialValues={formValuesOf(row)}
        data-testid="fw-edit-form"
      >
        <FirmwareFields />
      </Form>
      {error && <Alert type="error" showIcon message={error} data-testid="fw-form-error" />}
    </DraggableModal>
  );
}
