/**
 * Owners' `setting/firmware` (generalNew and general; issue 13): their dataloggers (and, opened,
 * a datalogger's devices) with the version they run, what they may upgrade to, an "Upgrade"
 * button, live progress and the last result. A viewer sees it read-only (the route is a `writes`
 * page, so a viewer does not reach it; the server refuses her writes anyway).
 */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { accessFor } from '../../../app/access';
import { useSession } from '../../../app/use-session';
import { OfferTable } from '../components/OfferTable';

export default function OwnerFirmwarePage() {
  const { t } = useTranslation('upgrades');
  const access = accessFor(useSession());
  return (
    <Card title={t('offer.pageTitle')} size="small" data-testid="upg-owner-page">
      <OfferTable canWrite={!access.readOnly} expandDevices />
    </Card>
  );
}
