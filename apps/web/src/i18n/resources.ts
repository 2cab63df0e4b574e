/**
 * Every translation of every language, loaded EAGERLY — for unit tests only (src/test/setup.ts,
 * locales.test.ts); the app loads one language on demand (index.ts `loadLanguage`). Covers the web's own namespaces
 * (`locales/<locale>/<ns>.json`) plus the protocol package's `errors` and `rules`
 * (`packages/protocol/src/i18n/<locale>/*.json`). Globs, so that a file not yet written
 * does not break the build.
 */
import { PROTOCOL_NAMESPACES, type Tree } from './namespaces';

const web = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });
const protocol = import.meta.glob<Tree>('../../../../packages/protocol/src/i18n/*/*.json', {
  eager: true,
  import: 'default',
});

function parse(path: string): { locale: string; ns: string } | undefined {
  const m = /\/([A-Za-z]{2}_[A-Za-z]{2})\/([^/]+)\.json$/.exec(path);
  return m ? { locale: m[1]!, ns: m[2]! } : undefined;
}

export type Resources = Record<string, Record<string, Tree>>;

function collect(): Resources {
  const out: Resources = {};
  const add = (path: string, tree: Tree) => {
    const p = parse(path);
    if (!p) return;
    (out[p.locale] ??= {})[p.ns] = tree;
  };
  for (const [path, tree] of Object.entries(web)) add(path, tree);
  for (const [path, tree] of Object.entries(protocol)) {
    const p = parse(path);
    if (p && (PROTOCOL_NAMESPACES as readonly string[]).includes(p.ns)) add(path, tree);
  }
  return out;
}

export const resources: Resources = collect();

/** Where each namespace came from, for the completeness test. */
export const sources = { web, protocol };
export { PROTOCOL_NAMESPACES, type Tree };
