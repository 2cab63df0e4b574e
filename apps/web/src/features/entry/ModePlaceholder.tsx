/** Entry-page modes not built yet: their title, an honest "not available" state and a way back. */
import { useTranslation } from 'react-i18next';
import { ArrowLeftIcon, InboxIcon } from './icons';
import type { EntryMode } from './modes';

export interface ModePlaceholderProps {
  mode: Exclude<EntryMode, 'login'>;
  onBack: () => void;
}

export function ModePlaceholder({ mode, onBack }: ModePlaceholderProps) {
  const { t } = useTranslation('entry');
  return (
    <div data-testid={`entry-mode-${mode}`} className="sw-entry-mode">
      <div>
        <h2 className="sw-entry-title">{t(`modes.${mode}.title`)}</h2>
        <p className="sw-entry-subtitle">{t(`modes.${mode}.subtitle`)}</p>
      </div>
      <div className="sw-entry-empty" role="status">
        <InboxIcon className="sw-entry-empty-icon" />
        <span>{t('common.notAvailable')}</span>
      </div>
      <button type="button" className="sw-btn sw-btn-block" onClick={onBack} data-testid="back-to-login">
        <ArrowLeftIcon />
        <span>{t('common.backToLogin')}</span>
      </button>
    </div>
  );
}

export default ModePlaceholder;
