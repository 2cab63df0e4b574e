/**
 * The export history (spec §3 "Export file": name, size, status exporting → downloadable,
 * progress): the caller's report files, newest first, server-paged with the page in the address
 * bar, polled while one is exporting (a live progress bar); a ready file downloads through a
 * short-lived signed address; a failed one says so.
 */
import { useState } from 'react';
import { Button, Card, Popconfirm, Progress, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { EXPORT_STATUS } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { notice, showApiError } from '../../../app/notify';
import { ListStates, emptyLocale, gridLoading, listPagination, responsiveTable, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { reportFileUrl, useDeleteReportFile, useReportFiles, type ReportFile } from '../api/queries';
import { fileSize, periodText } from '../report-period';

const PAGE_SIZES = [10, 20, 50];
const LIST_SPEC: ListSpec<PagedState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters: () => ({}),
  writeFilters: () => undefined,
};

/** Saves a file from an address through a temporary link (the browser's own download). */
function download(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function ReportFiles() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [state, update] = useListState(LIST_SPEC);
  const paging = wirePaging(state);
  const files = useReportFiles(paging.page, paging.pagesize);
  const del = useDeleteReportFile();
  const [fetching, setFetching] = useState<number>();

  const onDownload = async (f: ReportFile) => {
    setFetching(f.id);
    try {
      const r = await reportFileUrl(f.id);
      download(r.url, r.name || f.name);
    } catch (e) {
      showApiError(e);
    } finally {
      setFetching(undefined);
    }
  };

  const remove = async (f: ReportFile) => {
    try {
      await del.mutateAsync(f.id);
      void notice().success(t('reports:files.deleted', { name: f.name }));
    } catch (e) {
      showApiError(e);
    }
  };

  const columns: TableColumnsType<ReportFile> = [
    {
      title: t('reports:files.name'),
      key: 'name',
      render: (_, f) => (
        <Typography.Text data-testid="report-file-name" style={{ wordBreak: 'break-all' }}>
          {f.name}
        </Typography.Text>
      ),
    },
    {
      title: t('reports:files.period'),
      key: 'period',
      render: (_, f) => (
        <Space size={4} wrap>
          <Tag style={{ marginInlineEnd: 0 }}>{t(`reports:type.${f.type}`)}</Tag>
          <span>{periodText(f)}</span>
        </Space>
      ),
    },
    { title: t('reports:files.target'), key: 'target', responsive: ['lg'], render: (_, f) => f.target || '--' },
    {
      title: t('reports:files.size'),
      key: 'size',
      render: (_, f) => (f.status === EXPORT_STATUS.READY ? fileSize(f.size) : '--'),
    },
    {
      title: t('reports:files.status'),
      key: 'status',
      render: (_, f) =>
        f.status === EXPORT_STATUS.EXPORTING ? (
          <Space data-testid="report-file-exporting">
            <Tag color="processing">{t('reports:files.exporting')}</Tag>
            <Progress percent={f.progress} size="small" style={{ width: 90 }} data-testid="report-file-progress" />
          </Space>
        ) : f.status === EXPORT_STATUS.READY ? (
          <Tag color="success" data-testid="report-file-ready">
            {t('reports:files.ready')}
          </Tag>
        ) : (
          <Tag color="error" data-testid="report-file-failed">
            {t('reports:files.failed')}
          </Tag>
        ),
    },
    { title: t('reports:files.created'), key: 'gts', responsive: ['xl'], render: (_, f) => f.gts },
    {
      title: t('reports:files.actions'),
      key: 'actions',
      render: (_, f) => (
        <Space size={4}>
          <Button
            size="small"
            type="primary"
            ghost
            icon={<DownloadOutlined />}
            disabled={f.status !== EXPORT_STATUS.READY}
            loading={fetching === f.id}
            onClick={() => void onDownload(f)}
            aria-label={t('reports:files.downloadOf', { name: f.name })}
            data-testid={`report-download-${f.id}`}
          >
            {phone ? null : t('reports:files.download')}
          </Button>
          <Popconfirm
            title={t('reports:files.deleteConfirm', { name: f.name })}
            okText={t('reports:files.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('reports:files.cancel')}
            onConfirm={() => remove(f)}
          >
            <Button size="small" danger type="text" icon={<DeleteOutlined />} aria-label={t('reports:files.deleteOf', { name: f.name })} />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('reports:files.title')} data-testid="report-files">
      <ListStates query={files} errorTitle={t('reports:files.loadFailed')}>
        <Table<ReportFile>
          rowKey="id"
          size="middle"
          {...responsiveTable(columns, phone)}
          dataSource={files.data?.file ?? []}
          loading={gridLoading(files)}
          locale={emptyLocale(t('reports:files.empty'))}
          pagination={listPagination(state, files.data?.total ?? 0, update, {
            pageSizes: PAGE_SIZES,
            showTotal: (n) => t('reports:files.total', { n }),
          })}
        />
      </ListStates>
    </Card>
  );
}
