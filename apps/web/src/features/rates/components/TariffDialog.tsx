/**
 * Add a tariff (from a date after today, or at once) or edit a planned one: currency, the six
 * prices (empty: as in the tariff in force then), time-of-use periods with their own prices, and
 * the week grid showing them. Period rules (hours, days, no overlap) are checked before sending.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Typography,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  TARIFF_PRICE_KEYS,
  TOU_KINDS,
  TOU_PERIODS_MAX,
  type TariffPriceKey,
  type TariffWire,
} from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useAddTariff, useEditTariff } from '../api/queries';
import { PERIOD_PRICE_KEYS, WEEK_ORDER, periodsIssue, periodsOf, tariffParams, type PeriodForm } from '../model';
import { WeekGrid } from './WeekGrid';

type Prices = Partial<Record<TariffPriceKey, number | null>>;

export interface TariffDialogProps {
  pid: number;
  /** The tariff in force (its currency is the default). */
  current: TariffWire;
  /** A planned tariff to edit; absent: a new one. */
  editing?: TariffWire;
  /** The plant's local today, "YYYY-MM-DD" (a start must be after it). */
  today: string;
  onClose: () => void;
}

export function TariffDialog({ pid, current, editing, today, onClose }: TariffDialogProps) {
  const { t } = useTranslation('rates');
  const add = useAddTariff();
  const edit = useEditTariff();
  const [when, setWhen] = useState<'date' | 'now'>('date');
  const [from, setFrom] = useState<Dayjs | null>(
    editing ? dayjs(editing.from.slice(0, 10)) : dayjs(today).add(1, 'day'),
  );
  const [currency, setCurrency] = useState(editing?.currency ?? current.currency);
  const [prices, setPrices] = useState<Prices>(() => ({ ...(editing ?? current).prices }));
  const [periods, setPeriods] = useState<PeriodForm[]>(() =>
    (editing ?? current).periods.map((p) => ({ ...p, prices: { ...p.prices } })),
  );
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();

  const issue = periodsIssue(periods);
  const issueText = issue
    ? t(`tou.problem.${issue.problem}`, { n: issue.index + 1, m: (issue.other ?? 0) + 1 })
    : undefined;
  const fromMissing = when === 'date' && !from;

  const setPeriod = (i: number, p: Partial<PeriodForm>) =>
    setPeriods((list) => list.map((x, j) => (j === i ? { ...x, ...p } : x)));

  const submit = async () => {
    setTouched(true);
    if (issue || fromMissing) return;
    const params = tariffParams({
      from: when === 'date' && from ? from.format('YYYY-MM-DD') : undefined,
      currency,
      prices,
      periods,
    });
    try {
      if (editing) await edit.mutateAsync({ id: editing.id, ...params });
      else await add.mutateAsync({ plantid: pid, ...params });
      notice().success(t('add.saved'));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  return (
    <DraggableModal
      open
      title={editing ? t('add.editTitle') : t('add.title')}
      okText={t('add.save')}
      cancelText={t('add.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      okButtonProps={{ ...{ 'data-testid': 'tariff-save' } }}
      width={720}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form layout="vertical" data-testid="tariff-form">
        <Form.Item
          label={t('add.from')}
          required
          help={touched && fromMissing ? t('add.fromMissing') : t('add.fromHint')}
          validateStatus={touched && fromMissing ? 'error' : ''}
        >
          <Space wrap>
            {!editing && (
              <Radio.Group
                value={when}
                onChange={(e) => setWhen(e.target.value as 'date' | 'now')}
                options={[
                  { value: 'date', label: t('add.onDate') },
                  { value: 'now', label: t('add.now') },
                ]}
                data-testid="tariff-when"
              />
            )}
            {when === 'date' && (
              <DatePicker
                value={from}
                onChange={setFrom}
                disabledDate={(d) => !d.isAfter(dayjs(today), 'day')}
                allowClear={false}
                data-testid="tariff-from"
              />
            )}
          </Space>
        </Form.Item>
        <Form.Item label={t('current.currency')}>
          <Select
            value={currency}
            onChange={setCurrency}
            options={CURRENCIES.map((c) => ({ value: c, label: c }))}
            style={{ width: 120 }}
            data-testid="tariff-currency"
          />
        </Form.Item>
        <Flex wrap gap={12}>
          {TARIFF_PRICE_KEYS.map((k) => (
            <Form.Item key={k} label={t(`prices.${k}`)} style={{ marginBottom: 12, minWidth: 150, flex: '1 1 150px' }}>
              <InputNumber<number>
                min={0}
                step={0.01}
                value={prices[k] ?? null}
                onChange={(v) => setPrices((p) => ({ ...p, [k]: v }))}
                addonAfter={t('perKwh', { currency })}
                style={{ width: '100%' }}
                data-testid={`tariff-price-${k}`}
              />
            </Form.Item>
          ))}
        </Flex>

        <Typography.Title level={5}>{t('tou.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('tou.hint')}</Typography.Paragraph>
        <Space direction="vertical" style={{ width: '100%' }}>
          {periods.map((p, i) => (
            <Card size="small" key={i} data-testid="tou-period">
              <Flex wrap gap={8} align="end">
                <Form.Item label={t('tou.kind')} style={{ marginBottom: 8 }}>
                  <Select
                    value={p.kind}
                    onChange={(kind) => setPeriod(i, { kind })}
                    options={TOU_KINDS.map((k) => ({ value: k, label: t(`tou.kinds.${k}`) }))}
                    style={{ width: 150 }}
                  />
                </Form.Item>
                <Form.Item label={t('tou.name')} style={{ marginBottom: 8 }}>
                  <Input
                    value={p.name ?? ''}
                    maxLength={32}
                    onChange={(e) => setPeriod(i, { name: e.target.value })}
                    style={{ width: 140 }}
                  />
                </Form.Item>
                <Form.Item label={t('tou.from')} style={{ marginBottom: 8 }}>
                  <InputNumber<number>
                    min={0}
                    max={23}
                    precision={0}
                    value={p.from}
                    onChange={(v) => setPeriod(i, { from: v ?? 0 })}
                    data-testid="tou-from"
                  />
                </Form.Item>
                <Form.Item label={t('tou.to')} style={{ marginBottom: 8 }}>
                  <InputNumber<number>
                    min={1}
                    max={24}
                    precision={0}
                    value={p.to}
                    onChange={(v) => setPeriod(i, { to: v ?? 24 })}
                    data-testid="tou-to"
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('tou.remove')}
                  onClick={() => setPeriods((list) => list.filter((_, j) => j !== i))}
                />
              </Flex>
              <Form.Item label={t('tou.weekdays')} style={{ marginBottom: 8 }}>
                <Checkbox.Group
                  value={p.weekdays}
                  onChange={(v) => setPeriod(i, { weekdays: v as number[] })}
                  options={WEEK_ORDER.map((d) => ({ value: d, label: t(`weekdays.${d}`) }))}
                />
              </Form.Item>
              <Typography.Text type="secondary">{t('tou.override')}</Typography.Text>
              <Flex wrap gap={8} style={{ marginTop: 4 }}>
                {PERIOD_PRICE_KEYS.map((k) => (
                  <InputNumber<number>
                    key={k}
                    min={0}
                    step={0.01}
                    placeholder={t(`prices.${k}`)}
                    aria-label={t(`prices.${k}`)}
                    value={p.prices?.[k] ?? null}
                    onChange={(v) => setPeriod(i, { prices: { ...p.prices, [k]: v } })}
                    style={{ width: 150 }}
                    data-testid={`tou-price-${k}`}
                  />
                ))}
              </Flex>
            </Card>
          ))}
          <Button
            icon={<PlusOutlined />}
            disabled={periods.length >= TOU_PERIODS_MAX}
            onClick={() =>
              setPeriods((list) => [...list, { kind: 'peak', weekdays: [1, 2, 3, 4, 5], from: 17, to: 21, prices: {} }])
            }
            data-testid="tou-add"
          >
            {t('tou.add')}
          </Button>
          {issueText && <Alert type="error" showIcon message={issueText} data-testid="tou-issue" />}
          <WeekGrid periods={periodsOf(periods)} />
        </Space>
        {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} data-testid="tariff-error" />}
      </Form>
    </DraggableModal>
  );
}
