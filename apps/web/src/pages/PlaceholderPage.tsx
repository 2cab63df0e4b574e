import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A page whose feature belongs to a later capability: its title and an honest notice. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={4}>{t(titleKey)}</Typography.Title>
      <Empty description={t('common:notAvailable')} />
    </Card>
  );
}
