/** Entry-page modes not built yet: their title, an honest "not available" state and a way back. */
import { Button, Empty, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { EntryMode } from './modes';

export interface ModePlaceholderProps {
  mode: Exclude<EntryMode, 'login'>;
  onBack: () => void;
}

export function ModePlaceholder({ mode, onBack }: ModePlaceholderProps) {
  const { t } = useTranslation('entry');
  return (
    <div data-testid={`entry-mode-${mode}`} style={{ display: 'flex', flexDirection: 'column', gap: 16, flex: 1 }}>
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t(`modes.${mode}.title`)}
        </Typography.Title>
        <Typography.Text type="secondary">{t(`modes.${mode}.subtitle`)}</Typography.Text>
      </div>
      <div style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Empty description={t('common.notAvailable')} />
      </div>
      <Button icon={<ArrowLeftOutlined />} onClick={onBack} block data-testid="back-to-login">
        {t('common.backToLogin')}
      </Button>
    </div>
  );
}

export default ModePlaceholder;
