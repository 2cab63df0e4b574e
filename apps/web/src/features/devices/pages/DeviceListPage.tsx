import { useTranslation } from 'react-i18next';
import { DeviceBrowser } from '../../shared/devices/components/DeviceBrowser';

/** Device list page (/adminNew/device, /admin/device, /generalNew/deviceno). */
export default function DeviceListPage() {
  const { t } = useTranslation();
  return <DeviceBrowser title={t('devices:list.title')} />;
}
