/**
 * /generalNew/setting/reportexport (spec §2 "report export", §3 "Report" / "Export file"): start
 * a plant or device report for a period, follow its progress in the export history, download it.
 */
import { Flex } from 'antd';
import { ReportExportForm } from '../components/ReportExportForm';
import { ReportFiles } from '../components/ReportFiles';

export default function ReportExportPage() {
  return (
    <Flex vertical gap={16} data-testid="report-export-page">
      <ReportExportForm />
      <ReportFiles />
    </Flex>
  );
}
