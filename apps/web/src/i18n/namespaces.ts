/**
 * What the text loader (index.ts), the eager test resources (resources.ts) and the build
 * (vite.config.ts `textsOnDemand`) share. No globs and no imports here: vite.config.ts imports it.
 *
 * The convention (docs/web/first-load.md): a namespace is a file `locales/<locale>/<ns>.json`; each
 * file is its own chunk (`txt-<locale>-<ns>`), except the CORE namespaces, one chunk per language
 * (`lang-<locale>`) loaded before the first render. A module that names a key of another namespace
 * (a key literal prefixed with the namespace and a colon, an `ns` option, a `useTranslation` argument) makes
 * the build put `await` of that namespace at the top of the module's chunk, so a page's chunks
 * evaluate (and React.lazy resolves) only once its texts are in i18next. Nothing to declare.
 */
export type Tree = { [key: string]: string | Tree };

/** The protocol package's namespaces the web app uses (`packages/protocol/src/i18n/<locale>/*.json`). */
export const PROTOCOL_NAMESPACES = ['errors', 'rules'] as const;

/**
 * Loaded with the language before the first render (main.tsx): what the entry chunk, the entry
 * page, the area shell (menus, header, session dialogs) and the status pages use, and the
 * protocol's error and rule texts every form and request may show. The build fails when a
 * module of the entry chunk (or of a chunk it imports) names any other namespace.
 */
export const CORE_NAMESPACES: readonly string[] = Object.freeze(['common', 'entry', 'errors', 'menu', 'pages', 'rules', 'session']);

/** The global through which a chunk's prelude awaits its namespaces (set by index.ts). */
export const LOAD_TEXTS_GLOBAL = '__swLoadTexts';

export function parseTextPath(path: string): { locale: string; ns: string } | undefined {
  const m = /[\\/]([A-Za-z]{2}_[A-Za-z]{2})[\\/]([^\\/]+)\.json$/.exec(path);
  return m ? { locale: m[1]!, ns: m[2]! } : undefined;
}

const KEY = /(['"`])([A-Za-z][\w-]*):(?=[\w$.{])/g;
const NS_OPTION = /\bns\s*:\s*(\[[^\]]*\]|['"`][\w-]+['"`])/g;
const USE_TRANSLATION = /\b(?:useTranslation|getFixedT|withTranslation)\s*\(\s*(?:null\s*,\s*)?(\[[^\]]*\]|['"`][\w-]+['"`])/g;
const QUOTED = /['"`]([\w-]+)['"`]/g;

/**
 * The namespaces a module's source names, among `known`: key prefixes in string and template
 * literals, `ns:` options, and `useTranslation`/`getFixedT` arguments. Sorted, without repeats.
 */
export function namespacesIn(code: string, known: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (ns: string) => {
    if (known.includes(ns)) found.add(ns);
  };
  for (const m of code.matchAll(KEY)) add(m[2]!);
  for (const re of [NS_OPTION, USE_TRANSLATION]) {
    for (const m of code.matchAll(re)) for (const q of m[1]!.matchAll(QUOTED)) add(q[1]!);
  }
  return [...found].sort();
}

/** The statement the build puts at the top of a chunk whose modules name `namespaces` (none: ''). */
export function textsPrelude(namespaces: readonly string[]): string {
  const lazy = namespaces.filter((ns) => !CORE_NAMESPACES.includes(ns));
  return lazy.length ? `await globalThis.${LOAD_TEXTS_GLOBAL}?.(${JSON.stringify(lazy)});\n` : '';
}
