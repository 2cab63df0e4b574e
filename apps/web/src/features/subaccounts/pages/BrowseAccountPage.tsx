/**
 * Sub-account management of the general edition (/generalNew/setting/browseAccount; spec §3
 * "Sub-account (viewer)", portal-screens.md §12): the owner's viewers, server-paged and searchable
 * by username, with their plants, contact, state, sign-up and last sign-in; create, edit and
 * delete (with confirmation). A viewer sees exactly its plants, read-only.
 */
import { Suspense, lazy, useState } from 'react';
import { Button, Card, Flex, Input, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { notice, showApiError } from '../../../app/notify';
import { ListStates, emptyLocale, listPagination, responsiveTable, tableLoading, useListState } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useDeleteViewer } from '../api/delete-mutation';
import { useViewerList, type ViewerRow } from '../api/queries';
import { VIEWER_LIST_SPEC, VIEWER_PAGE_SIZES, viewerListParams } from '../api/list-params';

/** The form and its rules load when first opened: the list's first load stays light (issue 8 budget). */
const ViewerFormModal = lazy(() => import('../components/ViewerFormModal').then((m) => ({ default: m.ViewerFormModal })));
const DeleteViewerModal = lazy(() => import('../components/DeleteViewerModal').then((m) => ({ default: m.DeleteViewerModal })));

/** The modal: closed, creating, or editing a viewer. */
type Editing = { open: false } | { open: true; viewer?: ViewerRow };

export default function BrowseAccountPage() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [state, update] = useListState(VIEWER_LIST_SPEC);
  const list = useViewerList(viewerListParams(state));
  const del = useDeleteViewer();
  const [editing, setEditingState] = useState<Editing>({ open: false });
  /** Mounted since first opened (keeps its closing animation and form instance). */
  const [formLoaded, setFormLoaded] = useState(false);
  const setEditing = (next: Editing) => {
    if (next.open) setFormLoaded(true);
    setEditingState(next);
  };

  /** The viewer whose deletion awaits confirmation. */
  const [deleting, setDeleting] = useState<ViewerRow>();
  const [deleteLoaded, setDeleteLoaded] = useState(false);
  const askDelete = (row: ViewerRow) => {
    setDeleteLoaded(true);
    setDeleting(row);
  };

  const remove = async (row: ViewerRow) => {
    try {
      await del.mutateAsync(row.uid);
    } catch (e) {
      showApiError(e);
      return;
    } finally {
      setDeleting(undefined);
    }
    void notice().success(t('subaccounts:deleted', { usr: row.usr }));
  };

  const text = (v: string) => v || '--';
  const columns: TableColumnsType<ViewerRow> = [
    {
      title: t('subaccounts:field.usr'),
      key: 'usr',
      render: (_, r) => <Typography.Text strong style={{ whiteSpace: 'nowrap' }} data-testid="viewer-row-usr">
          {r.usr}
        </Typography.Text>,
    },
    {
      title: t('subaccounts:field.plants'),
      key: 'plants',
      render: (_, r) =>
        r.plant.length ? (
          <Flex wrap gap={4} data-testid="viewer-row-plants">
            {r.plant.map((name, i) => (
              <Tag key={r.pid[i] ?? name} style={{ marginInlineEnd: 0 }}>
                {name}
              </Tag>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('subaccounts:noPlantsAssigned')}</Typography.Text>
        ),
    },
    {
      title: t('subaccounts:field.enable'),
      key: 'enable',
      render: (_, r) => (
        <Tag color={r.enable ? 'green' : 'default'} data-testid="viewer-row-enable" data-enabled={r.enable}>
          {t(r.enable ? 'subaccounts:status.enabled' : 'subaccounts:status.disabled')}
        </Tag>
      ),
    },
    { title: t('subaccounts:field.mobile'), key: 'mobile', responsive: ['md'], render: (_, r) => text(r.mobile) },
    { title: t('subaccounts:field.email'), key: 'email', responsive: ['md'], render: (_, r) => text(r.email) },
    {
      title: t('subaccounts:field.desc'),
      key: 'desc',
      // the settings menu takes ~260 px beside the page: the long columns come with wide screens
      responsive: ['xl'],
      render: (_, r) => (
        <span
          title={r.desc || undefined}
          style={{ display: 'inline-block', maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}
        >
          {text(r.desc)}
        </span>
      ),
    },
    { title: t('subaccounts:field.gts'), key: 'gts', responsive: ['xl'], render: (_, r) => text(r.gts) },
    { title: t('subaccounts:field.lastLogin'), key: 'last', responsive: ['xxl'], render: (_, r) => text(r.lastLoginTs) },
    {
      title: t('subaccounts:field.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={4}>
          <Button
            size="small"
            type="link"
            icon={<EditOutlined />}
            onClick={() => setEditing({ open: true, viewer: r })}
            aria-label={t('subaccounts:editOf', { usr: r.usr })}
            data-testid="viewer-edit"
          >
            {phone ? null : t('subaccounts:edit')}
          </Button>
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('subaccounts:deleteOf', { usr: r.usr })}
            onClick={() => askDelete(r)}
            data-testid="viewer-delete"
          >
            {phone ? null : t('subaccounts:delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('subaccounts:title')} data-testid="browse-account-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('subaccounts:intro')}
        </Typography.Paragraph>
        <Flex wrap gap={12} justify="space-between">
          <Input.Search
            key={state.search}
            allowClear
            defaultValue={state.search}
            placeholder={t('subaccounts:search')}
            aria-label={t('subaccounts:search')}
            onSearch={(search) => update({ search })}
            style={{ width: phone ? '100%' : 240 }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })} data-testid="viewer-add">
            {t('subaccounts:add')}
          </Button>
        </Flex>
        <ListStates query={list} errorTitle={t('subaccounts:loadFailed')}>
          <Table<ViewerRow>
            rowKey="uid"
            size="middle"
            {...responsiveTable(columns, phone)}
            dataSource={list.data?.browser ?? []}
            loading={tableLoading(list)}
            locale={emptyLocale(t('subaccounts:empty'))}
            data-testid="viewer-table"
            pagination={listPagination(state, list.data?.total ?? 0, update, {
              pageSizes: VIEWER_PAGE_SIZES,
              showTotal: (n) => t('subaccounts:total', { n }),
            })}
          />
        </ListStates>
      </Space>
      {deleteLoaded && (
        <Suspense fallback={null}>
          <DeleteViewerModal
            viewer={deleting}
            pending={del.isPending}
            onConfirm={(v) => void remove(v)}
            onClose={() => setDeleting(undefined)}
          />
        </Suspense>
      )}
      {formLoaded && (
        <Suspense fallback={null}>
          <ViewerFormModal
            open={editing.open}
            viewer={editing.open ? editing.viewer : undefined}
            onClose={() => setEditing({ open: false })}
          />
        </Suspense>
      )}
    </Card>
  );
}
