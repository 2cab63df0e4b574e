import { Descriptions, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CollectorDetail } from '@sunwatch/protocol';

/** Where and how the datalogger connects (MQTT). */
export function ConnectionInfo({ detail }: { detail: Pick<CollectorDetail, 'pn' | 'connection'> }) {
  const { t } = useTranslation();
  const c = detail.connection;
  return (
    <Flex vertical gap={8} data-testid="dl-connection">
      <Typography.Text type="secondary">{t('dataloggers:add.connectionHint')}</Typography.Text>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('dataloggers:add.port')}>
          {c.protocol.toUpperCase()} · {window.location.hostname}:{c.port}
        </Descriptions.Item>
        <Descriptions.Item label={t('dataloggers:add.dataTopic')}>
          <Typography.Text code copyable>
            {c.dataTopic}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('dataloggers:add.cmdTopic')}>
          <Typography.Text code copyable>
            {c.cmdTopic}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('dataloggers:add.ackTopic')}>
          <Typography.Text code copyable>
            {c.ackTopic}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Flex>
  );
}

