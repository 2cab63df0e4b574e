/**
 * The admin homes: the full fleet figures (/adminNew/home) or their classic layout
 * (/admin/home). The general homes add the device list (GeneralHomePage).
 */
import { Space } from 'antd';
import { useLocation } from 'react-router';
import { areaOfPath } from '../../../app/routes';
import { FleetFigures } from '../components/FleetFigures';

export default function OverviewPage() {
  const { pathname } = useLocation();
  const classic = areaOfPath(pathname)?.edition === 'old';
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <FleetFigures variant={classic ? 'classic' : 'full'} />
    </Space>
  );
}
