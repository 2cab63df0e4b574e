/**
 * i18next set-up (spec §1 languages): a stored choice (localStorage `sw.lang`) wins,
 * else Chinese for Chinese browsers, else English. Changing the language stores the
 * choice and reloads the page.
 *
 * Texts load on demand (issue 8, first load; convention in namespaces.ts and
 * docs/web/first-load.md): main.tsx awaits the core namespaces of the language (one chunk) before
 * the first render; every other namespace is its own chunk, awaited by the prelude the build puts
 * at the top of each chunk that names it, so a page renders with its texts in place. English, the
 * fallback, is fetched per namespace only when a key is missing in the current language
 * (`missingKeyHandler`); react-i18next re-renders when bundles arrive (`bindI18nStore: 'added'`).
 * Unit tests load everything up front (src/test/setup.ts ← resources.ts).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, normalizeLocale, type Locale } from '@sunwatch/protocol';
import { CORE_NAMESPACES, LOAD_TEXTS_GLOBAL, PROTOCOL_NAMESPACES, parseTextPath, type Tree } from './namespaces';

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
 * One lazy loader per text file (`locales/<locale>/<ns>.json` and the protocol's `errors`/`rules`),
 * listed per language in `manifests/<locale>.ts`. The build makes each file its own chunk
 * (`txt-<locale>-<ns>`), except the core namespaces of a language, which share one with that
 * language's manifest (`lang-<locale>`: vite.config.ts `chunkGroup`). The entry chunk holds only
 * the eleven manifest loaders: a page fetches the file list of its own language, not of all eleven
 * (the lists grew with every namespace and weighed on every first load; docs/web/first-load.md).
 */
type FileMap = Map<string, () => Promise<Tree>>;
const manifests = import.meta.glob<Record<string, () => Promise<Tree>>>('./manifests/*.ts', { import: 'default' });
const manifestOf = new Map<string, () => Promise<Record<string, () => Promise<Tree>>>>();
for (const [path, load] of Object.entries(manifests)) {
  const m = /([A-Za-z]{2}_[A-Za-z]{2})\.ts$/.exec(path);
  if (m) manifestOf.set(m[1]!, load);
}
const fileMaps = new Map<string, Promise<FileMap>>();

/** The text files of one language (its manifest, fetched once; a failed fetch may be retried). */
function filesOf(locale: string): Promise<FileMap> {
  let p = fileMaps.get(locale);
  if (!p) {
    const load = manifestOf.get(locale) ?? (() => Promise.reject(new Error(`no texts for ${locale}`)));
    p = load().then((files) => {
      const out: FileMap = new Map();
      for (const [path, loader] of Object.entries(files)) {
        const t = parseTextPath(path);
        // a manifest lists its own language only (a copied manifest naming another is ignored)
        if (t && t.locale === locale) out.set(t.ns, loader);
      }
      return out;
    });
    p.catch(() => fileMaps.delete(locale));
    fileMaps.set(locale, p);
  }
  return p;
}

export { parseTextPath };

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

const loading = new Map<string, Promise<void>>();

/** Whether the given namespaces (default: all) of `locale` are in i18next already. */
export function isLanguageLoaded(locale: Locale, namespaces: readonly string[] = NAMESPACES): boolean {
  return namespaces.every((ns) => i18n.hasResourceBundle(locale, ns));
}

function loadOne(locale: Locale, ns: string): Promise<void> {
  if (i18n.hasResourceBundle(locale, ns)) return Promise.resolve();
  const id = `${locale}/${ns}`;
  let p = loading.get(id);
  if (!p) {
    p = filesOf(locale)
      .then((files) => (files.get(ns) ?? (() => Promise.reject(new Error(`no texts ${id}`))))())
      .then(
        (tree) => {
          i18n.addResourceBundle(locale, ns, tree, true, true);
          loading.delete(id);
        },
        (err: unknown) => {
          loading.delete(id);
          throw err;
        },
      );
    loading.set(id, p);
  }
  return p;
}

/**
 * Fetches the namespaces of one language that are not in i18next yet, in parallel, and adds them
 * (once; concurrent calls share the requests). A failed fetch rejects and may be retried by the next call.
 */
export function loadNamespaces(namespaces: readonly string[], locale: Locale = currentLocale()): Promise<void> {
  const known = namespaces.filter((ns) => NAMESPACES.includes(ns));
  return Promise.all(known.map((ns) => loadOne(locale, ns))).then(() => undefined);
}

/** What main.tsx awaits before the first render: the core namespaces of `locale`. */
export function loadCoreTexts(locale: Locale): Promise<void> {
  return loadNamespaces(CORE_NAMESPACES, locale);
}

/** Every namespace of one language (the dev server, which has no chunk preludes; tests). */
export function loadLanguage(locale: Locale): Promise<void> {
  return loadNamespaces(NAMESPACES, locale);
}

/**
 * The chunk preludes of the build (`textsPrelude`) await this: the current language's namespaces
 * of the chunk. A failed fetch does not fail the page: its keys show until a reload.
 */
(globalThis as Record<string, unknown>)[LOAD_TEXTS_GLOBAL] = (namespaces: readonly string[]) =>
  loadNamespaces(namespaces).catch((err: unknown) => console.warn('[i18n] could not load the texts', namespaces, err));

/**
 * A key i18next did not find. A namespace the current language has not loaded means a module used
 * it without its chunk awaiting it (a key built where the build cannot see its namespace): an error
 * (browser tests fail on it), then the texts are fetched and the page re-renders. Otherwise the
 * language lacks the key: the English fallback of that namespace is fetched once.
 */
function onMissingKey(lngs: readonly string[], ns: string): void {
  const lng = currentLocale();
  if (!NAMESPACES.includes(ns)) return;
  if (!i18n.hasResourceBundle(lng, ns)) {
    console.error(`[i18n] namespace "${ns}" used before its texts were loaded`);
    loadOne(lng, ns).catch(() => undefined);
  }
  if (lngs.includes(DEFAULT_LOCALE) && !i18n.hasResourceBundle(DEFAULT_LOCALE, ns)) {
    loadOne(DEFAULT_LOCALE, ns).catch(() => {
      /* offline: the key itself stays on screen; the next missing key retries */
    });
  }
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
  missingKeyHandler: (lngs, ns) => onMissingKey(lngs, ns),
  react: { bindI18nStore: 'added' },
});

export default i18n;
