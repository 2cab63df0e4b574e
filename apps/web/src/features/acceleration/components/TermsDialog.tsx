/**
 * The acceleration terms (spec §9): not refundable, not changeable, Wi-Fi module dataloggers only,
 * no validity limit. The purchase is possible only once they are accepted here.
 */
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACCELERATION_TERMS } from '@sunwatch/protocol';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export function TermsDialog({ open, onAccept, onClose }: { open: boolean; onAccept: () => void; onClose: () => void }) {
  const { t } = useTranslation('acceleration');
  return (
    <DraggableModal
      open={open}
      title={t('terms.title')}
      onCancel={onClose}
      width={560}
      footer={[
        <Button key="close" onClick={onClose}>
          {t('terms.close')}
        </Button>,
        <Button key="accept" type="primary" onClick={onAccept} data-testid="accel-terms-accept">
          {t('terms.accept')}
        </Button>,
      ]}
      data-testid="accel-terms"
    >
      <Typography.Paragraph>{t('terms.intro')}</Typography.Paragraph>
      <ol style={{ paddingInlineStart: 20 }}>
        {ACCELERATION_TERMS.map((k) => (
          <li key={k} style={{ marginBottom: 8 }}>
            <Typography.Text>{t(`terms.${k}`)}</Typography.Text>
          </li>
        ))}
      </ol>
    </DraggableModal>
  );
}
