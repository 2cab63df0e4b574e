import { Alert, Empty, Skeleton } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { apiErrorText } from '../../../app/notify';

/** Loading skeleton, error notice or "no data yet" (err 12 → null) around a query's data. */
export function QueryState<T>({
  q,
  children,
  rows = 4,
}: {
  q: UseQueryResult<T | null>;
  children: (data: T) => ReactNode;
  rows?: number;
}) {
  const { t } = useTranslation();
  if (q.isPending) return <Skeleton active paragraph={{ rows }} />;
  if (q.isError) return <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(q.error)} />;
  if (q.data === null || q.data === undefined) return <Empty description={t('devices:detail.noData')} />;
  return <>{children(q.data)}</>;
}
