/**
 * admin (classic edition) `setting/firmware`, first tab (issue 13): the firmware manager library
 * (origin 0, 8 MB) and, for manufacturers, their signing keys. The default firmware is the
 * `setting/firmware/default` tab (DefaultFirmwarePage); the new edition shows all three on one
 * page (FirmwareManagerPage).
 */
import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FirmwareLibrary } from '../components/FirmwareLibrary';
import { SigningKeysCard } from '../components/SigningKeysCard';
import { useFirmwareWriter } from '../use-firmware-writer';

export default function FirmwareLibraryPage() {
  const { t } = useTranslation('firmware');
  const { keys, manufacturer, canWrite } = useFirmwareWriter();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="fw-library-page">
      <Card title={t('page.manager')} size="small">
        <Typography.Paragraph type="secondary">{t('page.managerHint')}</Typography.Paragraph>
        <FirmwareLibrary origin={0} canWrite={canWrite} />
      </Card>
      {manufacturer && <SigningKeysCard keys={keys.data?.keys ?? []} canWrite={canWrite} />}
    </Space>
  );
}
