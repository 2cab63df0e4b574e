/**
 * The datalogger actions that need a confirmation and show a result: reset and unbind with the
 * typed YES of spec §4/§5 (the button stays disabled until YES is typed), reboot with its
 * progress (command → acknowledgement → reconnection), delete.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Flex, Input, Steps, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { confirmYesError } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useIsPhone } from '../../../components/responsive';
import { dataloggerKeys } from '../api/keys';
import { useDataloggerMutation } from '../api/queries';
import { RECONNECT_POLL_MS, dayIn, previousDay, reconnectState, type ReconnectState, type ReconnectWatch } from '../model/reboot';
import { DIALOG_Z } from '../model/layers';
import type { DataloggerRef } from '../model/types';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

function useDialogWidth(width: number) {
  const phone = useIsPhone();
  return phone ? { width: '100%', style: { top: 0, maxWidth: '100vw', margin: 0 } } : { width };
}

/** Reset or unbind, confirmed by typing YES. */
export function ConfirmYesDialog({ kind, row, onClose }: { kind: 'reset' | 'unbind'; row: DataloggerRef; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDialogWidth(520);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const reset = useDataloggerMutation('resetCollector');
  const unbind = useDataloggerMutation('unbindCollector');
  const pending = reset.isPending || unbind.isPending;
  const mismatch = confirmYesError(typed);

  const run = async () => {
    if (mismatch) return setError(ruleText(mismatch));
    setError(undefined);
    try {
      if (kind === 'reset') {
        const r = await reset.mutateAsync({ pn: row.pn, confirm: typed.trim() });
        void notice().success(t('dataloggers:confirm.resetDone', { pn: row.pn, devices: r.devices, samples: r.samples }));
      } else {
        await unbind.mutateAsync({ pn: row.pn, confirm: typed.trim() });
        void notice().success(t('dataloggers:confirm.unbindDone', { pn: row.pn }));
      }
      onClose();
    } catch (e) {
      setError(apiErrorText(e, 'deviceControl'));
    }
  };

  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t(kind === 'reset' ? 'dataloggers:confirm.resetTitle' : 'dataloggers:confirm.unbindTitle', { pn: row.pn })}
      onCancel={onClose}
      destroyOnHidden
      {...size}
      data-testid={`dl-${kind}-dialog`}
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{t('dataloggers:actions.cancel')}</Button>
          <Button
            type="primary"
            danger
            disabled={!!mismatch}
            loading={pending}
            onClick={() => void run()}
            data-testid={`dl-${kind}-run`}
          >
            {t(`dataloggers:actions.${kind}`)}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Alert
          type="warning"
          showIcon
          message={t(kind === 'reset' ? 'dataloggers:confirm.resetText' : 'dataloggers:confirm.unbindText')}
        />
        <Typography.Text>{t('dataloggers:confirm.typeYes')}</Typography.Text>
        <Input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="YES"
          autoComplete="off"
          maxLength={16}
          onPressEnter={() => void run()}
          data-testid={`dl-${kind}-yes`}
        />
        {error && <Alert type="error" showIcon message={error} data-testid={`dl-${kind}-error`} />}
      </Flex>
    </DraggableModal>
  );
}

type RebootPhase =
  | { step: 'idle' }
  | { step: 'sending' }
  | { step: 'failed'; text: string }
  | { step: 'refused' }
  | { step: 'watch'; delay: number; state: ReconnectState };

/** Reboot: the command, its acknowledgement, then watching the datalogger reconnect. */
export function RebootDialog({ row, onClose }: { row: DataloggerRef; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDialogWidth(520);
  const qc = useQueryClient();
  const restart = useDataloggerMutation('restartCollector');
  const [phase, setPhase] = useState<RebootPhase>({ step: 'idle' });
  const watchRef = useRef<ReconnectWatch | undefined>(undefined);
  const tzRef = useRef(0);

  const run = async () => {
    setPhase({ step: 'sending' });
    try {
      // the datalogger's timezone, for the days of its log
      const detail = await api.call('queryCollectorDetail', { pn: row.pn }).catch(() => undefined);
      tzRef.current = detail?.timezone ?? 0;
      const r = await restart.mutateAsync({ pn: row.pn });
      if (r.ret !== 0) return setPhase({ step: 'refused' });
      watchRef.current = { ackAt: Date.now(), delay: r.delay, sawOffline: false };
      setPhase({ step: 'watch', delay: r.delay, state: 'waiting' });
    } catch (e) {
      setPhase({ step: 'failed', text: apiErrorText(e, 'deviceControl') });
    }
  };

  const watching = phase.step === 'watch' && phase.state === 'waiting';
  useEffect(() => {
    if (!watching) return;
    let stopped = false;
    const poll = async () => {
      const w = watchRef.current;
      if (!w || stopped) return;
      const now = Date.now();
      const today = dayIn(tzRef.current, now);
      const [status, log] = await Promise.all([
        api.call('queryCollectorStatus', { pn: row.pn }).then((d) => d.collector[0]?.status).catch(() => undefined),
        api
          .call('webQueryCollectorLog', { pn: row.pn, sdate: previousDay(today), edate: today, kind: 'connect', page: 0, pagesize: 1 })
          .then((d) => d.log[0]?.ts)
          .catch(() => undefined),
      ]);
      if (stopped) return;
      const next = reconnectState(w, { status, lastConnectTs: log, now: Date.now() });
      watchRef.current = next.watch;
      if (next.state !== 'waiting') {
        setPhase((p) => (p.step === 'watch' ? { ...p, state: next.state } : p));
        void qc.invalidateQueries({ queryKey: dataloggerKeys.all });
      }
    };
    const timer = setInterval(() => void poll(), RECONNECT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [watching, row.pn, qc]);

  const current =
    phase.step === 'idle' ? -1 : phase.step === 'sending' ? 0 : phase.step === 'watch' ? (phase.state === 'reconnected' ? 4 : 2) : 1;
  const status = phase.step === 'failed' || phase.step === 'refused' ? 'error' : phase.step === 'watch' && phase.state === 'notYet' ? 'wait' : 'process';

  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('dataloggers:reboot.title', { pn: row.pn })}
      onCancel={onClose}
      destroyOnHidden
      {...size}
      data-testid="dl-reboot-dialog"
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{t('dataloggers:actions.close')}</Button>
          {(phase.step === 'idle' || phase.step === 'failed' || phase.step === 'refused') && (
            <Button type="primary" onClick={() => void run()} data-testid="dl-reboot-run">
              {t('dataloggers:reboot.start')}
            </Button>
          )}
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph>{t('dataloggers:reboot.text')}</Typography.Paragraph>
        {phase.step !== 'idle' && (
          <Steps
            direction="vertical"
            size="small"
            current={current}
            status={status}
            items={[
              { title: t('dataloggers:reboot.sending') },
              { title: t('dataloggers:reboot.ackStep') },
              { title: t('dataloggers:reboot.waiting') },
              { title: t('dataloggers:reboot.reconnected') },
            ]}
          />
        )}
        {phase.step === 'failed' && <Alert type="error" showIcon message={phase.text} data-testid="dl-reboot-error" />}
        {phase.step === 'refused' && <Alert type="error" showIcon message={t('dataloggers:reboot.refused')} data-testid="dl-reboot-error" />}
        {phase.step === 'watch' && (
          <Alert
            type={phase.state === 'reconnected' ? 'success' : phase.state === 'notYet' ? 'warning' : 'info'}
            showIcon
            data-testid="dl-reboot-result"
            data-state={phase.state}
            message={t('dataloggers:reboot.acknowledged', { delay: phase.delay })}
            description={
              phase.state === 'reconnected'
                ? t('dataloggers:reboot.reconnected')
                : phase.state === 'notYet'
                  ? t('dataloggers:reboot.notYet')
                  : t('dataloggers:reboot.waiting')
            }
          />
        )}
      </Flex>
    </DraggableModal>
  );
}

/** Delete: the caller gives up its management right (spec §4). */
export function DeleteDialog({ row, onClose }: { row: DataloggerRef; onClose: () => void }) {
  const { t } = useTranslation();
  const size = useDialogWidth(460);
  const del = useDataloggerMutation('delCollector');
  const [error, setError] = useState<string>();
  const run = async () => {
    try {
      await del.mutateAsync({ pn: row.pn });
      void notice().success(t('dataloggers:delete.done', { pn: row.pn }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('dataloggers:delete.title', { pn: row.pn })}
      onCancel={onClose}
      onOk={() => void run()}
      okText={t('dataloggers:actions.delete')}
      okButtonProps={{ danger: true, ...({ 'data-testid': 'dl-delete-run' } as Record<`data-${string}`, string>) }}
      cancelText={t('dataloggers:actions.cancel')}
      confirmLoading={del.isPending}
      destroyOnHidden
      {...size}
      data-testid="dl-delete-dialog"
    >
      <Typography.Paragraph>{t('dataloggers:delete.text')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} />}
    </DraggableModal>
  );
}
