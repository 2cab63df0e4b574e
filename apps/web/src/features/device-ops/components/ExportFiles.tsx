/**
 * The caller's export files (spec §3 "Export file": name, size, status exporting/downloadable,
 * progress): polled while one is exporting; a ready one downloads through a short-lived signed
 * address (queryExportFileUrl). A failed one can be built again (retryExportFile: same row, its
 * progress shown while the list polls).
 */
import { useState } from 'react';
import { App, Button, Card, Popconfirm, Progress, Space, Table, Tag, type TableColumnsType } from 'antd';
import { saveUrlAs } from '../../../app/download';
import { DeleteOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { EXPORT_STATUS, type ExportFileRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { exportFileUrl, useDeleteExportFile, useExportFiles, useRetryExportFile } from '../api/queries';
import { fileSize } from '../tabs/report-range';

export function ExportFiles() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const q = useExportFiles(page.current - 1, page.pageSize);
  const del = useDeleteExportFile();
  const retry = useRetryExportFile();
  const [fetching, setFetching] = useState<number | undefined>(undefined);

  const onDownload = async (f: ExportFileRow) => {
    setFetching(f.id);
    try {
      const r = await exportFileUrl(f.id);
      saveUrlAs(r.url, r.name || f.name);
    } catch (e) {
      void message.error(apiErrorText(e));
    } finally {
      setFetching(undefined);
    }
  };

  const onRetry = async (f: ExportFileRow) => {
    try {
      await retry.mutateAsync(f.id);
      void message.success(t('deviceOps:report.retried', { name: f.name }));
    } catch (e) {
      void message.error(apiErrorText(e));
    }
  };

  const columns: TableColumnsType<ExportFileRow> = [
    { title: t('deviceOps:report.name'), dataIndex: 'name', key: 'name', ellipsis: true },
    { title: t('deviceOps:report.period'), key: 'period', render: (_, f) => `${f.sdate} ~ ${f.edate}` },
    { title: t('deviceOps:report.size'), key: 'size', render: (_, f) => (f.status === EXPORT_STATUS.READY ? fileSize(f.size) : '--') },
    {
      title: t('deviceOps:report.status'),
      key: 'status',
      render: (_, f) =>
        f.status === EXPORT_STATUS.EXPORTING ? (
          <Space>
            <Tag color="processing" data-testid={`export-exporting-${f.id}`}>
              {t('deviceOps:report.exporting')}
            </Tag>
            <Progress percent={f.progress} size="small" style={{ width: 80 }} />
          </Space>
        ) : f.status === EXPORT_STATUS.READY ? (
          <Tag color="success" data-testid="export-ready">
            {t('deviceOps:report.ready')}
          </Tag>
        ) : (
          <Tag color="error" data-testid={`export-failed-${f.id}`}>
            {t('deviceOps:report.failed')}
          </Tag>
        ),
    },
    { title: t('deviceOps:report.created'), dataIndex: 'gts', key: 'gts' },
    {
      title: t('deviceOps:report.actions'),
      key: 'actions',
      render: (_, f) => (
        <Space>
          {f.status === EXPORT_STATUS.FAILED && (
            <Button
              size="small"
              icon={<ReloadOutlined />}
              loading={retry.isPending && retry.variables === f.id}
              onClick={() => void onRetry(f)}
              data-testid={`export-retry-${f.id}`}
            >
              {t('deviceOps:report.retry')}
            </Button>
          )}
          <Button
            size="small"
            icon={<DownloadOutlined />}
            disabled={f.status !== EXPORT_STATUS.READY}
            loading={fetching === f.id}
            onClick={() => void onDownload(f)}
            data-testid={`export-download-${f.id}`}
          >
            {t('deviceOps:report.download')}
          </Button>
          <Popconfirm
            title={t('deviceOps:report.deleteConfirm', { name: f.name })}
            okText={t('deviceOps:common.confirm')}
            cancelText={t('deviceOps:common.cancel')}
            onConfirm={() => del.mutateAsync(f.id).catch((e: unknown) => void message.error(apiErrorText(e)))}
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('deviceOps:report.delete')} />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" title={t('deviceOps:report.files')} data-testid="export-files">
      <Table<ExportFileRow>
        rowKey="id"
        size="small"
        dataSource={q.data?.file ?? []}
        loading={q.isPending}
        locale={emptyLocale(q.isError ? apiErrorText(q.error) : t('deviceOps:report.empty'))}
        {...responsiveTable(columns, phone)}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          total: q.data?.total ?? 0,
          showTotal: (n) => t('deviceOps:report.total', { count: n }),
          onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
        }}
      />
    </Card>
  );
}
