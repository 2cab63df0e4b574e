import { useEffect } from 'react';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { reportBoundaryError } from '../app/web-errors/install';

/** Last-resort error boundary of the router (a failed chunk load, a render error). */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error('route error', error);
    reportBoundaryError(error); // issue 16: loader errors never reach a React boundary
  }, [error]);
  return (
    <Result
      status="error"
      title={t('common:error.page')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common:actions.retry')}
        </Button>
      }
    />
  );
}
