/**
 * /adminNewStatr/home/domains (issue 14, operator only): the custom domains — host name →
 * manufacturer, product name, languages, demo access, QR sign-in, logo, background and contact,
 * what the entry page of that host shows. Searched, filtered and paged on the server (the state
 * in the address bar); add, edit, enable, disable and delete, each effective at the host's next
 * page load on every server.
 */
import { useState } from 'react';
import { Button, Card, Flex, Input, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALE_NAMES, type CustomDomainRow } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { enumFilter, useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useCustomDomains, useDeleteDomain, useSetDomainEnabled } from '../api/queries';
import { DomainDialog } from '../components/DomainDialog';

const PAGE_SIZES = [10, 20, 50];
const STATUSES = ['all', 'enabled', 'disabled'] as const;
type StatusFilter = (typeof STATUSES)[number];
interface DomainListState {
  current: number;
  pageSize: number;
  search: string;
  status: StatusFilter;
}
const SPEC: ListSpec<DomainListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...enumFilter('status', STATUSES, 'all'),
};

const small = { fontSize: 12 } as const;

export default function DomainsPage() {
  const { t } = useTranslation('operatorDomains');
  const confirm = useConfirm();
  const [state, update] = useListState(SPEC);
  const list = useCustomDomains({
    ...wirePaging(state),
    ...(state.search ? { search: state.search } : {}),
    ...(state.status !== 'all' ? { enabled: state.status === 'enabled' } : {}),
  });
  const toggle = useSetDomainEnabled();
  const del = useDeleteDomain();
  const [dialog, setDialog] = useState<{ row?: CustomDomainRow } | undefined>();
  const when = (ms: number) =>
    new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));

  const setEnabled = async (r: CustomDomainRow, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ id: r.id, enabled });
      void notice().success(t(enabled ? 'enabledDone' : 'disabledDone', { host: r.host }));
    } catch (e) {
      showApiError(e);
    }
  };
  const askToggle = (r: CustomDomainRow, enabled: boolean) => {
    if (enabled) return void setEnabled(r, true);
    confirm({
      title: t('disableTitle', { host: r.host }),
      content: t('disableText'),
      okText: t('disable'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'domain-disable-ok' } },
      cancelText: t('cancel'),
      onOk: () => setEnabled(r, false),
    });
  };
  const askDelete = (r: CustomDomainRow) =>
    confirm({
      title: t('deleteTitle', { host: r.host }),
      content: t(r.seeded ? 'deleteSeededText' : 'deleteText'),
      okText: t('delete'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'domain-delete-ok' } },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await del.mutateAsync(r.id);
          void notice().success(t('deleted', { host: r.host }));
        } catch (e) {
          showApiError(e);
        }
      },
    });

  const columns: TableColumnsType<CustomDomainRow> = [
    {
      title: t('col.host'),
      dataIndex: 'host',
      width: 190,
      render: (host: string, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="domain-host">
            {host}
          </Typography.Text>
          {r.title && (
            <Typography.Text type="secondary" style={small}>
              {r.title}
            </Typography.Text>
          )}
          {r.seeded && <Tag>{t('seeded')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('col.vendor'),
      key: 'vendor',
      width: 150,
      render: (_: unknown, r) =>
        r.vendorId > 0 ? (
          <Space direction="vertical" size={0}>
            <span>{r.vendorName}</span>
            {r.vendorCode && (
              <Typography.Text type="secondary" style={small}>
                {r.vendorCode}
              </Typography.Text>
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('noVendor')}</Typography.Text>
        ),
    },
    {
      title: t('col.logo'),
      key: 'logo',
      width: 110,
      render: (_: unknown, r) =>
        r.logo ? (
          <img src={r.logo.url} alt={t('field.logo')} style={{ maxWidth: 90, maxHeight: 32, objectFit: 'contain' }} />
        ) : (
          '—'
        ),
    },
    {
      title: t('col.options'),
      key: 'options',
      width: 200,
      render: (_: unknown, r) => (
        <Flex gap={4} wrap>
          <Tag>{r.languages.length ? r.languages.map((l) => LOCALE_NAMES[l]).join(', ') : t('allLanguages')}</Tag>
          {r.forceLanguage && <Tag color="blue">{t('forced', { lang: LOCALE_NAMES[r.forceLanguage] })}</Tag>}
          <Tag color={r.demo ? 'success' : 'default'}>{t(r.demo ? 'demoOn' : 'demoOff')}</Tag>
          <Tag color={r.qrLogin ? 'success' : 'default'}>{t(r.qrLogin ? 'qrOn' : 'qrOff')}</Tag>
        </Flex>
      ),
    },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (enabled: boolean, r) => (
        <Switch
          checked={enabled}
          size="small"
          aria-label={t(enabled ? 'disable' : 'enable')}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(v) => askToggle(r, v)}
          data-testid="domain-enabled"
        />
      ),
    },
    {
      title: t('col.updated'),
      key: 'updated',
      width: 140,
      render: (_: unknown, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.updatedBy || t('bySeed')}</span>
          <Typography.Text type="secondary" style={small}>
            {when(r.updatedAt)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 90,
      render: (_: unknown, r) => (
        <Flex gap={4}>
          <Tooltip title={t('edit')}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('edit')}
              onClick={() => setDialog({ row: r })}
              data-testid="domain-edit"
            />
          </Tooltip>
          <Tooltip title={t('delete')}>
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('delete')}
              onClick={() => askDelete(r)}
              data-testid="domain-delete"
            />
          </Tooltip>
        </Flex>
      ),
    },
  ];

  return (
    <Card title={t('title')} size="small" data-testid="domains-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8} justify="space-between" align="center">
          <Flex wrap gap={8} style={{ flex: 1, minWidth: 0 }}>
            <Input.Search
              allowClear
              defaultValue={state.search}
              placeholder={t('searchPlaceholder')}
              onSearch={(v) => update({ search: v.trim() })}
              style={{ width: 260, maxWidth: '100%' }}
              data-testid="domain-search"
            />
            <Select<StatusFilter>
              value={state.status}
              onChange={(v) => update({ status: v })}
              options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              style={{ width: 140, maxWidth: '100%' }}
              data-testid="domain-status-filter"
            />
          </Flex>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="domain-add">
            {t('add')}
          </Button>
        </Flex>
        <PagedTable<CustomDomainRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={list.data?.domains}
          total={list.data?.total}
          rowKey="id"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(r) => ({ 'data-testid': 'domain-row', 'data-id': r.id, 'data-enabled': r.enabled ? '1' : '0' })}
          data-testid="domain-table"
        />
      </Space>
      {dialog && <DomainDialog row={dialog.row} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
