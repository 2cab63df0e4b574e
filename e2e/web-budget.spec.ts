/**
 * First-load byte budget (issue 8): every route of BUDGET_ROUTES, opened as a first visit
 * (cache disabled) by an account that may open it, stays within its budget of JavaScript as
 * transferred (or, for a route not within budget yet, within its documented ceiling: a ratchet); the app's scripts and styles come compressed; a route shows its own page (no
 * redirect to /entry or /401 that would measure another page). Sizes, never times. The same
 * measuring code prints the table in `npm run bench:web-budget` (bench/web-budget/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUDGET_KB,
  BUDGET_ROUTES,
  KB,
  Sessions,
  enforcedKB,
  kb,
  measureRoute,
  recordTransfers,
  uncompressedAssets,
} from '../bench/web-budget/measure.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO, areaMenu, login } from './entry-page.ts';
import { REPO_ROOT, useHarness } from './harness.ts';

const h = useHarness();
let sessions: Sessions | undefined;
const session = () => (sessions ??= new Sessions(h()));
afterAll(async () => {
  await sessions?.close();
});

describe('first-load byte budget', () => {
  it("the budgets are the issue's: entry ≤ 200 KB, every landing page ≤ 450 KB of JS", () => {
    expect(BUDGET_ROUTES.filter((r) => r.kind === 'entry').map((r) => [r.path, r.budgetKB])).toEqual([['/entry', 200]]);
    const landings = BUDGET_ROUTES.filter((r) => r.kind === 'landing');
    expect(landings.length).toBeGreaterThanOrEqual(6);
    for (const r of landings) expect(r.budgetKB, r.path).toBeLessThanOrEqual(BUDGET_KB.page);
  });

  for (const route of BUDGET_ROUTES) {
    const limit = enforcedKB(route);
    const label = route.ceilingKB ? `ceiling ${limit} KB (budget ${route.budgetKB} KB not met yet)` : `${limit} KB`;
    it(`${route.path} (${route.account ?? 'signed out'}) ≤ ${label} JS`, async () => {
      const m = await measureRoute(session(), route);
      expect(m.finalPath, 'the route opened its own page').toBe(route.path);
      const files = m.transfers.filter((t) => t.type === 'js').length;
      expect(files, 'scripts were loaded (and counted)').toBeGreaterThan(0);
      expect(
        uncompressedAssets(m).map((t) => new URL(t.url).pathname),
        'scripts and styles sent compressed',
      ).toEqual([]);
      const biggest = [...m.transfers]
        .filter((t) => t.type === 'js')
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8)
        .map((t) => `${kb(t.bytes)} KB ${new URL(t.url).pathname}`)
        .join('\n  ');
      expect(m.js, `JS ${kb(m.js)} KB > ${label}; biggest:\n  ${biggest}`).toBeLessThanOrEqual(limit * KB);
    });
  }
});

const LOCALES_DIR = path.join(REPO_ROOT, 'apps/web/src/i18n/locales');
const text = (locale: string, ns: string, key: string): string => {
  const tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, `${ns}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  const flat = tree[key];
  if (typeof flat === 'string') return flat;
  const nested = key.split('.').reduce<unknown>((t, k) => (t as Record<string, unknown> | undefined)?.[k], tree);
  if (typeof nested !== 'string') throw new Error(`${locale}/${ns}.json has no ${key}`);
  return nested;
};
const langChunks = (urls: string[]) =>
  [
    ...new Set(urls.map((u) => /\/assets\/lang-([a-z]{2}_[A-Z]{2})-/.exec(u)?.[1]).filter((l): l is string => !!l)),
  ].sort();

describe('texts of one language, loaded on demand', () => {
  for (const locale of ['de_DE', 'zh_CN', 'en_US']) {
    it(`${locale}: the entry page and a landing page fetch only ${locale} texts, and show them`, async () => {
      const context = await h().newContext(locale.replace('_', '-'));
      // the stored language choice of spec §1 (the header and entry pickers write it)
      await context.addInitScript((l) => {
        // about:blank has no storage; the app's origin has
        if (location.protocol.startsWith('http')) localStorage.setItem('sw.lang', l);
      }, locale);
      const page = await context.newPage();
      const entry = recordTransfers(page);
      await page.goto('/entry');
      await page
        .getByText(text(locale, 'entry', 'login.title'))
        .first()
        .waitFor({ state: 'visible' });
      const entryUrls = (await entry.stop()).map((t) => t.url);
      expect(langChunks(entryUrls)).toEqual([locale]);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.replace('_', '-'));

      const landing = recordTransfers(page);
      await login(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd, { goto: false });
      await areaMenu(page).waitFor({ state: 'visible' });
      await areaMenu(page)
        .getByText(text(locale, 'menu', 'items.alarm'))
        .first()
        .waitFor({ state: 'visible' });
      const landingUrls = (await landing.stop()).map((t) => t.url);
      // already there: nothing of another language arrives with the area
      expect(langChunks(landingUrls)).toEqual([]);
      await context.close();
    });
  }
});
