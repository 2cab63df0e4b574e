import { describe, expect, it } from 'vitest';
import { LOCALES } from '@sunwatch/protocol';
import { CONCEPTS, GLOSSARY, TITLE_CONCEPTS, type Glossary } from './glossary';

type Tree = { [key: string]: string | Tree };

/** The web's own locale files (menus, page titles, headers, page texts), read from disk. */
const FILES = {
  ...import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' }),
  // the protocol's error and rule messages are shown in the same screens
  ...import.meta.glob<Tree>('../../../../packages/protocol/src/i18n/*/*.json', { eager: true, import: 'default' }),
};

function flatten(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flatten(v, `${prefix}${k}.`),
  );
}

/** `namespace:key` → text, for one locale. */
function textsOf(locale: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, tree] of Object.entries(FILES)) {
    const m = /\/(?:locales|i18n)\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (m?.[1] !== locale) continue;
    for (const [k, v] of flatten(tree)) out.set(`${m[2]}:${k}`, v);
  }
  return out;
}

/** What is wrong with a locale's texts against its glossary (empty when fine). */
export function glossaryProblems(texts: ReadonlyMap<string, string>, glossary: Glossary): string[] {
  const problems: string[] = [];
  for (const [key, concepts] of Object.entries(TITLE_CONCEPTS)) {
    const text = texts.get(key);
    if (text === undefined) {
      problems.push(`${key}: missing`);
      continue;
    }
    for (const c of concepts) {
      const entry = glossary[c];
      if (!entry.stems.some((s) => text.toLowerCase().includes(s))) {
        problems.push(`${key} "${text}" does not use the ${c} term "${entry.term}"`);
      }
    }
  }
  for (const [key, text] of texts) {
    for (const c of CONCEPTS) {
      for (const bad of glossary[c].avoid) {
        if (text.toLowerCase().includes(bad)) {
          problems.push(`${key} "${text}" uses "${bad}" instead of the ${c} term "${glossary[c].term}"`);
        }
      }
    }
  }
  return problems;
}

/** Pages whose menu entry and page title must read the same (`menu key`, `title key`). */
const MENU_AND_TITLE: ReadonlyArray<readonly [string, string]> = [
  ['menu:items.project', 'projects:title'],
  ['menu:items.myDevices', 'overview:myDevices'],
  ['menu:items.device', 'devices:list.title'],
  ['menu:items.overview', 'overview:title'],
];

describe('glossary', () => {
  it('has every concept for every language, with stems that its term contains', () => {
    for (const l of LOCALES) {
      const glossary = GLOSSARY[l];
      expect(Object.keys(glossary).sort(), l).toEqual([...CONCEPTS].sort());
      for (const c of CONCEPTS) {
        const { term, stems, avoid } = glossary[c];
        expect(stems.length, `${l} ${c}`).toBeGreaterThan(0);
        expect(stems.some((s) => term.toLowerCase().includes(s)), `${l} ${c}: "${term}" vs ${stems.join(', ')}`).toBe(true);
        // a rejected synonym must not be the term itself
        expect(avoid.some((a) => term.toLowerCase().includes(a)), `${l} ${c}`).toBe(false);
      }
    }
  });

  it.each([...LOCALES])('%s: menus, page titles and headers use one term per concept', (locale) => {
    const texts = textsOf(locale);
    expect(texts.size).toBeGreaterThan(50);
    expect(glossaryProblems(texts, GLOSSARY[locale])).toEqual([]);
  });

  it.each([...LOCALES])('%s: a page is titled like its menu entry', (locale) => {
    const texts = textsOf(locale);
    for (const [menu, title] of MENU_AND_TITLE) {
      expect(texts.get(title), `${locale} ${title}`).toBe(texts.get(menu));
    }
  });

  it('catches the German "Projekte" page title and a menu label without the term', () => {
    const texts = new Map(textsOf('de_DE'));
    texts.set('projects:title', 'Projekte');
    texts.set('menu:items.device', 'Apparate');
    const problems = glossaryProblems(texts, GLOSSARY.de_DE);
    expect(problems).toContain('projects:title "Projekte" does not use the plant term "Anlage"');
    expect(problems).toContain('projects:title "Projekte" uses "projekt" instead of the plant term "Anlage"');
    expect(problems).toContain('menu:items.device "Apparate" does not use the device term "Gerät"');
  });

  it('catches a Chinese "项目" for the plant', () => {
    const texts = new Map(textsOf('zh_CN'));
    texts.set('menu:items.project', '项目');
    expect(glossaryProblems(texts, GLOSSARY.zh_CN)).toEqual([
      'menu:items.project "项目" does not use the plant term "电站"',
      'menu:items.project "项目" uses "项目" instead of the plant term "电站"',
    ]);
  });
});
