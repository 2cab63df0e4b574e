/**
 * The general homes: the fleet figures and the device list. /generalNew/home ("my devices")
 * shows the full figures and the card, list and map modes; /general/home the classic figures
 * and card and list (the classic general area has no device page of its own).
 */
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { areaOfPath } from '../../../app/routes';
import { DeviceBrowser } from '../../shared/devices/components/DeviceBrowser';
import { FleetFigures } from '../components/FleetFigures';

export default function GeneralHomePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const classic = areaOfPath(pathname)?.edition === 'old';
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <FleetFigures variant={classic ? 'classic' : 'full'} />
      <DeviceBrowser title={t('overview:myDevices')} modes={classic ? ['list', 'card'] : ['card', 'list', 'map']} />
    </Space>
  );
}
