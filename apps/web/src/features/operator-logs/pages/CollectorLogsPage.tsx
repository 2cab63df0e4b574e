/**
 * /adminNewStatr/home/log (issue 14, operator only): the datalogger log of the whole platform —
 * connections, disconnections, refused sign-ins with their reason, registrations, heartbeat gaps,
 * commands, acknowledgements and timeouts — by PN (contained or exact) and days, filtered by event
 * kind and result, newest first, paged on the server. Every filter is in the address bar.
 */
import { Alert, Card, Checkbox, Flex, Input, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  COLLECTOR_EVENT_KINDS,
  COLLECTOR_LOG_RESULTS,
  COLLECTOR_LOGS_MAX_DAYS,
  errorMessageKey,
  type CollectorEventKind,
  type CollectorLogResult,
  type OperatorCollectorLogRow,
} from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useCollectorLogs, useLogRetention } from '../api/queries';
import { DayRange } from '../components/DayRange';
import { when } from '../components/when';
import {
  COLLECTOR_LOG_SPEC,
  PAGE_SIZES,
  authFailReason,
  collectorDays,
  collectorLogParams,
  collectorRangeOk,
} from '../model';

const FAILING: readonly CollectorEventKind[] = ['auth_fail', 'timeout', 'error', 'offline'];

export default function CollectorLogsPage() {
  const { t } = useTranslation('operatorLogs');
  const [state, update] = useListState(COLLECTOR_LOG_SPEC);
  const days = collectorDays(state);
  const rangeOk = collectorRangeOk(days);
  const list = useCollectorLogs(collectorLogParams(state), rangeOk);
  const retention = useLogRetention();

  const detail = (r: OperatorCollectorLogRow) => {
    if (r.kind !== 'auth_fail') return r.detail || '—';
    const { reason, rest } = authFailReason(r.detail);
    if (!reason) return r.detail || '—';
    return (
      <span data-testid="collector-log-reason" data-reason={reason}>
        {t(`reasons.${reason}`)}
        {rest && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {' '}
            {rest}
          </Typography.Text>
        )}
      </span>
    );
  };
  const result = (r: OperatorCollectorLogRow) => {
    if (r.kind !== 'command' && r.kind !== 'ack' && r.kind !== 'timeout') return '—';
    if (r.result === 0) return <Tag color="success">{t('resultOk')}</Tag>;
    return (
      <Tag color="error">
        {t(errorMessageKey(r.result, 'deviceControl'), { ns: 'errors', defaultValue: String(r.result) })} ({r.result})
      </Tag>
    );
  };

  const columns: TableColumnsType<OperatorCollectorLogRow> = [
    { title: t('col.time'), dataIndex: 'ts', width: 170, render: (ts: number) => when(ts) },
    {
      title: t('col.pn'),
      dataIndex: 'pn',
      width: 160,
      render: (pn: string) => (
        <Typography.Link
          onClick={() => update({ search: pn, exact: true })}
          data-testid="collector-log-pn"
          title={t('onlyThisPn')}
        >
          {pn}
        </Typography.Link>
      ),
    },
    {
      title: t('col.kind'),
      dataIndex: 'kind',
      width: 150,
      render: (kind: CollectorEventKind) => (
        <Tag color={FAILING.includes(kind) ? 'error' : kind === 'connect' ? 'success' : undefined} data-kind={kind}>
          {t(`kinds.${kind}`, { defaultValue: kind })}
        </Tag>
      ),
    },
    { title: t('col.command'), dataIndex: 'cmd', width: 110, render: (v: string) => v || '—' },
    { title: t('col.result'), key: 'result', width: 160, render: (_: unknown, r) => result(r) },
    { title: t('col.user'), dataIndex: 'usr', width: 120, render: (v: string) => v || '—' },
    { title: t('col.detail'), key: 'detail', render: (_: unknown, r) => detail(r) },
  ];

  return (
    <Card title={t('collectorTitle')} size="small" data-testid="collector-log-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('collectorHint', { days: COLLECTOR_LOGS_MAX_DAYS })}
          {retention.data && <> {t('keptDays', { days: retention.data.collectorLogDays })}</>}
        </Typography.Paragraph>
        <Flex wrap gap={8} align="center">
          <Input.Search
            allowClear
            defaultValue={state.search}
            key={state.search}
            placeholder={t('pnPlaceholder')}
            onSearch={(v) => update({ search: v.trim().toUpperCase() })}
            style={{ width: 220, maxWidth: '100%' }}
            data-testid="collector-log-pn-search"
          />
          <Checkbox
            checked={state.exact}
            onChange={(e) => update({ exact: e.target.checked })}
            data-testid="collector-log-exact"
          >
            {t('exact')}
          </Checkbox>
          <DayRange
            value={days}
            allowClear={false}
            label={t('days')}
            onChange={(v) => v && update({ from: v[0], to: v[1] })}
            testId="collector-log-days"
          />
          <Select<CollectorEventKind[]>
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            placeholder={t('allKinds')}
            value={state.kinds}
            onChange={(kinds) => update({ kinds })}
            options={COLLECTOR_EVENT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="collector-log-kinds"
          />
          <Select<CollectorLogResult | ''>
            value={state.result}
            onChange={(result) => update({ result })}
            options={[
              { value: '', label: t('results.all') },
              ...COLLECTOR_LOG_RESULTS.map((r) => ({ value: r, label: t(`results.${r}`) })),
            ]}
            style={{ width: 150, maxWidth: '100%' }}
            data-testid="collector-log-result"
          />
        </Flex>
        {!rangeOk && <Alert type="warning" showIcon message={t('rangeTooLong', { days: COLLECTOR_LOGS_MAX_DAYS })} />}
        <PagedTable<OperatorCollectorLogRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={rangeOk ? list.data?.log : []}
          total={list.data?.total}
          rowKey="id"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }), small: true }}
          onRow={(r) => ({ 'data-testid': 'collector-log-row', 'data-id': r.id })}
          data-testid="collector-log-table"
        />
      </Space>
    </Card>
  );
}
