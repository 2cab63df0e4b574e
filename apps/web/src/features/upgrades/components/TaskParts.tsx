/** Small pieces every upgrade screen shows: the outcome tag, the progress bar, the cancel button. */
import { Button, Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { notice, showApiError } from '../../../app/notify';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useCancelUpgrade } from '../api/queries';
import {
  OUTCOME_COLOR,
  isRunning,
  outcomeKey,
  progressPercent,
  progressStatus,
  type OutcomeKey,
} from '../model/status';

export function OutcomeTag({
  status,
  phase,
  outcome,
  testId,
}: {
  status: number;
  phase?: string;
  outcome?: OutcomeKey;
  testId?: string;
}) {
  const { t } = useTranslation('upgrades');
  const key = outcome ?? outcomeKey(status, phase);
  return (
    <Tag color={OUTCOME_COLOR[key]} data-testid={testId} data-outcome={key}>
      {t(`status.${key}`)}
    </Tag>
  );
}

/** Progress 0..1000 as a bar with one decimal ("45.3 %"). */
export function TaskProgress({ status, progress, testId }: { status: number; progress: number; testId?: string }) {
  const pct = progressPercent(progress);
  return (
    <Progress
      percent={Number(pct)}
      status={progressStatus(status)}
      size="small"
      format={() => `${pct} %`}
      style={{ minWidth: 120, maxWidth: 220, marginBottom: 0 }}
      data-testid={testId}
      data-progress={pct}
    />
  );
}

/** Cancel of a running task, after a confirmation; "cancel failure" when the task had already ended. */
export function CancelTaskButton({
  pn,
  taskKey,
  status,
  disabled,
}: {
  pn: string;
  taskKey: string;
  status: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation('upgrades');
  const confirm = useConfirm();
  const cancel = useCancelUpgrade();
  if (!isRunning(status)) return null;
  return (
    <Button
      size="small"
      danger
      disabled={disabled}
      loading={cancel.isPending}
      data-testid={`upg-cancel-${taskKey}`}
      onClick={() =>
        confirm({
          title: t('cancel.title'),
          content: t('cancel.confirm', { pn }),
          okText: t('cancel.ok'),
          okButtonProps: { danger: true },
          onOk: async () => {
            try {
              const r = await cancel.mutateAsync({ pn, key: taskKey });
              if (r.ret === 0) void notice().success(t('cancel.done'));
              else void notice().error(t('cancel.failed'));
            } catch (e) {
              showApiError(e);
            }
          },
        })
      }
    >
      {t('cancel.button')}
    </Button>
  );
}
