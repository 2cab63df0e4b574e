/**
 * The upgrade task list (queryFirmwareUpgrades): server-paged, live progress bars polled while a
 * task of the page runs, outcome tags, the reason of a failure ("download exception: please try
 * again later" for an abnormal exit), per-row cancel for accounts that may write, and the counts
 * of the whole filtered set by outcome.
 */
import { Alert, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UpgradeTaskRow } from '@sunwatch/protocol';
import { FIRMWARE_UPGRADE_STATUS } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useUpgradeTasks, type TaskListParams } from '../api/queries';
import { outcomeKey } from '../model/status';
import { CancelTaskButton, OutcomeTag, TaskProgress } from './TaskParts';

export const TASK_PAGE_SIZES = [10, 20, 50] as const;

/** Counts by FIRMWARE_UPGRADE_STATUS, as tags (the whole filtered set, not the page). */
export function StatusSummary({ count }: { count: Record<string, number> | undefined }) {
  const { t } = useTranslation('upgrades');
  const entries = Object.values(FIRMWARE_UPGRADE_STATUS)
    .map((s) => [s, count?.[String(s)] ?? 0] as const)
    .filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return (
    <Flex wrap gap={4} data-testid="upg-summary">
      {entries.map(([s, n]) => (
        <Tag key={s} data-testid={`upg-count-${s}`}>
          {t(`status.${outcomeKey(s)}`)}: {n}
        </Tag>
      ))}
    </Flex>
  );
}

/** The failure reason of a row: the server's text (translated there from its reason code in the interface language, sent as `i18n`), else the spec's message for its outcome. */
export function failureText(t: (k: string) => string, row: Pick<UpgradeTaskRow, 'status' | 'error'>): string {
  if (row.error) return row.error;
  if (row.status === FIRMWARE_UPGRADE_STATUS.exception) return t('messages.downloadException');
  return '';
}

export function TaskTable({
  params,
  onPage,
  canWrite,
  compact,
  testId = 'upg-tasks',
}: {
  params: TaskListParams;
  onPage: (page: number, pagesize: number) => void;
  canWrite: boolean;
  /** The device tab and drawer: fewer columns. */
  compact?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation('upgrades');
  const q = useUpgradeTasks(params);
  const rows = q.data?.task ?? [];
  const columns: TableColumnsType<UpgradeTaskRow> = [
    {
      key: 'target',
      title: t('task.target'),
      render: (_, r) => (
        <Flex vertical>
          <Typography.Text>{r.pn}</Typography.Text>
          {r.target === 1 && r.sn ? <Typography.Text type="secondary">{r.sn}</Typography.Text> : null}
        </Flex>
      ),
    },
    ...(compact
      ? []
      : [
          {
            key: 'firmware',
            title: t('task.firmware'),
            render: (_: unknown, r: UpgradeTaskRow) => `${r.firmware.name} ${r.firmware.version}`,
          },
        ]),
    {
      key: 'versions',
      title: t('task.versions'),
      render: (_, r) => `${r.fromVersion || '--'} → ${r.toVersion || '--'}`,
    },
    {
      key: 'progress',
      title: t('task.progress'),
      render: (_, r) => (
        <TaskProgress
          status={r.status}
          progress={r.progress}
          testId={`upg-progress-${r.pn}${r.sn ? `-${r.sn}` : ''}`}
        />
      ),
    },
    {
      key: 'status',
      title: t('task.status'),
      render: (_, r) => {
        const why = failureText(t, r);
        return (
          <Flex vertical gap={2}>
            <OutcomeTag status={r.status} phase={r.phase} testId={`upg-status-${r.pn}${r.sn ? `-${r.sn}` : ''}`} />
            {why ? <Typography.Text type="danger">{why}</Typography.Text> : null}
          </Flex>
        );
      },
    },
    ...(compact
      ? []
      : [
          {
            key: 'batch',
            title: t('task.batch'),
            render: (_: unknown, r: UpgradeTaskRow) => r.batch ?? r.strategy ?? '--',
          },
          { key: 'usr', title: t('task.usr'), dataIndex: 'usr' },
        ]),
    { key: 'ts', title: t('task.time'), render: (_, r) => r.ets ?? r.ts },
    ...(canWrite
      ? [
          {
            key: 'op',
            title: t('task.actions'),
            render: (_: unknown, r: UpgradeTaskRow) => <CancelTaskButton pn={r.pn} taskKey={r.key} status={r.status} />,
          },
        ]
      : []),
  ];
  return (
    <Flex vertical gap={8} data-testid={testId}>
      {q.isError ? <Alert type="error" showIcon message={apiErrorText(q.error)} /> : null}
      <StatusSummary count={q.data?.count} />
      <Table
        size="small"
        rowKey="key"
        loading={q.isLoading}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('task.empty') }}
        pagination={{
          current: (params.page ?? 0) + 1,
          pageSize: params.pagesize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [...TASK_PAGE_SIZES],
          showTotal: (n) => t('task.total', { count: n }),
          onChange: (current, size) => onPage(size !== params.pagesize ? 0 : current - 1, size),
        }}
      />
    </Flex>
  );
}
