/**
 * /adminNewStatr/home/KEYList (issue 14, operator only): the company keys accepted at sign-in and
 * `reg`. Searched, filtered and paged on the server; add, edit, enable and disable (a disable asks
 * first: sign-ins with the key stop at once on every server). The key shows masked, never in full.
 * Page, page size, search and filters are in the address bar (the list kit).
 */
import { useState } from 'react';
import {
  Button,
  Card,
  Flex,
  Input,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMPANY_KEY_CLIENTS, type CompanyKeyClient, type CompanyKeyRow } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useCompanyKeys, useSetCompanyKeyEnabled } from '../api/queries';
import { CLIENT_LABELS } from '../clients';
import { KeyEntryDialog } from '../components/KeyEntryDialog';
import { maskedKey } from '../model';

const STATUSES = ['all', 'enabled', 'disabled'] as const;
type StatusFilter = (typeof STATUSES)[number];
const PAGE_SIZES = [10, 20, 50];

interface KeyListState {
  current: number;
  pageSize: number;
  search: string;
  client: CompanyKeyClient | undefined;
  status: StatusFilter;
}
const SPEC: ListSpec<KeyListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters: (q) => {
    const client = q.get('client') as CompanyKeyClient | null;
    const status = q.get('status') as StatusFilter | null;
    return {
      client: client && COMPANY_KEY_CLIENTS.includes(client) ? client : undefined,
      status: status && STATUSES.includes(status) ? status : 'all',
    };
  },
  writeFilters(s, q) {
    if (s.client) q.set('client', s.client);
    if (s.status !== 'all') q.set('status', s.status);
  },
};

export default function KeyListPage() {
  const { t } = useTranslation('operatorKeys');
  const confirm = useConfirm();
  const [state, update] = useListState(SPEC);
  const { search, client, status } = state;
  const list = useCompanyKeys({
    ...wirePaging(state),
    ...(search ? { search } : {}),
    ...(client ? { client } : {}),
    ...(status !== 'all' ? { enabled: status === 'enabled' } : {}),
  });
  const toggle = useSetCompanyKeyEnabled();
  const [dialog, setDialog] = useState<{ row?: CompanyKeyRow } | undefined>();
  const when = (ms: number) =>
    new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));

  const setEnabled = async (r: CompanyKeyRow, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ id: r.id, enabled });
      void notice().success(
        t(enabled ? 'enabledDone' : 'disabledDone', { company: r.company || maskedKey(r.keyHint) }),
      );
    } catch (e) {
      showApiError(e);
    }
  };
  const askToggle = (r: CompanyKeyRow, enabled: boolean) => {
    if (enabled) return void setEnabled(r, true);
    confirm({
      title: t('disableTitle', { company: r.company || maskedKey(r.keyHint) }),
      content: t('disableText'),
      okText: t('disable'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'key-disable-ok' } },
      cancelText: t('cancel'),
      onOk: () => setEnabled(r, false),
    });
  };

  const columns: TableColumnsType<CompanyKeyRow> = [
    {
      title: t('col.company'),
      dataIndex: 'company',
      width: 170,
      render: (company: string, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="key-company">
            {company || t('unnamed')}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.domain}
          </Typography.Text>
          {r.seeded && <Tag>{t('seeded')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('col.client'),
      key: 'client',
      width: 120,
      render: (_: unknown, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.client ? CLIENT_LABELS[r.client] : '—'}</span>
          {r.version && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('versionLabel', { version: r.version })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('col.key'),
      dataIndex: 'keyHint',
      width: 150,
      render: (hint: string) => (
        <Typography.Text code data-testid="key-masked">
          {maskedKey(hint)}
        </Typography.Text>
      ),
    },
    { title: t('col.hostname'), dataIndex: 'hostname', width: 170, render: (v: string) => v || '—' },
    { title: t('col.contact'), dataIndex: 'contact', width: 150, render: (v: string) => v || '—' },
    { title: t('col.description'), dataIndex: 'description', width: 200, ellipsis: { showTitle: true } },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 100,
      render: (enabled: boolean, r) => (
        <Switch
          checked={enabled}
          size="small"
          aria-label={t(enabled ? 'disable' : 'enable')}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(v) => askToggle(r, v)}
          data-testid="key-enabled"
        />
      ),
    },
    {
      title: t('col.updated'),
      key: 'updated',
      width: 150,
      render: (_: unknown, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.updatedBy || t('bySeed')}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {when(r.updatedAt)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 70,
      render: (_: unknown, r) => (
        <Tooltip title={t('edit')}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('edit')}
            onClick={() => setDialog({ row: r })}
            data-testid="key-edit"
          />
        </Tooltip>
      ),
    },
  ];

  return (
    <Card title={t('title')} size="small" data-testid="key-list-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8} justify="space-between" align="center">
          <Flex wrap gap={8} style={{ flex: 1, minWidth: 0 }}>
            <Input.Search
              allowClear
              placeholder={t('searchPlaceholder')}
              defaultValue={search}
              onSearch={(v) => update({ search: v.trim() })}
              style={{ width: 260, maxWidth: '100%' }}
              data-testid="key-search"
            />
            <Select
              allowClear
              placeholder={t('allClients')}
              value={client}
              onChange={(v?: CompanyKeyClient) => update({ client: v })}
              options={COMPANY_KEY_CLIENTS.map((c) => ({ value: c, label: CLIENT_LABELS[c] }))}
              style={{ width: 140, maxWidth: '100%' }}
              data-testid="key-client-filter"
            />
            <Select<StatusFilter>
              value={status}
              onChange={(v) => update({ status: v })}
              options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              style={{ width: 140, maxWidth: '100%' }}
              data-testid="key-status-filter"
            />
          </Flex>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="key-add">
            {t('add')}
          </Button>
        </Flex>
        <PagedTable<CompanyKeyRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={list.data?.keys}
          total={list.data?.total}
          rowKey="id"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }), small: true }}
          onRow={(r) => ({ 'data-testid': 'key-row', 'data-id': r.id, 'data-enabled': r.enabled ? '1' : '0' })}
          data-testid="key-table"
        />
      </Space>
      {dialog && <KeyEntryDialog row={dialog.row} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
