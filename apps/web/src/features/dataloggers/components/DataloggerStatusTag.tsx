import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Datalogger state of spec §4: online (status 0) or offline (anything else). */
export function DataloggerStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const online = status === 0;
  return (
    <Tag color={online ? 'success' : 'default'} data-status={status} data-testid="dl-status">
      {t(online ? 'dataloggers:status.online' : 'dataloggers:status.offline')}
    </Tag>
  );
}
