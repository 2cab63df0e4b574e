/**
 * Operation history (issue 10: every write to a datalogger or a device): who, when, what, old →
 * new value, result. Paged on the server (webQueryOperationLog). Shown on the device page (one
 * device, `device`) and in the datalogger drawer (`pn`: the datalogger's own operations and its
 * devices', with a device column). An upgrade entry shows its versions and, when it did not
 * succeed, its outcome and the reason the server gives in the interface language.
 */
import { useState } from 'react';
import { Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ApiCallError, FIRMWARE_UPGRADE_STATUS, type OperationLogRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { opValueText, upgradeChangeText } from './op-values';
import { useCtrlFieldNames, useOperationLog, type OperationScope } from './queries';

/** Outcome texts of an upgrade entry's `result` (the task's status; 0 is success). */
const UPGRADE_OUTCOME: Readonly<Record<number, string>> = {
  [FIRMWARE_UPGRADE_STATUS.exception]: 'operations:upgradeStatus.exception',
  [FIRMWARE_UPGRADE_STATUS.failed]: 'operations:upgradeStatus.failed',
  [FIRMWARE_UPGRADE_STATUS.cancelled]: 'operations:upgradeStatus.cancelled',
};

export function OperationHistory(scope: OperationScope) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const q = useOperationLog(scope, page.current - 1, page.pageSize);
  const device = 'device' in scope ? scope.device : undefined;
  const ctrl = useCtrlFieldNames(device);
  const fields = new Map((ctrl.data?.field ?? []).map((f) => [f.id, f]));

  const columns: TableColumnsType<OperationLogRow> = [
    { title: t('operations:history.time'), dataIndex: 'gts', key: 'gts', width: 170 },
    ...(device
      ? []
      : [
          {
            title: t('operations:history.device'),
            key: 'device',
            render: (_: unknown, r: OperationLogRow) => (r.sn ? r.sn : t('operations:history.self')),
          },
        ]),
    { title: t('operations:history.user'), dataIndex: 'usr', key: 'usr' },
    {
      title: t('operations:history.kind'),
      key: 'kind',
      render: (_, r) => t(`operations:kinds.${r.kind}`, { defaultValue: r.kind }),
    },
    {
      title: t('operations:history.target'),
      key: 'target',
      render: (_, r) => fields.get(r.target)?.name ?? (r.target || '--'),
    },
    {
      title: t('operations:history.change'),
      key: 'change',
      render: (_, r) => {
        if (r.kind === 'upgrade')
          return <span data-testid="history-change">{upgradeChangeText(r.before, r.after)}</span>;
        const f = fields.get(r.target);
        const labels = f?.item ? new Map(f.item.map((it) => [it.key, it.val])) : undefined;
        return (
          <span data-testid="history-change">
            {opValueText(r.before, labels)} → {opValueText(r.after, labels)}
          </span>
        );
      },
    },
    {
      title: t('operations:history.result'),
      key: 'result',
      render: (_, r) =>
        r.result === 0 ? (
          <Tag color="success">{t('operations:history.done')}</Tag>
        ) : r.kind === 'upgrade' ? (
          <Typography.Text type="danger" data-testid="history-upgrade-outcome">
            {UPGRADE_OUTCOME[r.result] ? t(UPGRADE_OUTCOME[r.result]!) : r.result}
            {r.detail ? `: ${r.detail}` : ''}
          </Typography.Text>
        ) : (
          <Typography.Text type="danger">
            {r.result}: {apiErrorText(new ApiCallError(r.result, ''), 'deviceControl')}
          </Typography.Text>
        ),
    },
  ];

  return (
    <Table<OperationLogRow>
      data-testid="history-table"
      rowKey="id"
      size="small"
      dataSource={q.data?.log ?? []}
      loading={q.isFetching}
      locale={emptyLocale(q.isError ? apiErrorText(q.error) : t('operations:history.empty'))}
      {...responsiveTable(columns, phone, device ? 2 : 1)}
      pagination={{
        current: page.current,
        pageSize: page.pageSize,
        total: q.data?.total ?? 0,
        showTotal: (n) => t('operations:history.total', { count: n }),
        onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
      }}
    />
  );
}
