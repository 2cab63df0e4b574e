import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '@sunwatch/protocol';
import { resources } from './resources';
import i18n, { NAMESPACES, isLanguageLoaded, loadLanguage } from './index';

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

describe('texts load on demand, one language at a time', () => {
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

  it('every language loads from its one pack (packs/<locale>.ts)', async () => {
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
    expect(a).toBe(b);
    await a;
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
