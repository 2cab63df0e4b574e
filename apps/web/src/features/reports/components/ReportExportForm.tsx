/**
 * Starts a report export (spec §3 "Report"): the scope (a plant, or one device of a plant), the
 * period type and its date (day, month, year, none for the total, a custom range of at most 31
 * days), all in the plant's calendar; the period is checked before anything is sent. Loaded when
 * the user opens it (its pickers are not part of the page's first load).
 */
import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Flex, Form, Radio, Select } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { REPORT_MAX_DAYS, REPORT_PERIODS, type ReportPeriod } from '@sunwatch/protocol';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { plantTodayDayjs } from '../../../app/plant-day';
import { useIsPhone } from '../../../components/responsive';
import { useAllPlants } from '../../shared/plants/api/all-plants';
import { usePlantDevices, useStartExport } from '../api/queries';
import { checkPeriod } from '../report-period';

type Scope = 'plant' | 'device';

const PICKER: Partial<Record<ReportPeriod, { picker: 'date' | 'month' | 'year'; format: string }>> = {
  daily: { picker: 'date', format: 'YYYY-MM-DD' },
  monthly: { picker: 'month', format: 'YYYY-MM' },
  yearly: { picker: 'year', format: 'YYYY' },
};

export default function ReportExportForm() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const plants = useAllPlants();
  const [scope, setScope] = useState<Scope>('plant');
  const [pid, setPid] = useState<number>();
  const [deviceKey, setDeviceKey] = useState<string>();
  const [type, setType] = useState<ReportPeriod>('monthly');
  const [picked, setPicked] = useState<Dayjs | null>(() => dayjs().startOf('month'));
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [tried, setTried] = useState(false);
  const devices = usePlantDevices(scope === 'device' ? pid : undefined);
  const start = useStartExport();

  const plantId = pid ?? plants.data?.[0]?.pid;
  const plant = plants.data?.find((p) => p.pid === plantId);
  const today = useMemo(() => plantTodayDayjs(plant?.timezone ?? 0), [plant?.timezone]);
  const device = devices.data?.find((d) => d.key === deviceKey);

  const fmt = PICKER[type]?.format ?? 'YYYY-MM-DD';
  const check = checkPeriod(
    {
      type,
      date: picked && PICKER[type] ? picked.format(fmt) : '',
      sdate: range?.[0]?.format('YYYY-MM-DD') ?? '',
      edate: range?.[1]?.format('YYYY-MM-DD') ?? '',
    },
    today.format('YYYY-MM-DD'),
  );
  const targetMissing = !plantId || (scope === 'device' && !device);

  const submit = async () => {
    setTried(true);
    if (!check.ok || targetMissing || !plantId) return;
    try {
      const f = await start.mutateAsync({
        target: scope === 'plant' ? { scope: 'plant', plantid: plantId } : { scope: 'device', device: device! },
        period: check.params,
      });
      void notice().success(t('reports:started', { name: f.name }));
      setTried(false);
    } catch (e) {
      void notice().error(apiErrorText(e));
    }
  };

  const periodError = tried && !check.ok ? t(`reports:period.${check.key}`, { max: REPORT_MAX_DAYS }) : undefined;
  const picker = PICKER[type];

  return (
    <div data-testid="report-export-form">
      <Form layout={phone ? 'vertical' : 'horizontal'} labelCol={phone ? undefined : { flex: '140px' }} onFinish={() => void submit()}>
        <Form.Item label={t('reports:field.scope')}>
          <Radio.Group
            value={scope}
            onChange={(e) => setScope(e.target.value as Scope)}
            optionType="button"
            data-testid="report-scope"
            options={[
              { value: 'plant', label: t('reports:scope.plant') },
              { value: 'device', label: t('reports:scope.device') },
            ]}
          />
        </Form.Item>
        <Form.Item
          label={t('reports:field.plant')}
          required
          validateStatus={tried && !plantId ? 'error' : undefined}
          help={tried && !plantId ? t('reports:target.plantMissing') : undefined}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={plants.isLoading}
            value={plantId}
            onChange={(v: number) => {
              setPid(v);
              setDeviceKey(undefined);
            }}
            options={(plants.data ?? []).map((p) => ({ value: p.pid, label: p.name }))}
            notFoundContent={t('reports:target.noPlants')}
            style={{ maxWidth: 360 }}
            data-testid="report-plant"
          />
        </Form.Item>
        {scope === 'device' && (
          <Form.Item
            label={t('reports:field.device')}
            required
            validateStatus={tried && !device ? 'error' : undefined}
            help={tried && !device ? t('reports:target.deviceMissing') : undefined}
          >
            <Select
              showSearch
              optionFilterProp="label"
              loading={devices.isLoading}
              value={deviceKey}
              onChange={(v: string) => setDeviceKey(v)}
              options={(devices.data ?? []).map((d) => ({ value: d.key, label: d.label }))}
              notFoundContent={t('reports:target.noDevices')}
              placeholder={t('reports:target.devicePlaceholder')}
              style={{ maxWidth: 360 }}
              data-testid="report-device"
            />
          </Form.Item>
        )}
        <Form.Item label={t('reports:field.type')}>
          <Radio.Group
            value={type}
            onChange={(e) => {
              const next = e.target.value as ReportPeriod;
              setType(next);
              setPicked(next === 'yearly' ? today.startOf('year') : next === 'monthly' ? today.startOf('month') : today);
            }}
            optionType="button"
            data-testid="report-type"
            options={REPORT_PERIODS.map((p) => ({ value: p, label: t(`reports:type.${p}`) }))}
          />
        </Form.Item>
        {type !== 'total' && (
          <Form.Item
            label={t('reports:field.period')}
            required
            validateStatus={periodError ? 'error' : undefined}
            help={periodError}
          >
            {picker ? (
              <DatePicker
                picker={picker.picker}
                value={picked}
                onChange={(d) => setPicked(d)}
                disabledDate={(d) => d.isAfter(today, 'day')}
                format={picker.format}
                allowClear={false}
                data-testid="report-date"
              />
            ) : (
              <DatePicker.RangePicker
                value={range}
                onChange={(r) => setRange(r)}
                disabledDate={(d) => d.isAfter(today, 'day')}
                style={{ maxWidth: '100%' }}
                data-testid="report-range"
              />
            )}
          </Form.Item>
        )}
        {type === 'total' && (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('reports:export.totalHint')} />
        )}
        <Flex justify={phone ? 'stretch' : 'flex-start'} style={phone ? undefined : { marginInlineStart: 140 }}>
          <Button
            type="primary"
            htmlType="submit"
            icon={<ExportOutlined />}
            loading={start.isPending}
            block={phone}
            data-testid="report-start"
          >
            {t('reports:export.start')}
          </Button>
        </Flex>
      </Form>
    </div>
  );
}
