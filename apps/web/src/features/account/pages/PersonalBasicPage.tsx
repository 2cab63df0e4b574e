import { lazy, Suspense } from 'react';
import { Alert, Card, Descriptions, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { useAccountInfoQuery } from '../api/account-info-query';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { BindContactCard } from '../components/BindContactCard';
import { useSession } from '../../../app/use-session';
import { ROLE } from '@sunwatch/protocol';

/** Manufacturers only: loaded when shown, so the page's first load stays as it was for everyone. */
const DeviceCtrlPwdCard = lazy(() => import('../components/DeviceCtrlPwdCard').then((m) => ({ default: m.DeviceCtrlPwdCard })));

/**
 * Personal info: the account's basic data read-only, the change-password form and, for a
 * manufacturer, the device-control password of its domain.
 */
export default function PersonalBasicPage() {
  const { t } = useTranslation();
  const info = useAccountInfoQuery();
  const manufacturer = useSession()?.role === ROLE.MANUFACTURER;
  const none = <Typography.Text type="secondary">{t('pages:personal.none')}</Typography.Text>;
  const show = (v: string | undefined) => (v ? v : none);
  const d = info.data;

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('pages:personal.basic')}>
        {info.isPending && <Skeleton active />}
        {info.isError && <Alert type="error" showIcon message={t('pages:personal.loadFailed')} description={apiErrorText(info.error)} />}
        {d && (
          <Descriptions column={{ xs: 1, md: 2 }} bordered size="middle">
            <Descriptions.Item label={t('pages:personal.usr')}>{d.usr}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.nickname')}>{show(d.qname)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.role')}>{t(`common:roles.${d.role}`)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.email')}>{show(d.email)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.mobile')}>{show(d.mobile)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.registered')}>{show(d.gts)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.lastLogin')}>{show(d.lastAtuhTs)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.lastLoginAddr')}>{show(d.lastAtuhAddr)}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <BindContactCard />
      <Card title={t('pages:password.title')}>
        <ChangePasswordForm />
      </Card>
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
