/**
 * The entry page (/entry, spec §2): one screen, five modes and no route change: login, signup
 * and password retrieval (loaded on demand), account retrieval by serial and QR sign-in. Below
 * the login form: the experience code (opens the read-only showcase; hidden where the host's
 * branding turns demo access off), the server node picker and the app download; notices,
 * contact and the host's branding around it (docs/entry/*.md).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isSessionEndReason } from '../../app/api';
import { version } from '../../../package.json';
import {
  CheckCircleFilledIcon,
  ExclamationCircleFilledIcon,
  QrcodeIcon,
  SunFilledIcon,
  UserIcon,
} from './icons';
import { LanguagePicker } from './LanguagePicker';
import { LoginForm } from './LoginForm';
import type { LoginFormProps } from './LoginForm';
import { AccountLookup } from './lookup/AccountLookup';
import { ExperienceEntry } from './experience/ExperienceDialogs';
import { QrLogin } from './qr/QrLogin';
import { AppDownload, BrandFooter, ContactButton, NoticeDialog, useBranding } from './branding/EntryBranding';
import { NodePicker } from './nodes/NodePicker';
import { setLanguage } from '../../i18n';
import { normalizeLocale } from '@sunwatch/protocol';
import type { EntryMode } from './modes';
import './entry.css';

const SignupFace = lazy(() => import('./signup/SignupFace'));
const RetrieveFace = lazy(() => import('./retrieve/RetrieveFace'));

/*
 * Plain React and CSS (entry.css), no antd: the entry page is the first load and must stay within
 * 200 KB of gzipped JavaScript (issue 8). Spec §9 "Primary colour green": it keeps the brand
 * colour whatever the skin (entry.css).
 */

export interface EntryPageProps {
  /** Start mode (tests); login by default. */
  initialMode?: EntryMode;
  /** Injected login dependencies (tests). */
  loginDeps?: LoginFormProps['deps'];
}

/** Why the last session ended (`?reason=` from the API client's sign-out path), above the login form. */
function SessionEndedNotice() {
  const { t } = useTranslation('session');
  const [params] = useSearchParams();
  const reason = params.get('reason');
  if (!isSessionEndReason(reason)) return null;
  return (
    <div className="sw-alert sw-alert-warning" role="alert" data-testid="session-ended" data-reason={reason}>
      <ExclamationCircleFilledIcon className="sw-alert-icon" />
      <span>
        <strong>{t('ended.title')}</strong> {t(`ended.${reason}`)}
      </span>
    </div>
  );
}

export function EntryPage({ initialMode = 'login', loginDeps }: EntryPageProps = {}) {
  const { t } = useTranslation('entry');
  const [search] = useSearchParams();
  // ?mode=signup: the demo banner's "sign up" opens the signup face (issue 12)
  const [mode, setMode] = useState<EntryMode>(() => (search.get('mode') === 'signup' ? 'signup' : initialMode));
  const brand = useBranding();
  const { i18n } = useTranslation();
  const forced = normalizeLocale(brand.forceLanguage);
  useEffect(() => {
    // a host may force its language (issue 12); stored like a choice, so the reload shows it
    if (forced && normalizeLocale(i18n.resolvedLanguage ?? i18n.language) !== forced) setLanguage(forced);
  }, [forced, i18n]);
  const brandName = brand.title || 'Sunwatch';

  useEffect(() => {
    document.title = `${t('login.title')} · ${brandName}`;
  }, [t, brandName]);

  const toLogin = () => setMode('login');

  return (
    <>
      <div
        className="sw-entry"
        data-testid="entry-page"
        data-mode={mode}
        data-brand={brand.loaded ? brand.title || 'default' : undefined}
        style={brand.background ? { background: `center / cover no-repeat url("${brand.background}")` } : undefined}
      >
        <header className="sw-entry-topbar">
          <span className="sw-entry-topbar-brand">
            <SunFilledIcon style={{ color: '#faad14' }} /> {brandName}
          </span>
          {forced ? null : <LanguagePicker locales={brand.languages} />}
        </header>

        <main className="sw-entry-main">
          <div className="sw-entry-card">
            <section className="sw-entry-hero" aria-label={brandName}>
              <span className="sw-entry-logo" aria-hidden="true">
                {brand.sysLogo ? <img className="sw-brand-logo" src={brand.sysLogo} alt="" data-testid="brand-logo" /> : <SunFilledIcon />}
              </span>
              <div>
                <h1 data-testid="brand-title">{brandName}</h1>
                <p className="sw-entry-tagline">{t('brand.tagline')}</p>
              </div>
              <ul className="sw-entry-points">
                {(['brand.point1', 'brand.point2', 'brand.point3'] as const).map((k) => (
                  <li key={k}>
                    <CheckCircleFilledIcon />
                    <span>{t(k)}</span>
                  </li>
                ))}
              </ul>
            </section>

            <section className="sw-entry-panel">
              {mode === 'login' ? (
                <>
                  <div className="sw-entry-panel-head">
                    <div>
                      <h2 className="sw-entry-title">{t('login.title')}</h2>
                      <p className="sw-entry-subtitle">{t('login.subtitle')}</p>
                    </div>
                    {brand.qrLogin ? (<span className="sw-tip sw-tip-end" data-tip={t('login.qrSwitch')}>
                      <button
                        type="button"
                        className="sw-btn sw-btn-text sw-btn-icon"
                        aria-label={t('login.qrSwitch')}
                        onClick={() => setMode('qr')}
                        data-testid="switch-qr"
                      >
                        <QrcodeIcon style={{ fontSize: 22 }} />
                      </button>
                    </span>) : null}
                  </div>
                  <SessionEndedNotice />
                  <LoginForm onMode={setMode} {...(loginDeps ? { deps: loginDeps } : {})} />
                  <div className="sw-entry-extras">
                    {brand.demo ? <ExperienceEntry /> : null}
                    <NodePicker />
                    <AppDownload brand={brand} />
                    <ContactButton />
                  </div>
                </>
              ) : (
                <>
                  {mode === 'qr' ? (
                    <div className="sw-entry-panel-head" style={{ justifyContent: 'flex-end', marginBottom: 0 }}>
                      <span className="sw-tip sw-tip-end" data-tip={t('login.passwordSwitch')}>
                        <button
                          type="button"
                          className="sw-btn sw-btn-text sw-btn-icon"
                          aria-label={t('login.passwordSwitch')}
                          onClick={toLogin}
                          data-testid="switch-password"
                        >
                          <UserIcon style={{ fontSize: 20 }} />
                        </button>
                      </span>
                    </div>
                  ) : null}
                  {mode === 'signup' ? <Suspense fallback={null}><SignupFace onBack={toLogin} /></Suspense> : null}
                  {mode === 'retrieve' ? <Suspense fallback={null}><RetrieveFace onBack={toLogin} /></Suspense> : null}
                  {mode === 'qr' ? <QrLogin /> : null}
                  {mode === 'retrieveUser' ? <AccountLookup onBack={toLogin} /> : null}
                </>
              )}
            </section>
          </div>
        </main>

        <BrandFooter brand={brand} version={version} />
        <NoticeDialog />
      </div>
    </>
  );
}

export default EntryPage;
