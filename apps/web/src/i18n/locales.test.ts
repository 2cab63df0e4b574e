import { describe, expect, it } from 'vitest';
import { LOCALES } from '@sunwatch/protocol';
import { PROTOCOL_NAMESPACES, sources, type Tree } from './resources';

/** Every leaf key of a namespace (nested objects and flat dotted keys alike). */
function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : leaves(v, `${prefix}${k}.`)));
}

/** i18next's plural suffixes (`total_one`, `total_few`, … `total_other`). */
const PLURAL = /^(.+)_(zero|one|two|few|many|other)$/;

/**
 * The keys a namespace offers: the plural forms of a key count as the one key i18next is asked
 * for (`total` for `total_one` … `total_other`), since languages have different sets of forms.
 */
function keys(tree: Tree): string[] {
  const all = leaves(tree);
  const set = new Set(all);
  return [
    ...new Set(
      all.map((k) => {
        const m = PLURAL.exec(k);
        return m && set.has(`${m[1]}_other`) ? m[1]! : k;
      }),
    ),
  ];
}

/** key → its plural categories, for the keys that have plural forms. */
function pluralGroups(tree: Tree): Map<string, string[]> {
  const all = leaves(tree);
  const out = new Map<string, string[]>();
  for (const k of all) {
    const m = PLURAL.exec(k);
    if (!m || !all.includes(`${m[1]}_other`)) continue;
    out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!]);
  }
  return out;
}

function byLocale(files: Record<string, Tree>, only?: readonly string[]) {
  const out = new Map<string, Map<string, Tree>>();
  for (const [path, tree] of Object.entries(files)) {
    const m = /\/([A-Za-z]{2}_[A-Za-z]{2})\/([^/]+)\.json$/.exec(path);
    if (!m || (only && !only.includes(m[2]!))) continue;
    if (!out.has(m[1]!)) out.set(m[1]!, new Map());
    out.get(m[1]!)!.set(m[2]!, tree);
  }
  return out;
}

const groups = [
  { origin: 'web (common, menu, pages, entry, …)', files: byLocale(sources.web) },
  { origin: 'protocol (errors, rules)', files: byLocale(sources.protocol, PROTOCOL_NAMESPACES) },
];

describe.each(groups)('locale files of $origin', ({ files }) => {
  const en = files.get('en_US');
  it('have an en_US reference', () => {
    expect(en?.size ?? 0).toBeGreaterThan(0);
  });
  const namespaces = [...(en?.keys() ?? [])];
  const others = LOCALES.filter((l) => l !== 'en_US');
  describe.each(namespaces)('namespace %s', (ns) => {
    const reference = keys(en!.get(ns)!).sort();
    it.each(others)('%s has exactly the keys of en_US', (locale) => {
      const tree = files.get(locale)?.get(ns);
      expect(tree, `${locale}/${ns}.json is missing`).toBeDefined();
      const actual = keys(tree!).sort();
      expect({ missing: reference.filter((k) => !actual.includes(k)), extra: actual.filter((k) => !reference.includes(k)) }).toEqual({
        missing: [],
        extra: [],
      });
    });
    it.each(LOCALES)('%s has every plural form its language needs (and no other)', (locale) => {
      const tree = files.get(locale)?.get(ns);
      if (!tree) return; // reported above
      const needed = new Intl.PluralRules(locale.replace('_', '-')).resolvedOptions().pluralCategories.slice().sort();
      for (const [k, forms] of pluralGroups(tree)) expect(forms.slice().sort(), `${locale}/${ns}: ${k}`).toEqual(needed);
    });
    it.each(LOCALES)('%s has no empty text and keeps the {{placeholders}} of en_US', (locale) => {
      const tree = files.get(locale)?.get(ns);
      if (!tree) return; // reported above
      const flat = (t: Tree, p = ''): Array<[string, string]> =>
        Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [[p + k, v] as [string, string]] : flat(v, `${p}${k}.`)));
      const enFlat = new Map(flat(en!.get(ns)!));
      for (const [k, v] of flat(tree)) {
        expect(v.trim(), `${locale}/${ns}: ${k}`).not.toBe('');
        const ph = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((x) => x.replace(/\s/g, '')).sort();
        if (enFlat.has(k)) expect(ph(v), `${locale}/${ns}: ${k}`).toEqual(ph(enFlat.get(k)!));
      }
    });
  });
  it('no locale has a namespace that en_US lacks', () => {
    for (const [locale, nss] of files) {
      for (const ns of nss.keys()) expect(en?.has(ns), `${locale}/${ns}.json`).toBe(true);
    }
  });
});
