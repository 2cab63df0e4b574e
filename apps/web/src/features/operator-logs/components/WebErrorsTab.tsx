/**
 * Issue 16, web error reporting: the web app's errors, slow pages and session trails as the
 * operator reads them beside the action log (tab `web` of /adminNewStatr/home/actionLog): groups by
 * fingerprint, latest first, paged on the server, filtered by kind, days and release (all in the
 * address bar); a group opens a drawer with its events, each with its stack and breadcrumb trail.
 */
import { useState } from 'react';
import { Flex, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { WEB_EVENT_KINDS, type WebErrorGroupRow, type WebEventKind } from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useWebErrorGroups } from '../api/queries';
import { PAGE_SIZES, WEB_ERRORS_SPEC, webErrorFilters, webErrorParams } from '../model';
import { DayRange } from './DayRange';
import { WebErrorDrawer } from './WebErrorDrawer';
import { when } from './when';

export const KIND_COLOR: Record<WebEventKind, string> = { error: 'error', trace: 'warning', replay: 'processing' };

export function WebErrorsTab() {
  const { t } = useTranslation('operatorLogs');
  const [state, update] = useListState(WEB_ERRORS_SPEC, { keep: ['tab'] });
  const list = useWebErrorGroups(webErrorParams(state));
  const [open, setOpen] = useState<WebErrorGroupRow>();
  const releases = list.data?.releases ?? [];

  const columns: TableColumnsType<WebErrorGroupRow> = [
    {
      title: t('web.col.kind'),
      dataIndex: 'kind',
      width: 110,
      render: (k: WebEventKind) => <Tag color={KIND_COLOR[k]}>{t(`web.kinds.${k}`)}</Tag>,
    },
    {
      title: t('web.col.message'),
      dataIndex: 'message',
      render: (m: string, r) => (
        <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ wordBreak: 'break-word' }} data-testid="web-error-message">
            {m}
          </Typography.Text>
          {r.route && <Typography.Text type="secondary">{r.route}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('web.col.count'), dataIndex: 'count', width: 90 },
    { title: t('web.col.sessions'), dataIndex: 'sessions', width: 90 },
    { title: t('web.col.release'), dataIndex: 'release', width: 130, render: (v: string) => v || '—' },
    { title: t('web.col.lastSeen'), dataIndex: 'lastSeen', width: 170, render: (ts: number) => when(ts) },
    { title: t('web.col.firstSeen'), dataIndex: 'firstSeen', width: 170, render: (ts: number) => when(ts) },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="web-errors">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('web.hint')}
      </Typography.Paragraph>
      <Flex wrap gap={8} align="center">
        <Select<WebEventKind | ''>
          value={state.kind}
          onChange={(kind) => update({ kind })}
          options={[
            { value: '', label: t('web.allKinds') },
            ...WEB_EVENT_KINDS.map((k) => ({ value: k, label: t(`web.kinds.${k}`) })),
          ]}
          style={{ width: 170, maxWidth: '100%' }}
          aria-label={t('web.col.kind')}
          data-testid="web-errors-kind"
        />
        <Select<string>
          value={state.release}
          onChange={(release) => update({ release })}
          options={[
            { value: '', label: t('web.allReleases') },
            ...[...new Set([...releases, ...(state.release ? [state.release] : [])])].map((r) => ({
              value: r,
              label: r,
            })),
          ]}
          style={{ width: 190, maxWidth: '100%' }}
          aria-label={t('web.col.release')}
          data-testid="web-errors-release"
        />
        <DayRange
          value={state.from && state.to ? [state.from, state.to] : undefined}
          allowClear
          label={t('days')}
          onChange={(v) => update({ from: v?.[0] ?? '', to: v?.[1] ?? '' })}
          testId="web-errors-days"
        />
      </Flex>
      <PagedTable<WebErrorGroupRow>
        query={list}
        errorTitle={t('loadFailed')}
        emptyText={t('web.empty')}
        rows={list.data?.group}
        total={list.data?.total}
        rowKey="fingerprint"
        columns={columns}
        pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('web.total', { n }), small: true }}
        onRow={(r) => ({
          'data-testid': 'web-error-row',
          'data-id': r.fingerprint,
          style: { cursor: 'pointer' },
          onClick: () => setOpen(r),
        })}
        data-testid="web-errors-table"
      />
      <WebErrorDrawer group={open} filters={webErrorFilters(state)} onClose={() => setOpen(undefined)} />
    </Space>
  );
}
