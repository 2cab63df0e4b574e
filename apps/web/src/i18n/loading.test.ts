import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '@sunwatch/protocol';
import { resources } from './resources';
import i18n, { NAMESPACES, isLanguageLoaded, loadCoreTexts, loadLanguage, loadNamespaces } from './index';
import { CORE_NAMESPACES, LOAD_TEXTS_GLOBAL, namespacesIn, textsPrelude } from './namespaces';

/** Puts every bundle back as src/test/setup.ts left it. */
function restoreAll() {
  for (const [locale, nss] of Object.entries(resources)) {
    for (const [ns, tree] of Object.entries(nss)) i18n.addResourceBundle(locale, ns, tree, true, true);
  }
}

function drop(locale: string) {
  for (const ns of NAMESPACES) i18n.removeResourceBundle(locale, ns);
}

afterEach(async () => {
  restoreAll();
  await i18n.changeLanguage('en_US');
});

describe('texts load on demand, one language and one namespace at a time', () => {
  it('knows every namespace without loading a text (web and protocol errors/rules)', () => {
    expect(NAMESPACES).toEqual(expect.arrayContaining(['common', 'errors', 'rules']));
    expect(NAMESPACES).toEqual(Object.keys(resources.en_US!).sort());
  });

  it('loadLanguage fetches exactly the namespaces of that language', async () => {
    drop('de_DE');
    drop('fr_FR');
    expect(NAMESPACES.filter((ns) => i18n.hasResourceBundle('de_DE', ns))).toEqual([]);
    expect(isLanguageLoaded('de_DE')).toBe(false);
    await loadLanguage('de_DE');
    expect(isLanguageLoaded('de_DE')).toBe(true);
    expect(isLanguageLoaded('fr_FR')).toBe(false);
    for (const ns of NAMESPACES) expect(i18n.getResourceBundle('de_DE', ns), ns).toEqual(resources.de_DE![ns]);
  });

  it("the core texts are the shell's namespaces; the others stay unloaded until a page asks", async () => {
    drop('it_IT');
    await loadCoreTexts('it_IT');
    expect(NAMESPACES.filter((ns) => i18n.hasResourceBundle('it_IT', ns))).toEqual([...CORE_NAMESPACES].sort());
    expect(isLanguageLoaded('it_IT', ['alarms'])).toBe(false);
    await i18n.changeLanguage('it_IT');
    // what a chunk's prelude calls: the current language's namespaces of that chunk
    const load = (globalThis as Record<string, unknown>)[LOAD_TEXTS_GLOBAL] as (ns: readonly string[]) => Promise<void>;
    await load(['alarms', 'reports']);
    expect(i18n.getResourceBundle('it_IT', 'alarms')).toEqual(resources.it_IT!.alarms);
    expect(isLanguageLoaded('it_IT', ['reports'])).toBe(true);
    expect(isLanguageLoaded('it_IT', ['plants'])).toBe(false);
    expect(i18n.t('alarms:title')).toBe((resources.it_IT!.alarms as Record<string, string>).title);
  });

  it('a namespace used before its texts were loaded is reported and fetched (no silent raw key)', async () => {
    drop('nl_NL');
    // as on a first visit: English is not there either (it is fetched only for a missing key)
    i18n.removeResourceBundle('en_US', 'plants');
    await loadCoreTexts('nl_NL');
    await i18n.changeLanguage('nl_NL');
    const errors: unknown[] = [];
    const orig = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const added = new Promise<void>((resolve) =>
        i18n.store.on('added', (lng: string, ns: string) => lng === 'nl_NL' && ns === 'plants' && resolve()),
      );
      expect(i18n.t('plants:page.title')).toBe('page.title');
      await added;
    } finally {
      console.error = orig;
    }
    expect(errors).toEqual([expect.stringContaining('namespace "plants" used before its texts were loaded')]);
    expect(i18n.t('plants:page.title')).toBe(((resources.nl_NL!.plants as Record<string, Record<string, string>>).page)!.title);
  });

  it('loadNamespaces ignores names that are not namespaces', async () => {
    await expect(loadNamespaces(['nonsense'], 'de_DE')).resolves.toBeUndefined();
  });

  it('every language loads from its files', async () => {
    // en_US, de_DE and pl_PL: the other tests (a language loads once per page life)
    for (const locale of LOCALES.filter((l) => !['en_US', 'de_DE', 'pl_PL'].includes(l))) {
      drop(locale);
      await loadLanguage(locale);
      expect(isLanguageLoaded(locale), locale).toBe(true);
      expect(i18n.getResourceBundle(locale, 'errors'), locale).toEqual(resources[locale]!.errors);
    }
  });

  it('concurrent calls share one load', async () => {
    drop('pl_PL');
    const a = loadLanguage('pl_PL');
    const b = loadLanguage('pl_PL');
    await Promise.all([a, b]);
    expect(isLanguageLoaded('pl_PL')).toBe(true);
  });

  it('English is fetched only when the current language lacks a key', async () => {
    drop('en_US');
    await i18n.changeLanguage('de_DE');
    // a key every language has: no fallback needed
    i18n.t('common:appName');
    await new Promise((r) => setTimeout(r, 20));
    expect(isLanguageLoaded('en_US')).toBe(false);
    // a key German lacks: the fallback arrives and the next render finds it
    const added = new Promise<void>((resolve) => i18n.store.on('added', (lng: string) => lng === 'en_US' && resolve()));
    i18n.removeResourceBundle('de_DE', 'common');
    i18n.t('common:appName');
    await added;
    await loadLanguage('en_US');
    expect(isLanguageLoaded('en_US')).toBe(true);
    expect(i18n.t('common:appName')).toBe((resources.en_US!.common as Record<string, string>).appName);
  });
});

describe('which namespaces a module names (the build puts their await at the top of its chunk)', () => {
  const known = ['alarms', 'devices', 'plants', 'reports', 'common', 'errors', 'rules', 'menu'];
  it('finds key literals, template keys, ns options and useTranslation arguments', () => {
    const code = [
      "t('alarms:list.title')",
      't(`devices:type.${x}`)',
      "i18n.t(k, { ns: 'errors' })",
      "useTranslation(['reports', 'menu'])",
      "const u = 'https://x'; const s = 'plants: '; const o = 'other:key'",
    ].join('\n');
    expect(namespacesIn(code, known)).toEqual(['alarms', 'devices', 'errors', 'menu', 'reports']);
  });
  it('a chunk awaits its namespaces other than the core ones, through the loader global', () => {
    expect(textsPrelude(['alarms', 'common', 'devices'])).toBe(`await globalThis.${LOAD_TEXTS_GLOBAL}?.(["alarms","devices"]);\n`);
    expect(textsPrelude(['common', 'errors'])).toBe('');
  });
});
