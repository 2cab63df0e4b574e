import { lazy, Suspense } from 'react';
import { Alert, Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { useAccountInfoQuery } from '../api/account-info-query';
import { useSession } from '../../../app/use-session';
import { ROLE } from '@sunwatch/protocol';
import { BasicInfoCard } from '../components/BasicInfoCard';
import { AccountSecurityCard } from '../components/AccountSecurityCard';
import { BindContactCard } from '../components/BindContactCard';

/** Manufacturers only: loaded when shown, so the page's first load stays as it was for everyone. */
const DeviceCtrlPwdCard = lazy(() => import('../components/DeviceCtrlPwdCard').then((m) => ({ default: m.DeviceCtrlPwdCard })));

/**
 * Personal info (spec §2 personal settings): basic info (avatar, nickname, company data;
 * editable), the email/phone bindings, account security with the change-password form and,
 * for a manufacturer, the device-control password of its domain.
 */
export default function PersonalBasicPage() {
  const { t } = useTranslation();
  const info = useAccountInfoQuery();
  const manufacturer = useSession()?.role === ROLE.MANUFACTURER;
  const d = info.data;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {info.isPending && (
        <Card title={t('pages:personal.basic')}>
          <Skeleton active />
        </Card>
      )}
      {info.isError && <Alert type="error" showIcon title={t('pages:personal.loadFailed')} description={apiErrorText(info.error)} />}
      {d && <BasicInfoCard info={d} />}
      <BindContactCard />
      {d && <AccountSecurityCard info={d} />}
      {manufacturer && (
        <Card title={t('deviceOps:ctrlPwd.title')}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
            <DeviceCtrlPwdCard />
          </Suspense>
        </Card>
      )}
    </Space>
  );
}
