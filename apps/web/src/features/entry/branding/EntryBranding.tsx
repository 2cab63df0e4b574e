/**
 * Host-dependent parts of the entry page (issue 12, spec §2 "Entry page", §7): the branding of
 * this host, the app-download prompt, the contact info, the notice dialog and the footer with the
 * filing number and version label. Plain React + CSS like the rest of the entry page (issue 8).
 */
import { useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsultDat, DomainAppDat, DomainCheckData, NoticeDat } from '@sunwatch/protocol';
import { useMovableDialog } from '../movable-dialog';
import { CloseIcon, MobileIcon, UserIcon } from '../icons';
import { DEFAULT_BRANDING, fetchApp, fetchBranding, fetchContact, fetchNotice } from './branding-api';
import { dismissNotice, shouldShowNotice } from './notice-dismissal';
import { qrDataUrl } from '../qr/qr-image';
import './branding.css';

/** The look and options of this host; today's look until the domain check answers (or when it fails). */
export function useBranding(): DomainCheckData & { loaded: boolean } {
  const [brand, setBrand] = useState<DomainCheckData & { loaded: boolean }>({ ...DEFAULT_BRANDING, loaded: false });
  useEffect(() => {
    let live = true;
    fetchBranding().then(
      (b) => live && setBrand({ ...b, loaded: true }),
      () => live && setBrand({ ...DEFAULT_BRANDING, loaded: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return brand;
}

/** A small modal of the entry page: labelled, Escape and the close button close it, focus returns. */
export function EntryDialog({
  title,
  onClose,
  children,
  testId,
  footer,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  testId: string;
  footer?: ReactNode;
}) {
  const { t } = useTranslation('branding');
  const titleId = useId();
  const m = useMovableDialog({ move: t('dialog.move'), resize: t('dialog.resize') });
  const box = m.box;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.focus();
    return () => before?.focus?.();
  }, [box]);
  return (
    <div className="sw-dialog-mask">
      <div
        ref={box}
        className="sw-dialog sw-brand-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        style={m.style}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
      >
        <div className="sw-dialog-head" {...m.handle}>
          <h2 id={titleId} className="sw-dialog-title">
            {title}
          </h2>
          <button type="button" className="sw-dialog-close" aria-label={t('dialog.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="sw-brand-dialog-body" style={m.bodyStyle}>
          {children}
        </div>
        {footer ? <div className="sw-brand-dialog-foot">{footer}</div> : null}
        {m.grip}
      </div>
    </div>
  );
}

/** A text button of the extras row that opens a dialog. */
export function ExtraButton({ icon, label, onClick, testId }: { icon: ReactNode; label: string; onClick(): void; testId: string }) {
  return (
    <button type="button" className="sw-btn sw-btn-text sw-btn-small" onClick={onClick} data-testid={testId}>
      {icon}
      <span>{label}</span>
    </button>
  );
}

/**
 * QR image of an app link: the operator's image of this host (the spec's ios.png / android.png)
 * when there is one and it loads, else a code drawn in the browser from the link itself.
 */
export function AppQrImage({ src, link, alt }: { src: string; link: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const [drawn, setDrawn] = useState<string>();
  const useOperator = Boolean(src) && !failed;
  useEffect(() => {
    if (useOperator || !link) return;
    let live = true;
    qrDataUrl(link, APP_QR_SIZE).then(
      (u) => live && setDrawn(u),
      (e: unknown) => console.warn('[app-qr] could not draw the code', e),
    );
    return () => {
      live = false;
    };
  }, [useOperator, link]);
  const shown = useOperator ? src : drawn;
  if (!shown) return null;
  return (
    <img
      className="sw-brand-qr"
      src={shown}
      alt={alt}
      width={APP_QR_SIZE}
      height={APP_QR_SIZE}
      data-testid="app-qr"
      data-qr-source={useOperator ? 'operator' : 'generated'}
      onError={useOperator ? () => setFailed(true) : undefined}
    />
  );
}

const APP_QR_SIZE = 128;

/** The app-download prompt (queryDomainApp): only when this host has an app. */
export function AppDownload({ brand }: { brand: DomainCheckData }) {
  const { t, i18n } = useTranslation('branding');
  const [open, setOpen] = useState(false);
  const [app, setApp] = useState<DomainAppDat | 'none' | undefined>();
  useEffect(() => {
    if (!brand.app) return;
    let live = true;
    fetchApp(i18n.language).then(
      (a) => live && setApp(a),
      () => live && setApp('none'),
    );
    return () => {
      live = false;
    };
  }, [brand.app, i18n.language]);
  if (!brand.app || !app || app === 'none') return null;
  return (
    <>
      <ExtraButton icon={<MobileIcon />} label={t('app.button')} onClick={() => setOpen(true)} testId="app-download" />
      {open ? (
        <EntryDialog title={t('app.title')} onClose={() => setOpen(false)} testId="app-download-dialog">
          <div className="sw-brand-apps">
            {(
              [
                ['ios', app.ios, app.iosQr],
                ['android', app.android, app.androidQr],
              ] as const
            )
              .filter(([, link]) => link)
              .map(([kind, link, qr]) => (
                <div key={kind} className="sw-brand-app">
                  <AppQrImage src={qr} link={link} alt={t('app.scan', { platform: t(`app.${kind}`) })} />
                  <a href={link} target="_blank" rel="noopener noreferrer" data-testid={`app-link-${kind}`}>
                    {t(`app.${kind}`)}
                  </a>
                </div>
              ))}
          </div>
        </EntryDialog>
      ) : null}
    </>
  );
}

/** Contact info (consultParam/getParam), with a fallback when the service fails. */
export function ContactButton() {
  const { t, i18n } = useTranslation('branding');
  const [open, setOpen] = useState(false);
  const [contact, setContact] = useState<ConsultDat | 'failed' | undefined>();
  useEffect(() => {
    if (!open) return;
    let live = true;
    fetchContact(i18n.language).then(
      (c) => live && setContact(c),
      () => live && setContact('failed'),
    );
    return () => {
      live = false;
    };
  }, [open, i18n.language]);
  const rows: [string, string][] =
    contact && contact !== 'failed'
      ? (
          [
            ['contact.company', contact.englishName],
            ['contact.phone', contact.phoneNum],
            ['contact.email', contact.email],
            ['contact.wechat', contact.wechat],
          ] as [string, string][]
        ).filter(([, v]) => v)
      : [];
  return (
    <>
      <ExtraButton icon={<UserIcon />} label={t('contact.button')} onClick={() => setOpen(true)} testId="contact-us" />
      {open ? (
        <EntryDialog title={t('contact.title')} onClose={() => setOpen(false)} testId="contact-dialog">
          {contact === 'failed' ? (
            <p data-testid="contact-fallback">{t('contact.fallback', { email: FALLBACK_EMAIL })}</p>
          ) : contact === undefined ? (
            <p>{t('contact.loading')}</p>
          ) : (
            <dl className="sw-brand-contact">
              {rows.map(([k, v]) => (
                <div key={k}>
                  <dt>{t(k)}</dt>
                  <dd>{k === 'contact.email' ? <a href={`mailto:${v}`}>{v}</a> : v}</dd>
                </div>
              ))}
            </dl>
          )}
        </EntryDialog>
      ) : null}
    </>
  );
}

/** Shown when the contact service fails (spec §7 "On failure a fallback contact is shown"). */
export const FALLBACK_EMAIL = 'support@sunwatch.example';

/** The platform notice (getTask): a dialog when msgType is 2, once per session and version. */
export function NoticeDialog() {
  const { t, i18n } = useTranslation('branding');
  const [notice, setNotice] = useState<NoticeDat | undefined>();
  useEffect(() => {
    let live = true;
    fetchNotice(i18n.language).then(
      (n) => live && setNotice(shouldShowNotice(n) ? n : undefined),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [i18n.language]);
  if (!notice) return null;
  const close = () => {
    dismissNotice(notice);
    setNotice(undefined);
  };
  return (
    <EntryDialog
      title={notice.title}
      onClose={close}
      testId="notice-dialog"
      footer={
        <button type="button" className="sw-btn sw-btn-primary" onClick={close} data-testid="notice-ok">
          {t('notice.ok')}
        </button>
      }
    >
      <p className="sw-brand-notice">{notice.content}</p>
    </EntryDialog>
  );
}

/** Filing number (Chinese on the main host only: the host that has one configured) and version label. */
export function BrandFooter({ brand, version }: { brand: DomainCheckData; version: string }) {
  const { t, i18n } = useTranslation('branding');
  const { t: te } = useTranslation('entry');
  const chinese = i18n.language.startsWith('zh');
  return (
    <footer className="sw-entry-footer" data-testid="entry-version">
      © {brand.title || 'Sunwatch'} · {brand.versionLabel || te('footer.version', { version })}
      {chinese && brand.filingNumber ? (
        <span className="sw-brand-filing" data-testid="filing-number">
          {' · '}
          {t('footer.filing', { number: brand.filingNumber })}
        </span>
      ) : null}
    </footer>
  );
}
