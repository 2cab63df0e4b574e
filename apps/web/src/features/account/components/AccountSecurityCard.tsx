import { Alert, Card, Descriptions, Divider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AccountInfoDat } from '@sunwatch/protocol';
import { ChangePasswordForm } from './ChangePasswordForm';

/**
 * Account security (spec §2): where the account can be recovered from (bound email / phone), the
 * last sign-in, and the change-password form (old must match, new must differ, rules of §5).
 */
export function AccountSecurityCard({ info }: { info: AccountInfoDat }) {
  const { t } = useTranslation();
  const none = <Typography.Text type="secondary">{t('pages:personal.none')}</Typography.Text>;
  const recoverable = !!(info.email || info.mobile);
  return (
    <Card title={t('personal:security.title')} data-testid="account-security-card">
      {!recoverable && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('personal:security.noRecovery')} />}
      <Descriptions column={{ xs: 1, md: 2 }} size="small">
        <Descriptions.Item label={t('personal:security.recovery')}>
          {recoverable ? [info.email, info.mobile].filter(Boolean).join(' · ') : none}
        </Descriptions.Item>
        <Descriptions.Item label={t('pages:personal.registered')}>{info.gts || none}</Descriptions.Item>
        <Descriptions.Item label={t('pages:personal.lastLogin')}>{info.lastAtuhTs || none}</Descriptions.Item>
        <Descriptions.Item label={t('pages:personal.lastLoginAddr')}>{info.lastAtuhAddr || none}</Descriptions.Item>
      </Descriptions>
      <Divider titlePlacement="start" plain>
        {t('pages:password.title')}
      </Divider>
      <ChangePasswordForm />
    </Card>
  );
}
