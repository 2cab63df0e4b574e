/**
 * Debug a datalogger (spec §2, §5): hex bytes ("AA BB CC") sent to the device at a communication
 * address from a starting step; the datalogger's answer is shown. Every exchange of this dialog
 * stays listed (newest first) so a sequence can be compared; errors carry the device-control
 * wording of spec §8 (263 offline, 2 timeout, 1 no device answered, 6 format).
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, InputNumber, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useIsPhone } from '../../../components/responsive';
import { useDataloggerMutation } from '../api/queries';
import { debugFormErrors, debugParams, type DebugFormErrors, type DebugFormInput } from '../model/debug-form';
import { DIALOG_Z } from '../model/layers';
import type { DataloggerRef } from '../model/types';
import i18n from '../../../i18n';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

interface Exchange {
  at: string;
  addr: number;
  step: string;
  cmd: string;
  answer?: string;
  error?: string;
}

const errorText = (key: string | undefined) => (key ? (key.startsWith('rules.') ? ruleText(key) : i18n.t(key)) : undefined);

export default function DebugDialog({ row, onClose }: { row: DataloggerRef; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const debug = useDataloggerMutation('debugCollector');
  const [form, setForm] = useState<DebugFormInput>({ addr: '1', step: '0', cmd: '' });
  const [errors, setErrors] = useState<DebugFormErrors>({});
  const [exchanges, setExchanges] = useState<Exchange[]>([]);

  const send = async () => {
    const errs = debugFormErrors(form);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const params = debugParams(row.pn, form);
    const entry: Exchange = { at: new Date().toLocaleTimeString(), addr: params.addr, step: params.step, cmd: params.cmd };
    try {
      const r = await debug.mutateAsync(params);
      entry.answer = r.hex;
    } catch (e) {
      entry.error = apiErrorText(e, 'deviceControl');
    }
    setExchanges((l) => [entry, ...l].slice(0, 20));
  };

  const set = (k: keyof DebugFormInput) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const last = exchanges[0];

  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('dataloggers:debug.title', { pn: row.pn })}
      onCancel={onClose}
      destroyOnHidden
      width={phone ? '100%' : 620}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      data-testid="dl-debug-dialog"
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{t('dataloggers:actions.close')}</Button>
          <Button type="primary" loading={debug.isPending} onClick={() => void send()} data-testid="dl-debug-send">
            {t('dataloggers:debug.send')}
          </Button>
        </Flex>
      }
    >
      {row.status !== 0 && <Alert type="warning" showIcon message={t('dataloggers:debug.offlineHint')} style={{ marginBottom: 12 }} />}
      <Form layout="vertical">
        <Flex gap={12} wrap>
          <Form.Item
            label={t('dataloggers:debug.addr')}
            required
            help={errorText(errors.addr) ?? t('dataloggers:debug.addrHint')}
            validateStatus={errors.addr ? 'error' : undefined}
            style={{ flex: '1 1 140px' }}
          >
            <InputNumber
              value={form.addr === '' ? null : Number(form.addr)}
              onChange={(v) => set('addr')(v === null ? '' : String(v))}
              min={0}
              max={255}
              precision={0}
              style={{ width: '100%' }}
              data-testid="dl-debug-addr"
            />
          </Form.Item>
          <Form.Item
            label={t('dataloggers:debug.step')}
            required
            help={errorText(errors.step)}
            validateStatus={errors.step ? 'error' : undefined}
            style={{ flex: '1 1 140px' }}
          >
            <Input value={form.step} onChange={(e) => set('step')(e.target.value)} maxLength={8} data-testid="dl-debug-step" />
          </Form.Item>
        </Flex>
        <Form.Item label={t('dataloggers:debug.cmd')} required help={errorText(errors.cmd)} validateStatus={errors.cmd ? 'error' : undefined}>
          <Input
            value={form.cmd}
            onChange={(e) => set('cmd')(e.target.value)}
            placeholder={t('dataloggers:debug.cmdPlaceholder')}
            onPressEnter={() => void send()}
            style={{ fontFamily: 'monospace' }}
            maxLength={1024}
            data-testid="dl-debug-cmd"
          />
        </Form.Item>
      </Form>
      <Typography.Title level={5}>{t('dataloggers:debug.answer')}</Typography.Title>
      {last ? (
        last.error ? (
          <Alert type="error" showIcon message={last.error} data-testid="dl-debug-error" />
        ) : (
          <Typography.Text code copyable data-testid="dl-debug-answer">
            {last.answer}
          </Typography.Text>
        )
      ) : (
        <Typography.Text type="secondary">{t('dataloggers:debug.noAnswer')}</Typography.Text>
      )}
      {exchanges.length > 1 && (
        <List
          size="small"
          style={{ marginTop: 12 }}
          dataSource={exchanges.slice(1)}
          renderItem={(x) => (
            <List.Item>
              <Flex vertical gap={2} style={{ fontFamily: 'monospace', fontSize: 12 }}>
                <span>
                  {x.at} · #{x.addr} · {x.step} · <Tag>{t('dataloggers:debug.sent')}</Tag>
                  {x.cmd}
                </span>
                <span>{x.error ? <Typography.Text type="danger">{x.error}</Typography.Text> : `→ ${x.answer}`}</span>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </DraggableModal>
  );
}
