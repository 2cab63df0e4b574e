/**
 * i18next set-up (spec §1 languages): a stored choice (localStorage `sw.lang`) wins,
 * else Chinese for Chinese browsers, else English. Changing the language stores the
 * choice and reloads the page.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, normalizeLocale, type Locale } from '@sunwatch/protocol';
import { resources } from './resources';

export const LANG_STORAGE_KEY = 'sw.lang';

function storedLocale(): Locale | undefined {
  try {
    const v = localStorage.getItem(LANG_STORAGE_KEY);
    return v && (LOCALES as readonly string[]).includes(v) ? (v as Locale) : normalizeLocale(v);
  } catch {
    return undefined;
  }
}

/** The language to start with (spec §1). */
export function detectLocale(browserLanguage?: string): Locale {
  const stored = storedLocale();
  if (stored) return stored;
  const nav = browserLanguage ?? (typeof navigator === 'undefined' ? '' : navigator.language);
  return nav.toLowerCase().startsWith('zh') ? 'zh_CN' : DEFAULT_LOCALE;
}

/** Stores the choice and reloads, so that every cached text and antd locale follows. */
export function setLanguage(locale: Locale, reload: () => void = () => window.location.reload()): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  reload();
}

export function currentLocale(): Locale {
  const l = i18n.language;
  return (LOCALES as readonly string[]).includes(l) ? (l as Locale) : detectLocale();
}

export const NAMESPACES = Array.from(new Set(Object.values(resources).flatMap((r) => Object.keys(r))));

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export default i18n;
