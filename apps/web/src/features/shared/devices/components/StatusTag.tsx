import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusLabelKey, statusTagColor } from '../status';

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusTagColor(status)} data-status={status}>
      {t(statusLabelKey(status))}
    </Tag>
  );
}
