/**
 * The plant picture: jpg or png up to 1 MB (checked before sending, spec §5), uploaded with
 * progress; the thumbnail the server made is shown, and the picture can be removed.
 */
import { useState } from 'react';
import { Button, Flex, Image, Progress, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { imageFileError } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { uploadPlantPicture } from '../api/mutations';
import { fileUrl } from '../../../app/node-url';

export interface PlantPicture {
  picBig: string;
  picSmall: string;
}

export function PlantImageField({
  value,
  onChange,
  disabled,
}: {
  value: PlantPicture | undefined;
  onChange: (p: PlantPicture | undefined) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();

  const send = async (file: File) => {
    setError(undefined);
    const rule = imageFileError(file, 'project');
    if (rule) {
      setError(ruleText(rule));
      return;
    }
    setProgress(0);
    try {
      const r = await uploadPlantPicture(file, setProgress);
      onChange({ picBig: r.picBig, picSmall: r.picSmall });
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <Flex vertical gap={8} data-testid="plant-image">
      <Flex gap={12} align="center" wrap>
        {value?.picSmall ? (
          <Image src={fileUrl(value.picSmall)} preview={{ src: fileUrl(value.picBig) }} width={96} height={72} style={{ objectFit: 'cover', borderRadius: 6 }} alt={t('plants:form.image')} />
        ) : (
          <Typography.Text type="secondary">{t('plants:form.noImage')}</Typography.Text>
        )}
        <Upload
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          showUploadList={false}
          disabled={disabled || progress !== undefined}
          beforeUpload={(file) => {
            void send(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={disabled || progress !== undefined}>
            {value?.picSmall ? t('plants:form.replaceImage') : t('plants:form.uploadImage')}
          </Button>
        </Upload>
        {value?.picSmall && (
          <Button icon={<DeleteOutlined />} onClick={() => onChange(undefined)} disabled={disabled} aria-label={t('plants:form.removeImage')}>
            {t('plants:form.removeImage')}
          </Button>
        )}
      </Flex>
      {progress !== undefined && <Progress percent={progress} size="small" />}
      <Typography.Text type="secondary">{t('plants:form.imageHint')}</Typography.Text>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
    </Flex>
  );
}
