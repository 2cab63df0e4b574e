import { describe, expect, it } from 'vitest';
import { LOCALES } from '@sunwatch/protocol';

const files = import.meta.glob<Record<string, string>>('../../i18n/locales/*/entry.json', {
  eager: true,
  import: 'default',
});

function load(locale: string): Record<string, string> {
  const hit = Object.entries(files).find(([p]) => p.includes(`/${locale}/entry.json`));
  if (!hit) throw new Error(`missing entry.json for ${locale}`);
  return hit[1];
}

describe('entry.json', () => {
  const en = load('en_US');
  const keys = Object.keys(en).sort();

  it.each([...LOCALES])('%s has every key, non-empty, with the same placeholders', (locale) => {
    const tr = load(locale);
    expect(Object.keys(tr).sort()).toEqual(keys);
    for (const k of keys) {
      expect(typeof tr[k], `${locale} ${k}`).toBe('string');
      expect(tr[k]!.trim(), `${locale} ${k}`).not.toBe('');
      const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect(vars(tr[k]!), `${locale} ${k}`).toEqual(vars(en[k]!));
    }
  });

  it('translates the visible texts (not copies of English) outside a few shared words', () => {
    const shared = new Set(['login.usr', 'login.pwd', 'login.pwdPlaceholder', 'footer.version']);
    for (const locale of LOCALES.filter((l) => l !== 'en_US')) {
      const tr = load(locale);
      const copies = keys.filter((k) => !shared.has(k) && tr[k] === en[k]);
      expect(copies.length, `${locale}: ${copies.join(', ')}`).toBeLessThanOrEqual(2);
    }
  });
});
