/** Confirms handling one or many alarms (untreated → processed; the server records who and when). */
import { useState } from 'react';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { useHandleAlarms } from '../api/queries';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export default function HandleDialog({ ids, onClose, onDone }: { ids: number[]; onClose: () => void; onDone?: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const handle = useHandleAlarms();
  const [error, setError] = useState<string>();
  const run = async () => {
    try {
      const n = await handle.mutateAsync(ids);
      void notice().success(t('alarms:handle.done', { n }));
      onDone?.();
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t('alarms:handle.title')}
      onCancel={onClose}
      onOk={() => void run()}
      okText={t('alarms:handle.ok')}
      okButtonProps={{ 'data-testid': 'alarm-handle-run' } as Record<`data-${string}`, string>}
      cancelText={t('alarms:cancel')}
      confirmLoading={handle.isPending}
      destroyOnHidden
      {...(phone ? { width: '100%', style: { top: 0, maxWidth: '100vw', margin: 0 } } : { width: 440 })}
      data-testid="alarm-handle-dialog"
    >
      <Typography.Paragraph>{t('alarms:handle.confirm', { n: ids.length })}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} />}
    </DraggableModal>
  );
}
