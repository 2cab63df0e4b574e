/**
 * The entry page (/entry, spec §2): one screen, five modes and no route change. Login is
 * complete; signup, password retrieval, account retrieval and QR sign-in are announced as not
 * available yet. Experience code, server node and app download are shown disabled.
 */
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Button, ConfigProvider, Tooltip, Typography } from 'antd';
import {
  CheckCircleFilled,
  CloudServerOutlined,
  ExperimentOutlined,
  MobileOutlined,
  QrcodeOutlined,
  SunFilled,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { version } from '../../../package.json';
import { LanguagePicker } from './LanguagePicker';
import { LoginForm } from './LoginForm';
import type { LoginFormProps } from './LoginForm';
import { ModePlaceholder } from './ModePlaceholder';
import type { EntryMode } from './modes';
import './entry.css';

/** Spec §9 "Primary colour green": the entry page keeps the brand colour whatever the skin. */
const BRAND_THEME = { token: { colorPrimary: '#389e0d', colorLink: '#389e0d' } };

export interface EntryPageProps {
  /** Start mode (tests); login by default. */
  initialMode?: EntryMode;
  /** Injected login dependencies (tests). */
  loginDeps?: LoginFormProps['deps'];
}

function NotAvailable({ icon, label }: { icon: ReactNode; label: string }) {
  const { t } = useTranslation('entry');
  return (
    <Tooltip title={t('common.notAvailable')}>
      <Button type="text" size="small" icon={icon} disabled aria-label={`${label} (${t('common.notAvailable')})`}>
        {label}
      </Button>
    </Tooltip>
  );
}

export function EntryPage({ initialMode = 'login', loginDeps }: EntryPageProps = {}) {
  const { t } = useTranslation('entry');
  const [mode, setMode] = useState<EntryMode>(initialMode);

  useEffect(() => {
    document.title = `${t('login.title')} · Sunwatch`;
  }, [t]);

  const toLogin = () => setMode('login');

  return (
    <ConfigProvider theme={BRAND_THEME}>
      <div className="sw-entry" data-testid="entry-page" data-mode={mode}>
        <header className="sw-entry-topbar">
          <span className="sw-entry-topbar-brand">
            <SunFilled style={{ color: '#faad14' }} /> Sunwatch
          </span>
          <LanguagePicker />
        </header>

        <main className="sw-entry-main">
          <div className="sw-entry-card">
            <section className="sw-entry-hero" aria-label="Sunwatch">
              <span className="sw-entry-logo" aria-hidden="true">
                <SunFilled />
              </span>
              <div>
                <h1>Sunwatch</h1>
                <p className="sw-entry-tagline">{t('brand.tagline')}</p>
              </div>
              <ul className="sw-entry-points">
                {(['brand.point1', 'brand.point2', 'brand.point3'] as const).map((k) => (
                  <li key={k}>
                    <CheckCircleFilled />
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
                      <Typography.Title level={3} style={{ margin: 0 }}>
                        {t('login.title')}
                      </Typography.Title>
                      <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
                    </div>
                    <Tooltip title={t('login.qrSwitch')}>
                      <Button
                        type="text"
                        icon={<QrcodeOutlined style={{ fontSize: 22 }} />}
                        aria-label={t('login.qrSwitch')}
                        onClick={() => setMode('qr')}
                        data-testid="switch-qr"
                      />
                    </Tooltip>
                  </div>
                  <LoginForm onMode={setMode} {...(loginDeps ? { deps: loginDeps } : {})} />
                  <div className="sw-entry-extras">
                    <NotAvailable icon={<ExperimentOutlined />} label={t('extras.experience')} />
                    <NotAvailable icon={<CloudServerOutlined />} label={t('extras.serverNode')} />
                    <NotAvailable icon={<MobileOutlined />} label={t('extras.appDownload')} />
                  </div>
                </>
              ) : (
                <>
                  {mode === 'qr' ? (
                    <div className="sw-entry-panel-head" style={{ justifyContent: 'flex-end', marginBottom: 0 }}>
                      <Tooltip title={t('login.passwordSwitch')}>
                        <Button
                          type="text"
                          icon={<UserOutlined style={{ fontSize: 20 }} />}
                          aria-label={t('login.passwordSwitch')}
                          onClick={toLogin}
                          data-testid="switch-password"
                        />
                      </Tooltip>
                    </div>
                  ) : null}
                  <ModePlaceholder mode={mode} onBack={toLogin} />
                </>
              )}
            </section>
          </div>
        </main>

        <footer className="sw-entry-footer" data-testid="entry-version">
          © Sunwatch · {t('footer.version', { version })}
        </footer>
      </div>
    </ConfigProvider>
  );
}

export default EntryPage;
