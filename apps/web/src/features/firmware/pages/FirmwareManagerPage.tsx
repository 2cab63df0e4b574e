/**
 * adminNew/setting/firmware ("default firmware") and admin/setting/firmware (issue 13): the
 * firmware manager library (origin 0, 8 MB), the default firmware per datalogger type and, for
 * manufacturers, their signing keys.
 */
import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DefaultFirmwareCard } from '../components/DefaultFirmwareCard';
import { FirmwareLibrary } from '../components/FirmwareLibrary';
import { SigningKeysCard } from '../components/SigningKeysCard';
import { useFirmwareWriter } from '../use-firmware-writer';

export default function FirmwareManagerPage() {
  const { t } = useTranslation('firmware');
  const { keys, manufacturer, canWrite } = useFirmwareWriter();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="fw-manager-page">
      <Card title={t('page.manager')} size="small">
        <Typography.Paragraph type="secondary">{t('page.managerHint')}</Typography.Paragraph>
        <FirmwareLibrary origin={0} canWrite={canWrite} />
      </Card>
      <DefaultFirmwareCard canWrite={canWrite} />
      {manufacturer && <SigningKeysCard keys={keys.data?.keys ?? []} canWrite={canWrite} />}
    </Space>
  );
}
