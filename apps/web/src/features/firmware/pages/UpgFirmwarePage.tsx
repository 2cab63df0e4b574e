/**
 * adminNew/setting/UpgFirmware (issue 13): the upgrade-management firmware library (origin 1,
 * 1 MB), the images cloud upgrades and upgrade strategies distribute.
 */
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FirmwareLibrary } from '../components/FirmwareLibrary';
import { useFirmwareWriter } from '../use-firmware-writer';

export default function UpgFirmwarePage() {
  const { t } = useTranslation('firmware');
  const { canWrite } = useFirmwareWriter();
  return (
    <Card title={t('page.upgrade')} size="small" data-testid="fw-upg-page">
      <Typography.Paragraph type="secondary">{t('page.upgradeHint')}</Typography.Paragraph>
      <FirmwareLibrary origin={1} canWrite={canWrite} />
    </Card>
  );
}
