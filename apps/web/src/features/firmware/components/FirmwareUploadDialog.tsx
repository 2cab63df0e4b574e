/**
 * Upload a firmware (uploadFirmware, multipart): the file is checked here for its extension and
 * the page's limit (8 MB manager, 1 MB upgrade management) before anything is sent, then goes up
 * with a progress bar; the server checks everything again. An optional Ed25519 signature makes
 * the firmware distributable.
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Progress, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { notice, apiErrorText } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useUploadFirmware } from '../api/queries';
import { FIRMWARE_EXTENSIONS, fileProblem, maxBytesOf, type FirmwareOrigin } from '../model';
import { FirmwareFields, formValuesOf, wireParamsOf, type FirmwareFormValues } from './FirmwareFields';

/** Base64 of 64 bytes. */
const SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

type UploadValues = FirmwareFormValues & { signature: string };

export function FirmwareUploadDialog({ origin, onClose }: { origin: FirmwareOrigin; onClose: () => void }) {
  const { t } = useTranslation('firmware');
  const [form] = Form.useForm<UploadValues>();
  const upload = useUploadFirmware();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const maxMb = maxBytesOf(origin) / (1024 * 1024);

  const choose = (f: File) => {
    const problem = fileProblem(f, origin);
    if (problem) {
      setFile(undefined);
      setFileError(t(problem.key, { ns: 'rules', max: problem.max }));
    } else {
      setFile(f);
      setFileError(undefined);
      // the file name without its extension as the default name
      if (!form.getFieldValue('firmwareName')) form.setFieldsValue({ firmwareName: f.name.replace(/\.[^.]+$/, '') });
    }
    return false;
  };

  const submit = async () => {
    let values: UploadValues;
    try {
      values = await form.validateFields();
    } catch {
      if (!file) setFileError(t('form.fileRequired'));
      return;
    }
    if (!file) {
      setFileError(t('form.fileRequired'));
      return;
    }
    setError(undefined);
    setProgress(0);
    try {
      await upload.mutateAsync({
        params: { ...wireParamsOf(values), signature: (values.signature ?? '').trim(), origin },
        file,
        onProgress: setProgress,
      });
      void notice().success(
        t('uploaded', { name: values.firmwareName.trim(), version: values.firmwareVersion.trim() }),
      );
      onClose();
    } catch (e) {
      setProgress(undefined);
      setError(apiErrorText(e));
    }
  };

  return (
    <DraggableModal
      open
      title={t('form.uploadTitle')}
      okText={t('upload')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={upload.isPending ? undefined : onClose}
      confirmLoading={upload.isPending}
      okButtonProps={{ ...{ 'data-testid': 'fw-upload-ok' } }}
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<UploadValues>
        form={form}
        layout="vertical"
        initialValues={{ ...formValuesOf(), signature: '' }}
        data-testid="fw-upload-form"
      >
        <Form.Item
          label={t('form.file')}
          required
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ?? t('form.fileHint', { max: maxMb })}
        >
          <Flex vertical gap={4}>
            <Upload
              accept={FIRMWARE_EXTENSIONS.join(',')}
              maxCount={1}
              beforeUpload={choose}
              showUploadList={false}
              data-testid="fw-file"
            >
              <Button icon={<UploadOutlined />}>{t('form.chooseFile')}</Button>
            </Upload>
            {file && (
              <Typography.Text data-testid="fw-file-name" style={{ wordBreak: 'break-all' }}>
                {file.name}
              </Typography.Text>
            )}
          </Flex>
        </Form.Item>
        <FirmwareFields />
        <Form.Item
          name="signature"
          label={t('form.signature')}
          extra={t('form.signatureHelp')}
          rules={[
            {
              validator: async (_, v?: string) =>
                !v?.trim() || SIGNATURE.test(v.trim())
                  ? undefined
                  : Promise.reject(new Error(t('form.signatureInvalid'))),
            },
          ]}
        >
          <Input.TextArea rows={2} spellCheck={false} data-testid="fw-form-signature" />
        </Form.Item>
      </Form>
      {progress !== undefined && upload.isPending && (
        <Progress percent={progress} size="small" data-testid="fw-upload-progress" />
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="fw-form-error" />}
    </DraggableModal>
  );
}
