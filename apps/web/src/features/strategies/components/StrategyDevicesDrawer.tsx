/**
 * The per-device results of one strategy, paged on the server: PN, SN, stage, result, progress. A
 * by-filter strategy lists its targets once they are resolved at the effective time.
 */
import { useState } from 'react';
import { Alert, Drawer, List, Progress, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { UPGRADE_PROGRESS_MAX } from '@sunwatch/protocol';
import { ListStates } from '../../../components/list';
import { useStrategyDevices, type StrategyRow } from '../api/queries';

const RESULT_COLORS = ['default', 'processing', 'success', 'error'] as const;

export function StrategyDevicesDrawer({ row, onClose }: { row?: StrategyRow; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const devices = useStrategyDevices({ code: row?.code ?? '', page: page.current - 1, pagesize: page.pageSize }, row !== undefined);
  return (
    <Drawer
      open={row !== undefined}
      onClose={onClose}
      title={row ? t('strategies:devices.title', { name: row.name }) : ''}
      width="min(560px, 100vw)"
      data-testid="strategy-devices-drawer"
    >
      {row?.filter && !row.resolved && (
        <Alert type="info" showIcon message={t('strategies:devices.pending')} style={{ marginBottom: 12 }} data-testid="strategy-devices-pending" />
      )}
      <ListStates query={devices} errorTitle={t('strategies:loadFailed')}>
        <List
          loading={devices.isFetching}
          dataSource={devices.data?.device ?? []}
          locale={{ emptyText: t('strategies:devices.empty') }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: devices.data?.total ?? 0,
            size: 'small',
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
          renderItem={(d) => (
            <List.Item data-testid="strategy-device-row">
              <Space direction="vertical" size={2} style={{ width: '100%', minWidth: 0 }}>
                <Space wrap size={6}>
                  <Typography.Text strong>{d.pn}</Typography.Text>
                  {d.sn && <Typography.Text type="secondary">{d.sn}</Typography.Text>}
                  <Tag>{t(`strategies:stage.${Math.min(d.stage, 1)}`)}</Tag>
                  <Tag color={RESULT_COLORS[d.result] ?? 'default'} data-testid="strategy-device-result">
                    {t(`strategies:result.${d.result}`)}
                  </Tag>
                </Space>
                {d.result === 1 && <Progress percent={Math.round((d.progress / UPGRADE_PROGRESS_MAX) * 1000) / 10} size="small" />}
                {d.error && <Typography.Text type="danger">{d.error}</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      </ListStates>
    </Drawer>
  );
}
