/**
 * The one export history (spec §3 "Export file": name, size, status exporting → downloadable,
 * progress): the caller's report files and device exports (a kind tag: plant report, device
 * report, alarm list), newest first, server-paged across both (the page in the address bar;
 * a light pager instead of antd's Table and Pagination keeps the first load in budget), polled
 * while one is exporting (a live progress bar); a ready file downloads through a short-lived
 * signed address; a failed one says so.
 */
import { Suspense, lazy, useState } from 'react';
import { Button, Card, Empty, Flex, Progress, Space, Tag, Typography } from 'antd';
import { saveUrlAs } from '../../../app/download';
import { DeleteOutlined, DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { EXPORT_STATUS } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { notice, showApiError } from '../../../app/notify';
import { ListStates, gridLoading, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { reportFileUrl, useDeleteReportFile, useReportFiles, type ReportFile } from '../api/queries';
import { fileSize, periodText } from '../report-period';

const ConfirmDeleteModal = lazy(() => import('../../../components/confirm/ConfirmDeleteModal'));

const LIST_SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: [10],
  readFilters: () => ({}),
  writeFilters: () => undefined,
};

/** A row's key: ids of device exports and report files overlap. */
const keyOf = (f: ReportFile) => `${f.origin ?? 'report'}-${f.id}`;
/** The test id suffix of a row's buttons: report files keep their bare id. */
const testId = (f: ReportFile) => (f.origin === 'export' ? `export-${f.id}` : String(f.id));

const KIND_COLORS = { plant: 'blue', device: 'geekblue', alarms: 'volcano' } as const;

export function ReportFiles() {
  const { t } = useTranslation();
  const [state, update] = useListState(LIST_SPEC);
  const paging = wirePaging(state);
  const files = useReportFiles(paging.page, paging.pagesize);
  const del = useDeleteReportFile();
  const [fetching, setFetching] = useState<string>();
  const [deleting, setDeleting] = useState<ReportFile>();
  const [deleteLoaded, setDeleteLoaded] = useState(false);

  const onDownload = async (f: ReportFile) => {
    setFetching(keyOf(f));
    try {
      const r = await reportFileUrl(f);
      saveUrlAs(r.url, r.name || f.name);
    } catch (e) {
      showApiError(e);
    } finally {
      setFetching(undefined);
    }
  };

  const remove = async (f: ReportFile) => {
    try {
      await del.mutateAsync(f);
      void notice().success(t('reports:files.deleted', { name: f.name }));
    } catch (e) {
      showApiError(e);
    } finally {
      setDeleting(undefined);
    }
  };

  const status = (f: ReportFile) =>
    f.status === EXPORT_STATUS.EXPORTING ? (
      <Flex gap={8} align="center" data-testid="report-file-exporting">
        <Tag color="processing" style={{ marginInlineEnd: 0 }}>
          {t('reports:files.exporting')}
        </Tag>
        <Progress percent={f.progress} size="small" style={{ width: 100, margin: 0 }} data-testid="report-file-progress" />
      </Flex>
    ) : f.status === EXPORT_STATUS.READY ? (
      <Tag color="success" data-testid="report-file-ready" style={{ marginInlineEnd: 0 }}>
        {t('reports:files.ready')}
      </Tag>
    ) : (
      <Tag color="error" data-testid="report-file-failed" style={{ marginInlineEnd: 0 }}>
        {t('reports:files.failed')}
      </Tag>
    );

  const rows = files.data?.file ?? [];
  const total = files.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / paging.pagesize));

  return (
    <Card title={t('reports:files.title')} data-testid="report-files">
      <ListStates query={files} errorTitle={t('reports:files.loadFailed')}>
        {files.isPending ? (
          <Card loading size="small" />
        ) : rows.length === 0 ? (
          <Empty description={t('reports:files.empty')} />
        ) : (
          <Flex vertical data-testid="report-file-list" style={{ opacity: gridLoading(files) ? 0.6 : 1 }}>
            {rows.map((f, i) => (
              <Flex
                key={keyOf(f)}
                wrap
                gap={12}
                align="center"
                justify="space-between"
                data-testid="report-file"
                data-id={f.id}
                data-origin={f.origin}
                data-kind={f.kind}
                style={{ padding: '12px 0', borderTop: i ? '1px solid rgba(5, 5, 5, 0.06)' : undefined }}
              >
                <Flex vertical gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
                  <Typography.Text strong data-testid="report-file-name" style={{ wordBreak: 'break-all' }}>
                    {f.name}
                  </Typography.Text>
                  <Flex wrap gap={8} align="center">
                    <Tag
                      color={KIND_COLORS[f.kind]}
                      style={{ marginInlineEnd: 0 }}
                      data-testid="report-file-kind"
                      title={t('reports:files.kind')}
                    >
                      {t(`reports:kind.${f.kind}`)}
                    </Tag>
                    {f.origin !== 'export' && f.type !== 'alarms' && (
                      <Tag style={{ marginInlineEnd: 0 }}>{t(`reports:type.${f.type}`)}</Tag>
                    )}
                    <Typography.Text type="secondary">{periodText(f)}</Typography.Text>
                    {f.target && <Typography.Text type="secondary">· {f.target}</Typography.Text>}
                  </Flex>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('reports:files.created')}: {f.gts}
                    {f.status === EXPORT_STATUS.READY ? ` · ${t('reports:files.size')}: ${fileSize(f.size)}` : ''}
                  </Typography.Text>
                </Flex>
                <Flex gap={8} align="center" wrap>
                  {status(f)}
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    icon={<DownloadOutlined />}
                    disabled={f.status !== EXPORT_STATUS.READY}
                    loading={fetching === keyOf(f)}
                    onClick={() => void onDownload(f)}
                    aria-label={t('reports:files.downloadOf', { name: f.name })}
                    data-testid={`report-download-${testId(f)}`}
                  >
                    {t('reports:files.download')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('reports:files.deleteOf', { name: f.name })}
                    onClick={() => {
                      setDeleteLoaded(true);
                      setDeleting(f);
                    }}
                  />
                </Flex>
              </Flex>
            ))}
          </Flex>
        )}
      </ListStates>
      {total > 0 && (
        <Flex justify="space-between" align="center" wrap gap={8} style={{ marginTop: 12 }}>
          <Typography.Text type="secondary">{t('reports:files.total', { n: total })}</Typography.Text>
          {pages > 1 && (
            <Space size={4}>
              <Button
                size="small"
                icon={<LeftOutlined />}
                disabled={state.current <= 1}
                aria-label={t('reports:files.previous')}
                onClick={() => update({ current: state.current - 1 })}
              />
              <Typography.Text data-testid="report-files-page">
                {Math.min(state.current, pages)} / {pages}
              </Typography.Text>
              <Button
                size="small"
                icon={<RightOutlined />}
                disabled={state.current >= pages}
                aria-label={t('reports:files.next')}
                onClick={() => update({ current: state.current + 1 })}
              />
            </Space>
          )}
        </Flex>
      )}
      {deleteLoaded && (
        <Suspense fallback={null}>
          <ConfirmDeleteModal
            open={deleting !== undefined}
            title={deleting ? t('reports:files.deleteConfirm', { name: deleting.name }) : ''}
            okText={t('reports:files.delete')}
            cancelText={t('reports:files.cancel')}
            pending={del.isPending}
            onConfirm={() => deleting && void remove(deleting)}
            onClose={() => setDeleting(undefined)}
          />
        </Suspense>
      )}
    </Card>
  );
}
