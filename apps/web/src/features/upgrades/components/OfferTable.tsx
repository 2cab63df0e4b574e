/**
 * What the caller's dataloggers (or one datalogger's devices) run and may upgrade to
 * (queryUpgradeableFirmware): version, online, the offer (default firmware of the type, or a
 * suggested strategy with its reminder), an "Upgrade" button, live progress and the last result.
 */
import { useState } from 'react';
import { Alert, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UpgradeableRow } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useUpgradeOffers } from '../api/queries';
import { OfferUpgradeButton } from './StartButtons';
import { CancelTaskButton, OutcomeTag, TaskProgress } from './TaskParts';

export function OfferCell({ row }: { row: UpgradeableRow }) {
  const { t } = useTranslation('upgrades');
  const o = row.offer;
  if (!o) return <Typography.Text type="secondary">{t('offer.none')}</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      <Typography.Text>
        {o.firmware.name} {o.firmware.version}{' '}
        <Tag>{o.from === 'strategy' ? t('offer.fromStrategy') : t('offer.fromDefault')}</Tag>
      </Typography.Text>
      {o.reminder ? <Typography.Text type="warning">{o.reminder}</Typography.Text> : null}
      {o.note ? <Typography.Text type="secondary">{o.note}</Typography.Text> : null}
    </Flex>
  );
}

export function TaskCell({ row, canWrite }: { row: UpgradeableRow; canWrite: boolean }) {
  if (!row.task) return <>--</>;
  const id = row.target === 1 ? `${row.pn}-${row.sn}` : row.pn;
  return (
    <Flex wrap gap={4} align="center">
      <TaskProgress status={row.task.status} progress={row.task.progress} testId={`upg-progress-${id}`} />
      <OutcomeTag status={row.task.status} testId={`upg-status-${id}`} />
      {canWrite ? <CancelTaskButton pn={row.pn} taskKey={row.task.key} status={row.task.status} /> : null}
    </Flex>
  );
}

export function OfferTable({
  pn = '',
  canWrite,
  expandDevices,
}: {
  pn?: string;
  canWrite: boolean;
  expandDevices?: boolean;
}) {
  const { t } = useTranslation('upgrades');
  const [page, setPage] = useState({ page: 0, pagesize: 10 });
  const q = useUpgradeOffers(pn, page.page, page.pagesize);
  const columns: TableColumnsType<UpgradeableRow> = [
    {
      key: 'name',
      title: pn ? t('offer.device') : t('offer.datalogger'),
      render: (_, r) => (
        <Flex vertical>
          <Typography.Text>{r.alias || (r.target === 1 ? r.sn : r.pn)}</Typography.Text>
          <Typography.Text type="secondary">{r.target === 1 ? r.sn : r.pn}</Typography.Text>
        </Flex>
      ),
    },
    { key: 'model', title: t('start.model'), dataIndex: 'model' },
    { key: 'version', title: t('start.version'), render: (_, r) => r.version || '--' },
    {
      key: 'online',
      title: t('start.online'),
      render: (_, r) => (
        <Tag color={r.online ? 'success' : 'default'}>{t(r.online ? 'start.isOnline' : 'start.isOffline')}</Tag>
      ),
    },
    { key: 'offer', title: t('offer.title'), render: (_, r) => <OfferCell row={r} /> },
    { key: 'task', title: t('task.progress'), render: (_, r) => <TaskCell row={r} canWrite={canWrite} /> },
    ...(canWrite
      ? [
          {
            key: 'op',
            title: t('task.actions'),
            render: (_: unknown, r: UpgradeableRow) => <OfferUpgradeButton row={r} />,
          },
        ]
      : []),
  ];
  return (
    <Flex vertical gap={8} data-testid={pn ? `upg-offers-${pn}` : 'upg-offers'}>
      {q.isError ? <Alert type="error" showIcon message={apiErrorText(q.error)} /> : null}
      <Table
        size="small"
        rowKey={(r) => `${r.pn}:${r.target}:${r.sn}`}
        loading={q.isLoading}
        dataSource={q.data?.item ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(pn ? 'offer.noDevices' : 'offer.empty') }}
        expandable={
          expandDevices
            ? {
                rowExpandable: (r) => r.target === 0,
                expandedRowRender: (r) => <OfferTable pn={r.pn} canWrite={canWrite} />,
              }
            : undefined
        }
        pagination={{
          current: page.page + 1,
          pageSize: page.pagesize,
          total: q.data?.total ?? 0,
          size: 'small',
          hideOnSinglePage: true,
          onChange: (c, s) => setPage({ page: s !== page.pagesize ? 0 : c - 1, pagesize: s }),
        }}
      />
    </Flex>
  );
}
