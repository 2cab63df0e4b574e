/**
 * Report export (spec §2, §5: a range of at most 31 days): the device's samples as an xlsx in
 * the user's language, made on the server; the export-file list shows its progress and then
 * offers the download.
 */
import { useState } from 'react';
import { App, Button, Card, DatePicker, Flex, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { REPORT_MAX_DAYS } from '@sunwatch/protocol';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { isAfterPlantToday, plantTodayDayjs } from '../../../app/plant-day';
import { useDeviceRecord, useExportReport } from '../api/queries';
import { ExportFiles } from '../components/ExportFiles';
import { checkReportRange } from './report-range';

export default function ReportTab({ device }: DeviceTabProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const info = useDeviceRecord(device);
  const today = info.data ? plantTodayDayjs(info.data.timezone) : dayjs().startOf('day');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() => [today.subtract(6, 'day'), today]);
  const exp = useExportReport(device);
  const check = checkReportRange(range, today);

  const start = async () => {
    if (!check.ok) return;
    try {
      const f = await exp.mutateAsync({ sdate: check.sdate, edate: check.edate });
      void message.success(t('deviceOps:report.started', { name: f.name }));
    } catch (e) {
      void message.error(apiErrorText(e));
    }
  };

  return (
    <Flex vertical gap={12} data-testid="report-tab">
      <Card size="small" title={t('deviceOps:report.title')}>
        <Flex gap={8} wrap align="center">
          <DatePicker.RangePicker
            data-testid="report-range"
            value={range}
            allowClear={false}
            disabledDate={(d) => isAfterPlantToday(d, today)}
            onChange={(v) => setRange(v ? [v[0], v[1]] : null)}
          />
          <Button type="primary" icon={<ExportOutlined />} loading={exp.isPending} disabled={!check.ok} onClick={() => void start()} data-testid="report-export">
            {t('deviceOps:report.export')}
          </Button>
        </Flex>
        <Typography.Text type={check.ok || check.key === 'empty' ? 'secondary' : 'danger'} data-testid="report-range-hint" style={{ display: 'block', marginTop: 6 }}>
          {check.ok || check.key === 'empty' ? t('deviceOps:report.maxDays', { days: REPORT_MAX_DAYS }) : t(`deviceOps:report.invalid.${check.key}`, { days: REPORT_MAX_DAYS })}
        </Typography.Text>
      </Card>
      <ExportFiles />
    </Flex>
  );
}
