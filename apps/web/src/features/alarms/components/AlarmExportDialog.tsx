/**
 * The alarm list export (exportPlantsWarning): started with the list's current filters, it runs
 * as a background job of the server; this dialog follows it in the caller's export history
 * (webQueryReportFiles, polled every second while it builds: a progress bar) and downloads the
 * ready file through its signed, short-lived address (queryReportFileUrl). Loaded on demand.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Progress, Typography } from 'antd';
import { saveUrlAs } from '../../../app/download';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { DownloadOutlined } from '@ant-design/icons';
import {
  ALARM_EXPORT_MAX_ROWS,
  EXPORT_STATUS,
  type Catalogue,
  type ParamsOf,
  type ReportFileRow,
} from '@sunwatch/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../../app/api';
import { apiErrorText, showApiError } from '../../../app/notify';

export type AlarmExportParams = ParamsOf<Catalogue['exportPlantsWarning']>;

const POLL_MS = 1000;
/** err 13 beyond the row limit, 264 nothing to export. */
const TOO_MANY = 13;
const NOTHING = 264;

export default function AlarmExportDialog({ params, onClose }: { params: AlarmExportParams; onClose: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [file, setFile] = useState<ReportFileRow>();
  const [error, setError] = useState<string>();
  const [fetching, setFetching] = useState(false);

  useEffect(() => {
    let gone = false;
    api.call('exportPlantsWarning', params).then(
      (f) => !gone && setFile(f),
      (e: unknown) => {
        if (gone) return;
        const code = (e as { err?: number }).err;
        setError(
          code === TOO_MANY
            ? t('alarms:export.tooMany', { n: ALARM_EXPORT_MAX_ROWS.toLocaleString() })
            : code === NOTHING
              ? t('alarms:export.nothing')
              : apiErrorText(e),
        );
      },
    );
    return () => {
      gone = true;
    };
    // started once, with the filters of the moment the button was pressed
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const id = file?.id;
  const history = useQuery({
    queryKey: ['alarms', 'export', id],
    enabled: id !== undefined,
    queryFn: async () =>
      (await api.call('webQueryReportFiles', { page: 0, pagesize: 20 })).file.find(
        (f) => f.origin !== 'export' && f.id === id,
      ),
    refetchInterval: (q) =>
      q.state.data === undefined || q.state.data.status === EXPORT_STATUS.EXPORTING ? POLL_MS : false,
  });
  const now = history.data ?? file;

  const download = async () => {
    if (!now) return;
    setFetching(true);
    try {
      const r = await api.call('queryReportFileUrl', { id: now.id });
      saveUrlAs(r.url, r.name || now.name);
    } catch (e) {
      showApiError(e);
    } finally {
      setFetching(false);
    }
  };

  const ready = now?.status === EXPORT_STATUS.READY;
  const failed = now?.status === EXPORT_STATUS.FAILED;
  return (
    <DraggableModal open title={t('alarms:export.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical gap={12} data-testid="alarm-export-dialog">
        {error ? (
          <Alert type="warning" showIcon message={error} data-testid="alarm-export-error" />
        ) : !now ? (
          <Typography.Text>{t('alarms:export.starting')}</Typography.Text>
        ) : (
          <>
            <Typography.Text strong style={{ wordBreak: 'break-all' }} data-testid="alarm-export-name">
              {now.name}
            </Typography.Text>
            {failed ? (
              <Alert type="error" showIcon message={t('alarms:export.failed')} />
            ) : (
              <Progress
                percent={ready ? 100 : now.progress}
                status={ready ? 'success' : 'active'}
                data-testid={ready ? 'alarm-export-ready' : 'alarm-export-progress'}
              />
            )}
            <Typography.Text type="secondary">
              {t('alarms:export.where')}
              {pathname.startsWith('/generalNew') && (
                <>
                  {' '}
                  <Link to="/generalNew/setting/reportexport">{t('alarms:export.history')}</Link>
                </>
              )}
            </Typography.Text>
            <Flex justify="end" gap={8}>
              <Button onClick={onClose}>{t('alarms:export.close')}</Button>
              <Button
                type="primary"
                icon={<DownloadOutlined />}
                disabled={!ready}
                loading={fetching}
                onClick={() => void download()}
                data-testid="alarm-export-download"
              >
                {t('alarms:export.download')}
              </Button>
            </Flex>
          </>
        )}
      </Flex>
    </DraggableModal>
  );
}
