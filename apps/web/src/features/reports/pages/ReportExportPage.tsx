/**
 * /generalNew/setting/reportexport (spec §2 "report export", §3 "Report" / "Export file"): start
 * a plant or device report for a period, follow its progress in the export history, download it.
 * The form (pickers, date panels) loads when opened, so the first load is the history.
 */
import { Suspense, lazy, useState } from 'react';
import { Button, Card, Flex, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { REPORT_MAX_DAYS } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { ReportFiles } from '../components/ReportFiles';

const ReportExportForm = lazy(() => import('../components/ReportExportForm'));

export default function ReportExportPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Flex vertical gap={16} data-testid="report-export-page">
      <Card
        title={t('reports:export.title')}
        extra={
          open ? (
            <Button type="link" onClick={() => setOpen(false)} data-testid="report-close">
              {t('reports:export.close')}
            </Button>
          ) : undefined
        }
      >
        <Typography.Paragraph type="secondary">{t('reports:export.intro', { max: REPORT_MAX_DAYS })}</Typography.Paragraph>
        {open ? (
          <Suspense fallback={null}>
            <ReportExportForm />
          </Suspense>
        ) : (
          <Button type="primary" icon={<ExportOutlined />} onClick={() => setOpen(true)} data-testid="report-new">
            {t('reports:export.new')}
          </Button>
        )}
      </Card>
      <ReportFiles />
    </Flex>
  );
}
