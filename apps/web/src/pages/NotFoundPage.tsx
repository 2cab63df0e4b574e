import { useEffect } from 'react';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lastNotFound } from '../app/not-found';

/** 404 (spec §2); spec §8: a /404 is logged as an error. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    console.error('404 page not found', lastNotFound() ?? window.location.pathname);
  }, []);
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('pages:notFound.text')}
      extra={
        <Button type="primary" onClick={() => void navigate('/home')}>
          {t('common:actions.home')}
        </Button>
      }
    />
  );
}
