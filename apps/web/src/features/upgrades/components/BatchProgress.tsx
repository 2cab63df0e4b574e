/**
 * The progress of one batch (queryFirmwareUpgradeBatch; issue 13, fleet-sized batches): a bar
 * for the tasks created by the background job (a batch by filter over a large fleet is created
 * page by page) and a bar for the targets that have ended, with the counts; polled every 2 s
 * while the batch is active.
 */
import { Alert, Flex, Progress, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UPGRADE_BATCH_STATE } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText } from '../../../app/notify';
import { batchFigures, batchPollInterval } from '../model/batch';

export function BatchProgress({ batch }: { batch: number }) {
  const { t } = useTranslation('upgrades');
  const q = useQuery({
    queryKey: ['upgrades', 'batch', batch],
    queryFn: () => api.call('queryFirmwareUpgradeBatch', { batch }),
    refetchInterval: (x) => batchPollInterval(x.state.data),
  });
  if (q.isError) return <Alert type="error" showIcon message={apiErrorText(q.error)} />;
  const d = q.data;
  if (!d) return null;
  const f = batchFigures(d);
  const failed = d.state === UPGRADE_BATCH_STATE.failed;
  return (
    <Flex vertical gap={4} data-testid="upg-batch-progress" style={{ maxWidth: 720 }}>
      <Typography.Text strong>{t('batch.title', { batch: d.batch, version: d.firmware.version })}</Typography.Text>
      <Typography.Text type={failed ? 'danger' : undefined} data-testid="upg-batch-created">
        {failed
          ? t('batch.failed', { error: d.error, materialised: d.materialised, total: d.total })
          : t(d.state === UPGRADE_BATCH_STATE.ready ? 'batch.ready' : 'batch.materialising', {
              materialised: d.materialised,
              total: d.total,
            })}
      </Typography.Text>
      <Progress
        percent={f.createdPct}
        status={failed ? 'exception' : d.state === UPGRADE_BATCH_STATE.ready ? 'success' : 'active'}
        size="small"
        aria-label={t('batch.created')}
      />
      <Typography.Text data-testid="upg-batch-finished">
        {t('batch.finished', { finished: f.finished, total: d.total })}
      </Typography.Text>
      <Progress
        percent={f.finishedPct}
        status={f.active ? 'active' : 'normal'}
        size="small"
        aria-label={t('batch.ended')}
      />
      <Typography.Text type="secondary" data-testid="upg-batch-counts">
        {t('batch.counts', {
          started: d.started,
          waiting: d.waiting,
          done: d.done,
          failed: d.failed,
          cancelled: d.cancelled,
          refused: d.refused,
        })}
      </Typography.Text>
    </Flex>
  );
}
