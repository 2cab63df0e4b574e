/**
 * The page a sign-in QR code opens (`/qr/confirm?key=`), for a signed-in person (the guard
 * sends others to /entry and back): opening it scans the key (the other browser shows "scan
 * succeeded, please confirm login"); Confirm signs that browser in to this account, Cancel
 * refuses. Mobile-first, plain markup.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { QR_KEY_PATTERN } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { getSession } from '../../../app/session';
import { errorText } from '../lookup/error-text';
import '../lookup/entry-extras.css';

type Phase = 'scanning' | 'ready' | 'busy' | 'confirmed' | 'refused' | 'failed';

export function QrConfirmPage() {
  const { t } = useTranslation('entryExtras');
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const valid = QR_KEY_PATTERN.test(key);
  const [phase, setPhase] = useState<Phase>(valid ? 'scanning' : 'failed');
  const [error, setError] = useState<string>(valid ? '' : t('qr.confirm.badKey'));
  const usr = getSession()?.usr ?? '';

  useEffect(() => {
    document.title = `${t('qr.confirm.title')} · Sunwatch`;
    if (!valid) return;
    let live = true;
    api.call('qrScan', { key }).then(
      () => live && setPhase('ready'),
      (e: unknown) => {
        if (!live) return;
        setError(errorText(t, e));
        setPhase('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [key, valid, t]);

  const answer = async (confirm: '0' | '1') => {
    setPhase('busy');
    try {
      await api.call('qrConfirm', { key, confirm });
      setPhase(confirm === '1' ? 'confirmed' : 'refused');
    } catch (e) {
      setError(errorText(t, e));
      setPhase('failed');
    }
  };

  return (
    <main className="sw-qr-confirm" data-testid="qr-confirm-page" data-phase={phase}>
      <div className="sw-qr-confirm-card">
        <h1 className="sw-entry-title">{t('qr.confirm.title')}</h1>
        {phase === 'scanning' ? <p role="status">{t('qr.confirm.scanning')}</p> : null}
        {phase === 'ready' || phase === 'busy' ? (
          <>
            <p>{t('qr.confirm.question', { usr })}</p>
            <button
              type="button"
              className="sw-btn sw-btn-primary sw-btn-block sw-btn-large"
              disabled={phase === 'busy'}
              onClick={() => void answer('1')}
              data-testid="qr-confirm"
            >
              {t('qr.confirm.confirm')}
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-block"
              disabled={phase === 'busy'}
              onClick={() => void answer('0')}
              data-testid="qr-cancel"
            >
              {t('qr.confirm.cancel')}
            </button>
          </>
        ) : null}
        {phase === 'confirmed' ? (
          <p className="sw-alert-success" role="status" data-testid="qr-confirmed">
            {t('qr.confirm.confirmed')}
          </p>
        ) : null}
        {phase === 'refused' ? <p role="status">{t('qr.confirm.refused')}</p> : null}
        {phase === 'failed' ? (
          <p className="sw-alert-error" role="alert" data-testid="qr-confirm-error">
            {error}
          </p>
        ) : null}
      </div>
    </main>
  );
}

export default QrConfirmPage;
