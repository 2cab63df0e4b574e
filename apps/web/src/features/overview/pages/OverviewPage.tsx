/**
 * Overview homes. New editions: the full fleet figures (/adminNew/home; /generalNew/home,
 * "my devices", adds the device cards). Old editions: the classic layout of the same
 * figures (/admin/home; /general/home adds the device list, the classic general area
 * having no device page of its own).
 */
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { areaOfPath } from '../../../app/routes';
import { DeviceBrowser } from '../../devices/components/DeviceBrowser';
import { FleetFigures } from '../components/FleetFigures';

export default function OverviewPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const area = areaOfPath(pathname);
  const classic = area?.edition === 'old';
  const general = area?.id === 'general' || area?.id === 'generalNew';
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <FleetFigures variant={classic ? 'classic' : 'full'} />
      {general && (
        <DeviceBrowser title={t('overview:myDevices')} modes={classic ? ['list', 'card'] : ['card', 'list', 'map']} />
      )}
    </Space>
  );
}
