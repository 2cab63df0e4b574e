/**
 * The caller's e-mail push subscriptions (spec §3), server-paged with the page in the address
 * bar: e-mail, plants, alarm types, reports, language, on/off (switchable in the row), last
 * change; add, edit, delete (confirmed). Both settings pages show the same subscriptions; the
 * `focus` puts that page's kind of mail first and is what a new subscription starts with.
 */
import { Suspense, lazy, useState } from 'react';
import { Button, Card, Flex, Popconfirm, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LOCALE_NAMES, type Locale } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { ListStates, emptyLocale, listPagination, responsiveTable, tableLoading, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useDeleteSubscription, useSubscriptions, useToggleSubscription, type SubscriptionRow } from '../api/queries';
import { ALARM_LEVEL_KEYS, type AlarmLevel, type SubscriptionFocus } from '../subscription-form';

const SubscriptionFormModal = lazy(() =>
  import('./SubscriptionFormModal').then((m) => ({ default: m.SubscriptionFormModal })),
);

const PAGE_SIZES = [10, 20, 50];
const LIST_SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters: () => ({}),
  writeFilters: () => undefined,
};

type Editing = { open: false } | { open: true; row?: SubscriptionRow };

const LEVEL_COLORS: Record<AlarmLevel, string> = { 0: 'gold', 1: 'orange', 2: 'red', 3: 'default' };

export function SubscriptionsPanel({ focus }: { focus: SubscriptionFocus }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [state, update] = useListState(LIST_SPEC);
  const list = useSubscriptions(wirePaging(state));
  const del = useDeleteSubscription();
  const toggle = useToggleSubscription();
  const [editing, setEditingState] = useState<Editing>({ open: false });
  const [formLoaded, setFormLoaded] = useState(false);
  const setEditing = (next: Editing) => {
    if (next.open) setFormLoaded(true);
    setEditingState(next);
  };

  const remove = async (row: SubscriptionRow) => {
    try {
      await del.mutateAsync(row.id);
    } catch (e) {
      showApiError(e);
      return;
    }
    void notice().success(t('notifications:deleted', { email: row.email }));
  };

  const none = <Typography.Text type="secondary">{t('notifications:none')}</Typography.Text>;
  const levels = (r: SubscriptionRow) =>
    r.level.length ? (
      <Flex wrap gap={4} data-testid="subscription-row-level">
        {r.level.map((l) => (
          <Tag key={l} color={LEVEL_COLORS[l as AlarmLevel]} style={{ marginInlineEnd: 0 }}>
            {t(`notifications:level.${ALARM_LEVEL_KEYS[l as AlarmLevel]}`)}
          </Tag>
        ))}
      </Flex>
    ) : (
      none
    );
  const reports = (r: SubscriptionRow) =>
    r.report.length ? (
      <Flex wrap gap={4} data-testid="subscription-row-report">
        {r.report.map((x) => (
          <Tag key={x} color="blue" style={{ marginInlineEnd: 0 }}>
            {t(`notifications:report.${x}`)}
          </Tag>
        ))}
      </Flex>
    ) : (
      none
    );
  const levelCol = { title: t('notifications:field.level'), key: 'level', render: (_: unknown, r: SubscriptionRow) => levels(r) };
  const reportCol = { title: t('notifications:field.report'), key: 'report', render: (_: unknown, r: SubscriptionRow) => reports(r) };

  const columns: TableColumnsType<SubscriptionRow> = [
    {
      title: t('notifications:field.email'),
      key: 'email',
      render: (_, r) => (
        <Typography.Text strong data-testid="subscription-row-email" style={{ wordBreak: 'break-all' }}>
          {r.email}
        </Typography.Text>
      ),
    },
    {
      title: t('notifications:field.plants'),
      key: 'plants',
      render: (_, r) => (
        <Flex wrap gap={4} data-testid="subscription-row-plants">
          {r.plants.map((p) => (
            <Tag key={p.pid} style={{ marginInlineEnd: 0 }}>
              {p.pname}
            </Tag>
          ))}
        </Flex>
      ),
    },
    ...(focus === 'alarm' ? [levelCol, { ...reportCol, responsive: ['lg' as const] }] : [reportCol, { ...levelCol, responsive: ['lg' as const] }]),
    {
      title: t('notifications:field.language'),
      key: 'language',
      responsive: ['xl'],
      render: (_, r) => LOCALE_NAMES[r.language as Locale] ?? r.language,
    },
    {
      title: t('notifications:field.enable'),
      key: 'enable',
      render: (_, r) => (
        <Switch
          size="small"
          checked={r.enable}
          loading={toggle.isPending && toggle.variables.id === r.id}
          aria-label={t('notifications:field.enable')}
          data-testid="subscription-row-enable"
          onChange={(enable) => toggle.mutate({ id: r.id, enable }, { onError: (e) => showApiError(e) })}
        />
      ),
    },
    { title: t('notifications:field.updated'), key: 'updated', responsive: ['xxl'], render: (_, r) => r.updateTime || '--' },
    {
      title: t('notifications:field.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={4}>
          <Button
            size="small"
            type="link"
            icon={<EditOutlined />}
            aria-label={t('notifications:editOf', { email: r.email })}
            onClick={() => setEditing({ open: true, row: r })}
            data-testid="subscription-edit"
          >
            {phone ? null : t('notifications:edit')}
          </Button>
          <Popconfirm
            title={t('notifications:deleteConfirm', { email: r.email })}
            okText={t('notifications:delete')}
            okButtonProps={{ danger: true, loading: del.isPending }}
            cancelText={t('notifications:form.cancel')}
            onConfirm={() => remove(r)}
          >
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('notifications:deleteOf', { email: r.email })}
              data-testid="subscription-delete"
            >
              {phone ? null : t('notifications:delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t(`notifications:page.${focus}.title`)} data-testid={`subscriptions-${focus}`}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap={12} justify="space-between" align="center">
          <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 720 }}>
            {t(`notifications:page.${focus}.intro`)}
          </Typography.Paragraph>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })} data-testid="subscription-add">
            {t('notifications:add')}
          </Button>
        </Flex>
        <ListStates query={list} errorTitle={t('notifications:loadFailed')}>
          <Table<SubscriptionRow>
            rowKey="id"
            size="middle"
            {...responsiveTable(columns, phone)}
            dataSource={list.data?.push ?? []}
            loading={tableLoading(list)}
            locale={emptyLocale(t('notifications:empty'))}
            data-testid="subscription-table"
            pagination={listPagination(state, list.data?.total ?? 0, update, {
              pageSizes: PAGE_SIZES,
              showTotal: (n) => t('notifications:total', { n }),
            })}
          />
        </ListStates>
      </Space>
      {formLoaded && (
        <Suspense fallback={null}>
          <SubscriptionFormModal
            open={editing.open}
            focus={focus}
            row={editing.open ? editing.row : undefined}
            onClose={() => setEditing({ open: false })}
          />
        </Suspense>
      )}
    </Card>
  );
}
