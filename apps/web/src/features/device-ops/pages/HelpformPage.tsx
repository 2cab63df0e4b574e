/**
 * Auxiliary functions (`setting/helpform`, spec §2, §5): device synchronisation (the datalogger
 * resends the device's stored samples of a range) and the data tool (the device's daily figures
 * recomputed from its samples), both naming the device by SN and address entered twice, its
 * device code and a date range; and a device found by its SN to edit its alias or remove it
 * from its plant.
 */
import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Flex, Form, Input, InputNumber, Space, Typography } from 'antd';
import { SyncOutlined, CalculatorOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { REPORT_MAX_DAYS } from '@sunwatch/protocol';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { findDeviceBySn, recalcDeviceData, syncDeviceData } from '../api/queries';
import DeviceManagePanel from '../components/DeviceManagePanel';
import { checkHelpform, type HelpformInput, type HelpformProblem } from './helpform-check';

type Outcome = { type: 'success' | 'error'; text: string };

export default function HelpformPage() {
  const { t } = useTranslation();
  const today = dayjs().startOf('day');
  const [v, setV] = useState<HelpformInput>({ range: [today.subtract(1, 'day'), today] });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState<'sync' | 'recalc' | undefined>(undefined);
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const check = checkHelpform(v, today);
  const problems = new Set<HelpformProblem>(check.ok ? [] : check.problems);
  const show = (p: HelpformProblem) => (tried && problems.has(p) ? t(`deviceOps:helpform.problem.${p}`, { days: REPORT_MAX_DAYS }) : undefined);
  const set = (patch: Partial<HelpformInput>) => setV((o) => ({ ...o, ...patch }));

  const run = async (what: 'sync' | 'recalc') => {
    setTried(true);
    setOutcome(undefined);
    if (!check.ok) return;
    setBusy(what);
    try {
      if (what === 'sync') {
        const r = await syncDeviceData(check.values);
        setOutcome({ type: 'success', text: t('deviceOps:helpform.syncDone', { frames: r.frames, samples: r.samples }) });
      } else {
        const r = await recalcDeviceData(check.values);
        setOutcome({ type: 'success', text: t('deviceOps:helpform.recalcDone', { days: r.days, samples: r.samples }) });
      }
    } catch (e) {
      setOutcome({ type: 'error', text: apiErrorText(e, 'deviceControl') });
    } finally {
      setBusy(undefined);
    }
  };

  const status = (p: HelpformProblem[]) => (tried && p.some((x) => problems.has(x)) ? ('error' as const) : undefined);
  const help = (p: HelpformProblem[]) => p.map(show).find(Boolean);

  return (
    <Flex vertical gap={16} data-testid="helpform">
      <Card size="small" title={t('deviceOps:helpform.tools')}>
        <Typography.Paragraph type="secondary">{t('deviceOps:helpform.intro')}</Typography.Paragraph>
        <Form layout="vertical" style={{ maxWidth: 640 }}>
          <Flex gap={12} wrap>
            <Form.Item label={t('deviceOps:helpform.sn')} validateStatus={status(['sn'])} help={help(['sn'])} style={{ flex: '1 1 240px' }}>
              <Input data-testid="hf-sn" value={v.sn} onChange={(e) => set({ sn: e.target.value })} />
            </Form.Item>
            <Form.Item label={t('deviceOps:helpform.sn2')} validateStatus={status(['snMismatch'])} help={help(['snMismatch'])} style={{ flex: '1 1 240px' }}>
              <Input data-testid="hf-sn2" value={v.sn2} onChange={(e) => set({ sn2: e.target.value })} onPaste={(e) => e.preventDefault()} />
            </Form.Item>
          </Flex>
          <Flex gap={12} wrap>
            <Form.Item label={t('deviceOps:helpform.devaddr')} validateStatus={status(['devaddr'])} help={help(['devaddr'])} style={{ flex: '1 1 150px' }}>
              <InputNumber data-testid="hf-addr" min={0} max={255} precision={0} value={v.devaddr} onChange={(n) => set({ devaddr: n })} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label={t('deviceOps:helpform.devaddr2')} validateStatus={status(['addrMismatch'])} help={help(['addrMismatch'])} style={{ flex: '1 1 150px' }}>
              <InputNumber data-testid="hf-addr2" min={0} max={255} precision={0} value={v.devaddr2} onChange={(n) => set({ devaddr2: n })} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item label={t('deviceOps:helpform.devcode')} validateStatus={status(['devcode'])} help={help(['devcode'])} style={{ flex: '1 1 150px' }}>
              <InputNumber data-testid="hf-devcode" min={1} max={65535} precision={0} value={v.devcode} onChange={(n) => set({ devcode: n })} style={{ width: '100%' }} />
            </Form.Item>
          </Flex>
          <Form.Item
            label={t('deviceOps:helpform.dates')}
            validateStatus={status(['empty', 'tooLong', 'future', 'order'])}
            help={help(['empty', 'tooLong', 'future', 'order']) ?? t('deviceOps:report.maxDays', { days: REPORT_MAX_DAYS })}
          >
            <DatePicker.RangePicker
              data-testid="hf-range"
              value={v.range}
              disabledDate={(d: Dayjs) => d.isAfter(today, 'day')}
              onChange={(r) => set({ range: r ? [r[0], r[1]] : null })}
            />
          </Form.Item>
          <Space wrap>
            <Button type="primary" icon={<SyncOutlined />} loading={busy === 'sync'} disabled={busy !== undefined} onClick={() => void run('sync')} data-testid="hf-sync">
              {t('deviceOps:helpform.sync')}
            </Button>
            <Button icon={<CalculatorOutlined />} loading={busy === 'recalc'} disabled={busy !== undefined} onClick={() => void run('recalc')} data-testid="hf-recalc">
              {t('deviceOps:helpform.recalc')}
            </Button>
          </Space>
        </Form>
        {outcome && <Alert style={{ marginTop: 12 }} type={outcome.type} showIcon message={outcome.text} data-testid="hf-result" />}
      </Card>
      <DeviceFinder />
    </Flex>
  );
}

/** A device by its SN, then its alias and plant (the same panel as the device info's). */
function DeviceFinder() {
  const { t } = useTranslation();
  const [sn, setSn] = useState('');
  const [found, setFound] = useState<DeviceTupleLike | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const find = async () => {
    const s = sn.trim();
    if (!s) return;
    setBusy(true);
    setError(undefined);
    setFound(undefined);
    try {
      const d = (await findDeviceBySn(s)).device[0];
      if (d) setFound({ pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn });
      else setError(t('deviceOps:helpform.notFound'));
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t('deviceOps:helpform.device')}>
      <Flex gap={8} wrap>
        <Input
          data-testid="hf-find-sn"
          value={sn}
          placeholder={t('deviceOps:helpform.sn')}
          onChange={(e) => setSn(e.target.value)}
          onPressEnter={() => void find()}
          style={{ flex: '1 1 220px', maxWidth: 320 }}
        />
        <Button icon={<SearchOutlined />} loading={busy} onClick={() => void find()} data-testid="hf-find">
          {t('deviceOps:helpform.find')}
        </Button>
      </Flex>
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} />}
      {found && (
        <div style={{ marginTop: 12 }}>
          <Typography.Text type="secondary">
            {found.sn} · {found.pn} · {found.devcode} / {found.devaddr}
          </Typography.Text>
          <div style={{ marginTop: 8 }}>
            <DeviceManagePanel device={found} />
          </div>
        </div>
      )}
    </Card>
  );
}
