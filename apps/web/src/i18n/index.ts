/**
 * i18next set-up (spec §1 languages): a stored choice (localStorage `sw.lang`) wins,
 * else Chinese for Chinese browsers, else English. Changing the language stores the
 * choice and reloads the page.
 *
 * Texts load on demand (issue 8, first load): `loadLanguage(locale)` fetches the one chunk
 * holding every namespace of that language (`lang-<locale>`: `packs/<locale>.ts`, see vite.config.ts) and main.tsx
 * awaits it before the first render. English, the fallback, is fetched only when a key is
 * missing in the current language (`missingKeyHandler`); react-i18next re-renders when its
 * bundles arrive (`bindI18nStore: 'added'`). Unit tests load everything up front
 * (src/test/setup.ts → `addAllResources`).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, normalizeLocale, type Locale } from '@sunwatch/protocol';
import { PROTOCOL_NAMESPACES, type Pack, type Tree } from './namespaces';

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

/**
 * One lazy loader per language (`packs/<locale>.ts`: every namespace of that language, the web's
 * and the protocol's `errors` and `rules`, in one chunk). One entry per language, not per text
 * file: the map sits in the entry chunk that every page loads. Nothing is fetched until
 * `loadLanguage`.
 */
const packs = import.meta.glob<Pack>('./packs/*_*.ts', { import: 'default' });

export function parseTextPath(path: string): { locale: string; ns: string } | undefined {
  const m = /\/([A-Za-z]{2}_[A-Za-z]{2})\/([^/]+)\.json$/.exec(path);
  return m ? { locale: m[1]!, ns: m[2]! } : undefined;
}

/**
 * Every namespace (known at build time, without loading any text): the web's, by the names of
 * the English files (the completeness test holds every language to them), and the protocol's.
 */
export const NAMESPACES: readonly string[] = Object.freeze(
  Array.from(
    new Set([
      ...Object.keys(import.meta.glob('./locales/en_US/*.json')).flatMap((p) => parseTextPath(p)?.ns ?? []),
      ...PROTOCOL_NAMESPACES,
    ]),
  ).sort(),
);

const loading = new Map<Locale, Promise<void>>();

/** Whether all texts of `locale` are in i18next already. */
export function isLanguageLoaded(locale: Locale): boolean {
  return NAMESPACES.every((ns) => i18n.hasResourceBundle(locale, ns));
}

/**
 * Fetches every namespace of one language and adds it to i18next (once; concurrent calls share
 * the request). A failed fetch rejects and may be retried by the next call.
 */
export function loadLanguage(locale: Locale): Promise<void> {
  if (isLanguageLoaded(locale)) return Promise.resolve();
  let p = loading.get(locale);
  if (!p) {
    const load = packs[`./packs/${locale}.ts`] ?? (() => Promise.reject(new Error(`no texts for ${locale}`)));
    p = load().then(
      (pack) => {
        for (const [path, tree] of Object.entries(pack)) {
          const ns = parseTextPath(path)?.ns;
          if (ns && NAMESPACES.includes(ns)) i18n.addResourceBundle(locale, ns, tree as Tree, true, true);
        }
      },
      (err: unknown) => {
        loading.delete(locale);
        throw err;
      },
    );
    loading.set(locale, p);
  }
  return p;
}

/** A key the current language lacks: fetch the English fallback once (it re-renders on arrival). */
function loadFallbackFor(lngs: readonly string[]): void {
  if (!lngs.includes(DEFAULT_LOCALE) || isLanguageLoaded(DEFAULT_LOCALE) || loading.has(DEFAULT_LOCALE)) return;
  loadLanguage(DEFAULT_LOCALE).catch(() => {
    /* offline: the key itself stays on screen; the next missing key retries */
  });
}

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: detectLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // a copy: i18next edits its `ns` list in place (removeResourceBundle)
  ns: [...NAMESPACES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  saveMissing: true,
  missingKeyHandler: (lngs) => loadFallbackFor(lngs),
  react: { bindI18nStore: 'added' },
});

export default i18n;
