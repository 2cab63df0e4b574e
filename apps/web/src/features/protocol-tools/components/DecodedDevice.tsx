/** One device entry of a parsed frame: ingestion's verdict, the decoder's errors and the decoded fields. */
import { Alert, Flex, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { RawDeviceRow, RawFieldRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';

export function DecodedDevice({ device, testId }: { device: RawDeviceRow; testId?: string }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const columns: TableColumnsType<RawFieldRow> = [
    {
      title: t('protocolTools:raw.field'),
      key: 'title',
      render: (_, f) => (
        <Flex vertical>
          <span>{f.title}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {f.id}
            {f.internal ? ` · ${t('protocolTools:raw.internal')}` : ''}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('protocolTools:raw.value'),
      key: 'value',
      render: (_, f) => (
        <span data-testid="decoded-value" style={{ whiteSpace: 'nowrap' }}>
          {f.display}
          {f.unit ? ` ${f.unit}` : ''}
        </span>
      ),
    },
    { title: t('protocolTools:raw.register'), dataIndex: 'address', key: 'address' },
    { title: t('protocolTools:raw.words'), dataIndex: 'hex', key: 'hex', render: (h: string) => <code>{h}</code> },
  ];
  return (
    <Flex vertical gap={8} data-testid={testId ?? 'decoded-device'}>
      <Flex gap={8} wrap align="center">
        <Typography.Text strong>
          {device.devcode} {device.name}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('protocolTools:raw.address')} {device.devaddr} · SN {device.sn || '--'}
        </Typography.Text>
        {device.accepted ? (
          <Tag color="success">{t('protocolTools:raw.accepted')}</Tag>
        ) : (
          <Tag color="error">
            {t('protocolTools:raw.refused', {
              reason: t(`protocolTools:reason.${device.reason}`, { defaultValue: device.reason }),
            })}
          </Tag>
        )}
      </Flex>
      {!device.accepted && (
        <Alert
          type="warning"
          showIcon
          message={device.detail}
          description={device.errors.length > 0 ? device.errors.join('; ') : undefined}
        />
      )}
      <Table
        size="small"
        rowKey="id"
        dataSource={device.fields}
        pagination={false}
        locale={emptyLocale(t('protocolTools:raw.noFields'))}
        {...responsiveTable(columns, phone)}
      />
    </Flex>
  );
}
