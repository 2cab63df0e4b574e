/**
 * /adminNewStatr/home/actionLog (issue 14, operator only): every call of the platform's action
 * endpoint — who, action, parameters with secrets redacted, err, duration, address, client —
 * filtered by account, action, outcome, days and address, newest first, paged on the server; a
 * row opens a drawer with its parameters as JSON. The retention of both logs is set here. Every
 * filter is in the address bar. Issue 16: a second tab (`tab=web`) shows the web app's reported
 * errors, slow pages and session trails beside the calls (WebErrorsTab).
 */
import { useState } from 'react';
import { Card, Flex, Input, InputNumber, Select, Space, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ActionLogRow } from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useActionLog } from '../api/queries';
import { DayRange } from '../components/DayRange';
import { ParamsDrawer } from '../components/ParamsDrawer';
import { RetentionPanel } from '../components/RetentionPanel';
import { WebErrorsTab } from '../components/WebErrorsTab';
import { when } from '../components/when';
import { ACTION_LOG_SPEC, PAGE_SIZES, actionLogParams, type ErrFilter } from '../model';

export default function ActionLogPage() {
  const { t } = useTranslation('operatorLogs');
  const [params, setParams] = useSearchParams();
  const active = params.get('tab') === 'web' ? 'web' : 'calls';
  return (
    <Tabs
      activeKey={active}
      onChange={(k) => setParams(k === 'web' ? { tab: 'web' } : {}, { replace: true })}
      data-testid="action-log-tabs"
      items={[
        { key: 'calls', label: t('tabs.calls'), children: active === 'calls' ? <ActionCallsTab /> : null },
        {
          key: 'web',
          label: t('tabs.web'),
          children:
            active === 'web' ? (
              <Card title={t('web.title')} size="small">
                <WebErrorsTab />
              </Card>
            ) : null,
        },
      ]}
    />
  );
}

function ActionCallsTab() {
  const { t } = useTranslation('operatorLogs');
  const [state, update] = useListState(ACTION_LOG_SPEC);
  const list = useActionLog(actionLogParams(state));
  const [open, setOpen] = useState<ActionLogRow>();

  const columns: TableColumnsType<ActionLogRow> = [
    { title: t('col.time'), dataIndex: 'ts', width: 170, render: (ts: number) => when(ts) },
    {
      title: t('col.action'),
      dataIndex: 'action',
      width: 200,
      render: (action: string) => (
        <Typography.Text strong data-testid="action-log-action">
          {action}
        </Typography.Text>
      ),
    },
    { title: t('col.usr'), dataIndex: 'usr', width: 130, render: (v: string) => v || t('anonymous') },
    {
      title: t('col.err'),
      dataIndex: 'err',
      width: 80,
      render: (err: number) => <Tag color={err === 0 ? 'success' : 'error'}>{err}</Tag>,
    },
    { title: t('col.duration'), dataIndex: 'durationMs', width: 100, render: (n: number) => t('ms', { n }) },
    { title: t('col.ip'), dataIndex: 'ip', width: 130 },
    { title: t('col.client'), dataIndex: 'userAgent', ellipsis: { showTitle: true }, render: (v: string) => v || '—' },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="action-log-page">
      <Card title={t('actionTitle')} size="small">
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('actionHint')}
          </Typography.Paragraph>
          <Flex wrap gap={8} align="center">
            <Input.Search
              allowClear
              defaultValue={state.search}
              key={`u-${state.search}`}
              placeholder={t('usrPlaceholder')}
              onSearch={(v) => update({ search: v.trim() })}
              style={{ width: 200, maxWidth: '100%' }}
              data-testid="action-log-usr"
            />
            <Input.Search
              allowClear
              defaultValue={state.act}
              key={`a-${state.act}`}
              placeholder={t('actionPlaceholder')}
              onSearch={(v) => update({ act: v.trim() })}
              style={{ width: 200, maxWidth: '100%' }}
              data-testid="action-log-action-filter"
            />
            <Select<ErrFilter>
              value={state.errFilter}
              onChange={(errFilter) => update({ errFilter })}
              options={(['all', 'failed', 'code'] as const).map((v) => ({ value: v, label: t(`errFilter.${v}`) }))}
              style={{ width: 160, maxWidth: '100%' }}
              data-testid="action-log-err-filter"
            />
            {state.errFilter === 'code' && (
              <InputNumber<number>
                min={0}
                precision={0}
                defaultValue={state.err}
                key={`e-${state.err}`}
                aria-label={t('errCode')}
                placeholder={t('errCode')}
                onBlur={(e) => {
                  const n = Number(e.target.value);
                  if (Number.isInteger(n) && n >= 0 && n !== state.err) update({ err: n });
                }}
                onPressEnter={(e) => {
                  const n = Number((e.target as HTMLInputElement).value);
                  if (Number.isInteger(n) && n >= 0) update({ err: n });
                }}
                style={{ width: 110 }}
                data-testid="action-log-err-code"
              />
            )}
            <Input.Search
              allowClear
              defaultValue={state.ip}
              key={`i-${state.ip}`}
              placeholder={t('ipPlaceholder')}
              onSearch={(v) => update({ ip: v.trim() })}
              style={{ width: 170, maxWidth: '100%' }}
              data-testid="action-log-ip"
            />
            <DayRange
              value={state.from && state.to ? [state.from, state.to] : undefined}
              allowClear
              label={t('days')}
              onChange={(v) => update({ from: v?.[0] ?? '', to: v?.[1] ?? '' })}
              testId="action-log-days"
            />
          </Flex>
          <PagedTable<ActionLogRow>
            query={list}
            errorTitle={t('loadFailed')}
            emptyText={t('empty')}
            rows={list.data?.log}
            total={list.data?.total}
            rowKey="id"
            columns={columns}
            pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }), small: true }}
            onRow={(r) => ({
              'data-testid': 'action-log-row',
              'data-id': r.id,
              style: { cursor: 'pointer' },
              onClick: () => setOpen(r),
            })}
            data-testid="action-log-table"
          />
        </Space>
      </Card>
      <RetentionPanel />
      <ParamsDrawer row={open} onClose={() => setOpen(undefined)} />
    </Space>
  );
}
