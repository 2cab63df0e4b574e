/**
 * QR sign-in face (spec §2, §4 "QR login"): a random 32-character key as a 320×320 QR code of
 * the confirm page's URL, `qrLogin` polled every 3 s. A signed-in browser (a phone) opens the
 * URL, which scans (1040: "scan succeeded, please confirm login") and confirms (0: this browser
 * gets a session of that account). Leaving the face stops polling.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { QR_CONFIRM_PATH, WEB_COMPANY_KEY } from '@sunwatch/protocol';
import { baseClient } from '../../../app/api';
import { appLoginDeps } from '../login-deps';
import { logoutOldSession } from '../login-flow';
import { errorText } from '../lookup/error-text';
import '../lookup/entry-extras.css';
import { newQrKey, pollQr, type QrState } from './qr-poll';
import { drawQr } from './qr-image';

export function qrConfirmUrl(origin: string, key: string): string {
  return `${origin}${QR_CONFIRM_PATH}?key=${encodeURIComponent(key)}`;
}

export function QrLogin() {
  const { t } = useTranslation('entryExtras');
  const navigate = useNavigate();
  const [key, setKey] = useState(() => newQrKey());
  const [state, setState] = useState<QrState>({ kind: 'waiting' });
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const url = qrConfirmUrl(window.location.origin, key);

  useEffect(() => {
    if (canvas.current) drawQr(canvas.current, url, 320).catch((e: unknown) => console.warn('[qr] could not draw the code', e));
  }, [url]);

  useEffect(() => {
    setState({ kind: 'waiting' });
    const stop = pollQr(
      key,
      (k) => baseClient.call('qrLogin', { key: k, plat: 'smartlan', 'company-key': WEB_COMPANY_KEY }),
      (s) => {
        setState(s);
        if (s.kind === 'done') {
          void (async () => {
            await logoutOldSession(appLoginDeps);
            appLoginDeps.saveLogin(s.dat, { remember: false });
            const session = appLoginDeps.getSession();
            void navigate(session ? appLoginDeps.homePathFor(session) : '/home', { replace: true });
          })();
        }
      },
    );
    return stop; // switching back to the password face stops polling
  }, [key, navigate]);

  return (
    <div data-testid="entry-mode-qr" className="sw-entry-mode sw-qr" data-key={key} data-qr-url={url}>
      <div>
        <h2 className="sw-entry-title">{t('qr.title')}</h2>
        <p className="sw-entry-subtitle">{t('qr.subtitle')}</p>
      </div>
      <canvas ref={canvas} width={320} height={320} role="img" aria-label={t('qr.imageLabel')} data-testid="qr-canvas" />
      <div className="sw-qr-status" aria-live="polite" data-testid="qr-status" data-state={state.kind}>
        {state.kind === 'waiting' ? t('qr.waiting') : null}
        {state.kind === 'scanned' ? <strong>{t('qr.scanned')}</strong> : null}
        {state.kind === 'done' ? t('qr.done') : null}
        {state.kind === 'failed' ? (
          <span className="sw-alert-error" role="alert">
            {errorText(t, state.error)}
          </span>
        ) : null}
      </div>
      {state.kind === 'failed' ? (
        <button type="button" className="sw-btn sw-btn-primary" onClick={() => setKey(newQrKey())} data-testid="qr-refresh">
          {t('qr.refresh')}
        </button>
      ) : null}
      <a className="sw-btn sw-btn-text sw-btn-small" href={url} target="_blank" rel="noreferrer">
        {t('qr.openLink')}
      </a>
    </div>
  );
}

export default QrLogin;
