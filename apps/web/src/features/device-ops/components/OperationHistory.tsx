/**
 * Operation history (issue 10: every write to a datalogger or a device): who, when, what, old →
 * new value, result. Paged on the server (webQueryOperationLog).
 */
import { useState } from 'react';
import { Table, Tag, Typography, type TableColumnsType } from 'antd';
import { ApiCallError, type OperationLogRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { useCtrlFields, useOperationLog } from '../api/queries';
import { opValueText } from './op-values';

export function OperationHistory({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const q = useOperationLog(device, page.current - 1, page.pageSize);
  // control fields already loaded by the control tab name the written fields and their items
  // the control fields (as the control tab shows them) name the written fields and their items;
  // without them (no right to see them) the history shows the field ids and raw values
  const ctrl = useCtrlFields(device, { quiet: true });
  const fields = new Map((ctrl.data?.field ?? []).map((f) => [f.id, f]));

  const columns: TableColumnsType<OperationLogRow> = [
    { title: t('deviceOps:history.time'), dataIndex: 'gts', key: 'gts', width: 170 },
    { title: t('deviceOps:history.user'), dataIndex: 'usr', key: 'usr' },
    {
      title: t('deviceOps:history.kind'),
      key: 'kind',
      render: (_, r) => t(`deviceOps:kinds.${r.kind}`, { defaultValue: r.kind }),
    },
    {
      title: t('deviceOps:history.target'),
      key: 'target',
      render: (_, r) => fields.get(r.target)?.name ?? (r.target || '--'),
    },
    {
      title: t('deviceOps:history.change'),
      key: 'change',
      render: (_, r) => {
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
      title: t('deviceOps:history.result'),
      key: 'result',
      render: (_, r) =>
        r.result === 0 ? (
          <Tag color="success">{t('deviceOps:history.done')}</Tag>
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
      locale={emptyLocale(q.isError ? apiErrorText(q.error) : t('deviceOps:history.empty'))}
      {...responsiveTable(columns, phone, 2)}
      pagination={{
        current: page.current,
        pageSize: page.pageSize,
        total: q.data?.total ?? 0,
        showTotal: (n) => t('deviceOps:history.total', { count: n }),
        onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
      }}
    />
  );
}
