/**
 * Send command (spec §2, §5 "Commands are hex bytes such as AA BB CC"): raw bytes to the device
 * through its datalogger (passthrough), the device's answer shown under it. The bytes are
 * checked and normalised in the browser (normalizeHexBytes, protocol) before anything is sent.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Empty, Flex, Input, List, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { ApiCallError, normalizeHexBytes } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { apiErrorText } from '../../../app/notify';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { deviceKeys } from '../../shared/devices/api/keys';
import { sendCmdToDevice, useCtrlFields } from '../api/queries';
import { usePasswordPrompt } from '../components/control-password';

interface Exchange {
  at: string;
  cmd: string;
  answer?: string;
  error?: string;
}

export default function CommandTab({ device }: DeviceTabProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  // whether a control password guards this device's writes comes with its control fields
  const fields = useCtrlFields(device);
  const prompt = usePasswordPrompt();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [log, setLog] = useState<Exchange[]>([]);
  const hex = normalizeHexBytes(text);
  const invalid = touched && !hex;

  const send = async () => {
    setTouched(true);
    if (!hex) return;
    const password = await prompt.get(fields.data?.pwd ?? false);
    if (password === undefined) return;
    setBusy(true);
    const at = dayjs().format('HH:mm:ss');
    try {
      const r = await sendCmdToDevice(device, hex, password ?? undefined);
      setLog((l) => [{ at, cmd: hex, answer: r.dat }, ...l].slice(0, 20));
    } catch (e) {
      if (e instanceof ApiCallError && e.err === 11 && password) prompt.forget();
      const error = apiErrorText(e, 'deviceControl');
      setLog((l) => [{ at, cmd: hex, error }, ...l].slice(0, 20));
      void message.error(error);
    } finally {
      setBusy(false);
      void qc.invalidateQueries({ queryKey: deviceKeys.part(device, 'operationLog') });
    }
  };

  return (
    <Flex vertical gap={12} data-testid="cmd-tab">
      <Alert type="warning" showIcon message={t('deviceOps:command.warning')} />
      <Card size="small" title={t('deviceOps:command.title')}>
        <Flex gap={8} wrap align="flex-start">
          <Flex vertical style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Typography.Text>{t('deviceOps:command.label')}</Typography.Text>
            <Input.TextArea
              data-testid="cmd-input"
              autoSize={{ minRows: 2, maxRows: 6 }}
              value={text}
              status={invalid ? 'error' : undefined}
              placeholder={t('deviceOps:command.placeholder')}
              onChange={(e) => {
                setText(e.target.value);
                setTouched(true);
              }}
              style={{ fontFamily: 'monospace' }}
            />
            {invalid && (
              <Typography.Text type="danger" data-testid="cmd-invalid">
                {t('deviceOps:command.invalid')}
              </Typography.Text>
            )}
            {hex && hex !== text.trim() && (
              <Typography.Text type="secondary">{t('deviceOps:command.normalised', { hex })}</Typography.Text>
            )}
          </Flex>
          <Button type="primary" loading={busy} onClick={() => void send()} data-testid="cmd-send" style={{ marginTop: 22 }}>
            {busy ? t('deviceOps:command.sending') : t('deviceOps:command.send')}
          </Button>
        </Flex>
      </Card>
      <Card size="small" title={t('deviceOps:command.answers')}>
        {log.length === 0 ? (
          <Empty description={t('deviceOps:command.empty')} />
        ) : (
          <List
            dataSource={log}
            renderItem={(x, i) => (
              <List.Item data-testid={i === 0 ? 'cmd-last' : undefined}>
                <Flex vertical gap={2} style={{ width: '100%', minWidth: 0 }}>
                  <Typography.Text type="secondary">
                    {x.at} · {t('deviceOps:command.sent')}: <code>{x.cmd}</code>
                  </Typography.Text>
                  {x.error ? (
                    <Typography.Text type="danger" data-testid={i === 0 ? 'cmd-error' : undefined}>
                      {x.error}
                    </Typography.Text>
                  ) : (
                    <Typography.Text style={{ wordBreak: 'break-all' }}>
                      {t('deviceOps:command.answer')}: <code data-testid={i === 0 ? 'cmd-answer' : undefined}>{x.answer || t('deviceOps:command.noAnswer')}</code>
                    </Typography.Text>
                  )}
                </Flex>
              </List.Item>
            )}
          />
        )}
      </Card>
      {prompt.modal}
    </Flex>
  );
}
