/**
 * Device control (spec §2 "control", portal-screens §11): the control fields of the device's
 * protocol definition the caller may see; item fields as selects, numeric fields as inputs
 * checked against their range hint before anything is sent, one-shot fields as buttons. "Read"
 * loads one field's current value from the device; "Set" writes it through the datalogger and
 * shows its answer or the device-control error of spec §8 (1, 2, 6, 8, 9, 11, 263).
 */
import { useMemo, useState } from 'react';
import { Alert, App, Button, Empty, Flex, Input, Select, Skeleton, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { ApiCallError, type CtrlFieldWire } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { deviceKeys } from '../../shared/devices/api/keys';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { ctrlDevice, readCtrlValue, useCtrlFields } from '../api/queries';
import { usePasswordPrompt, type PasswordPrompt } from '../components/control-password';
import { checkCtrlInput, ctrlValueLabel, isButtonField } from './control-input';
import { useConfirm } from '../../shared/dialog/use-confirm';

type Field = CtrlFieldWire & { write?: boolean };

interface RowState {
  current?: string;
  src?: string;
  reading?: boolean;
  setting?: boolean;
  error?: string;
  done?: string;
}

export default function ControlTab({ device }: DeviceTabProps) {
  const { t } = useTranslation();
  const q = useCtrlFields(device);
  const [filter, setFilter] = useState('');
  const prompt = usePasswordPrompt();
  const fields = useMemo(() => {
    const all = (q.data?.field ?? []) as Field[];
    const f = filter.trim().toLowerCase();
    return f ? all.filter((x) => x.name.toLowerCase().includes(f) || x.id.includes(f)) : all;
  }, [q.data, filter]);

  if (q.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (q.isError) return <Alert type="error" showIcon message={t('deviceOps:control.loadFailed')} description={apiErrorText(q.error, 'deviceControl')} />;
  if (q.data.field.length === 0) return <Empty description={t('deviceOps:control.none')} />;
  return (
    <Flex vertical gap={12} data-testid="ctrl-tab">
      <Typography.Text type="secondary">{t('deviceOps:control.intro')}</Typography.Text>
      {q.data.pwd && <Alert type="info" showIcon message={t('deviceOps:control.pwdGuarded')} />}
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('deviceOps:control.search')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        style={{ maxWidth: 360 }}
        data-testid="ctrl-search"
      />
      {fields.map((f) => (
        <ControlRow key={f.id} device={device} field={f} pwd={q.data.pwd} prompt={prompt} />
      ))}
      {prompt.modal}
    </Flex>
  );
}

function ControlRow({ device, field, pwd, prompt }: { device: DeviceTupleLike; field: Field; pwd: boolean; prompt: PasswordPrompt }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const qc = useQueryClient();
  const [s, setS] = useState<RowState>({});
  const [input, setInput] = useState<string | undefined>(undefined);
  const [touched, setTouched] = useState(false);
  const writable = field.write !== false;
  const button = isButtonField(field);
  const check = checkCtrlInput(field, button ? field.item![0]!.key : input);
  const invalid = touched && !check.ok ? t(`deviceOps:control.invalid.${check.key}`, { hint: field.hint ?? '' }) : undefined;

  const read = async () => {
    setS((p) => ({ ...p, reading: true, error: undefined }));
    try {
      const r = await readCtrlValue(device, field.id);
      setS((p) => ({ ...p, reading: false, current: r.val, src: r.src }));
      if (!button && input === undefined && r.val !== '') setInput(r.val);
    } catch (e) {
      setS((p) => ({ ...p, reading: false, error: apiErrorText(e, 'deviceControl') }));
    }
  };

  const send = async (value: string) => {
    const password = await prompt.get(pwd);
    if (password === undefined) return;
    setS((p) => ({ ...p, setting: true, error: undefined, done: undefined }));
    const hide = message.loading(t('deviceOps:control.sending'), 0);
    try {
      const r = await ctrlDevice(device, field.id, value, password ?? undefined);
      if (r.status === -1) {
        setS((p) => ({ ...p, setting: false, error: t('deviceOps:control.pending') }));
        return;
      }
      const label = ctrlValueLabel(field, value);
      setS((p) => ({ ...p, setting: false, current: button ? p.current : value, src: 'device', done: t('deviceOps:control.done', { name: field.name, val: label }) }));
      void message.success(t('deviceOps:control.done', { name: field.name, val: label }));
      // the write shows in the history and, with the next upload, in the real-time data
      void qc.invalidateQueries({ queryKey: deviceKeys.part(device, 'operationLog') });
    } catch (e) {
      if (e instanceof ApiCallError && e.err === 11 && password) prompt.forget();
      const text = apiErrorText(e, 'deviceControl');
      setS((p) => ({ ...p, setting: false, error: text }));
      void message.error(text);
    } finally {
      hide();
    }
  };

  const onSet = () => {
    setTouched(true);
    if (!check.ok) return;
    const value = check.value;
    confirm({
      title: t('deviceOps:control.confirmTitle', { name: field.name }),
      content: button
        ? t('deviceOps:control.confirmButton', { val: field.item![0]!.val })
        : t('deviceOps:control.confirmBody', { old: ctrlValueLabel(field, s.current), val: ctrlValueLabel(field, value) }),
      okText: t('deviceOps:common.confirm'),
      cancelText: t('deviceOps:common.cancel'),
      okButtonProps: { 'data-testid': 'ctrl-confirm-ok' },
      onOk: () => {
        void send(value);
      },
    });
  };

  return (
    <div data-testid={`ctrl-row-${field.id}`} style={{ border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 8, padding: '10px 12px' }}>
      <Flex wrap gap={12} align="center" justify="space-between">
        <Flex vertical style={{ minWidth: 180, flex: '1 1 220px' }}>
          <Typography.Text strong>
            {field.name}
            {field.unit ? ` (${field.unit})` : ''}
          </Typography.Text>
          {field.hint && !button && (
            <Typography.Text type="secondary" data-testid={`ctrl-hint-${field.id}`}>
              {t('deviceOps:control.hint', { hint: field.hint })}
            </Typography.Text>
          )}
        </Flex>
        {!button && (
          <Flex align="center" gap={8} style={{ flex: '0 1 auto' }}>
            <Typography.Text type="secondary">{t('deviceOps:control.current')}:</Typography.Text>
            <Typography.Text data-testid={`ctrl-value-${field.id}`}>{s.current === undefined ? t('deviceOps:control.notRead') : ctrlValueLabel(field, s.current)}</Typography.Text>
            {s.src === 'sample' && <Tag>{t('deviceOps:control.fromSample')}</Tag>}
            <Button size="small" loading={s.reading} onClick={() => void read()} data-testid={`ctrl-read-${field.id}`}>
              {t('deviceOps:control.read')}
            </Button>
          </Flex>
        )}
        {writable ? (
          <Flex align="flex-start" gap={8} wrap style={{ flex: '1 1 260px', justifyContent: 'flex-end' }}>
            {!button &&
              (field.item ? (
                <Select
                  data-testid={`ctrl-input-${field.id}`}
                  style={{ minWidth: 160, maxWidth: 240 }}
                  value={input}
                  placeholder={t('deviceOps:control.choose')}
                  options={field.item.map((it) => ({ value: it.key, label: it.val }))}
                  showSearch={field.item.length > 10}
                  optionFilterProp="label"
                  onChange={(v: string) => {
                    setInput(v);
                    setTouched(true);
                  }}
                />
              ) : (
                <Flex vertical style={{ minWidth: 160, maxWidth: 240 }}>
                  <Input
                    data-testid={`ctrl-input-${field.id}`}
                    value={input}
                    status={invalid ? 'error' : undefined}
                    placeholder={field.hint ?? t('deviceOps:control.newValue')}
                    onChange={(e) => {
                      setInput(e.target.value);
                      setTouched(true);
                    }}
                    onPressEnter={onSet}
                  />
                  {invalid && (
                    <Typography.Text type="danger" data-testid={`ctrl-invalid-${field.id}`}>
                      {invalid}
                    </Typography.Text>
                  )}
                </Flex>
              ))}
            <Button type="primary" loading={s.setting} onClick={onSet} data-testid={`ctrl-set-${field.id}`}>
              {button ? field.item![0]!.val : t('deviceOps:control.set')}
            </Button>
          </Flex>
        ) : (
          <Tag>{t('deviceOps:control.readOnly')}</Tag>
        )}
      </Flex>
      {s.error && <Alert style={{ marginTop: 8 }} type="error" showIcon message={s.error} data-testid={`ctrl-error-${field.id}`} />}
      {s.done && !s.error && <Alert style={{ marginTop: 8 }} type="success" showIcon message={s.done} data-testid={`ctrl-done-${field.id}`} />}
    </div>
  );
}
