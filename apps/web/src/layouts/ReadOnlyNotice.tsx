import { Alert } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isReadOnlyRole } from '@sunwatch/protocol';
import { useSession } from '../app/use-session';

/**
 * Says on every page of an area that the account is read-only (spec §6 viewer): it sees the
 * plants shared with it and changes nothing. Renders nothing for other accounts.
 */
export function ReadOnlyNotice() {
  const { t } = useTranslation();
  const session = useSession();
  if (!session || !isReadOnlyRole(session.role)) return null;
  return (
    <Alert
      data-testid="read-only-notice"
      role="status"
      type="info"
      showIcon
      icon={<EyeOutlined />}
      title={t('common:readOnly.title')}
      description={t('common:readOnly.text')}
      style={{ marginBottom: 16 }}
    />
  );
}
