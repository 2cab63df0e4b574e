import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** 401: no permission (spec §2), with Back and Home. */
export default function NoPermissionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="401"
      subTitle={t('pages:noPermission.text')}
      extra={
        <Space>
          <Button onClick={() => void navigate(-1)}>{t('common:actions.back')}</Button>
          <Button type="primary" onClick={() => void navigate('/home')}>
            {t('common:actions.home')}
          </Button>
        </Space>
      }
    />
  );
}
