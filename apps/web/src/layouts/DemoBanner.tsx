import { Alert, Button, Space } from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/use-session';
import { useSignOut } from '../app/use-sign-out';
import { clearDemoMark, isDemoSession } from '../features/entry/experience/demo-session';

/**
 * Says on every page of an area that this session was opened by an experience code and is a
 * read-only demonstration (issue 12; the server refuses its writes), with the way out: sign up for
 * an account of one's own, or leave the demo. Renders nothing for other sessions.
 */
export function DemoBanner() {
  const { t } = useTranslation();
  const session = useSession();
  const toSignup = useSignOut('/entry?mode=signup');
  const leave = useSignOut('/entry');
  if (!session || !isDemoSession(session.token)) return null;
  const out = (go: () => Promise<void>) => () => {
    clearDemoMark();
    void go();
  };
  return (
    <Alert
      data-testid="demo-banner"
      role="status"
      type="warning"
      showIcon
      icon={<ExperimentOutlined />}
      title={t('common:demoSession.title')}
      description={t('common:demoSession.text')}
      action={
        <Space wrap size="small">
          <Button size="small" type="primary" onClick={out(toSignup)} data-testid="demo-banner-signup">
            {t('common:demoSession.signup')}
          </Button>
          <Button size="small" onClick={out(leave)} data-testid="demo-banner-leave">
            {t('common:demoSession.leave')}
          </Button>
        </Space>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
