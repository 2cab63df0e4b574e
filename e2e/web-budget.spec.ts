/**
 * First-load byte budget (issue 8): every route of BUDGET_ROUTES (each page once: a route marked
 * `sameAs` is the same page in another area, measured by the bench only), opened as a first visit
 * (cache disabled) by an account that may open it, stays within its budget of JavaScript as
 * transferred (or, for a route not within budget yet, within its documented ceiling: a ratchet); the app's scripts and styles come compressed; a route shows its own page (no
 * redirect to /entry or /401 that would measure another page). Sizes, never times. The same
 * measuring code prints the table in `npm run bench:web-budget` (bench/web-budget/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DEMO, areaMenu, login } from './entry-page.ts';
import { REPO_ROOT, settle, useHarness } from './harness.ts';

/** Namespaces of the entry page's own faces (lazy chunks, fetched by the entry page only). */
const ENTRY_NAMESPACES: readonly string[] = ['branding', 'entryExtras', 'selfservice'];

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

  it('a route left to the bench (another area of a page measured here) has the budget and limit of that page', () => {
    for (const r of BUDGET_ROUTES.filter((x) => x.sameAs)) {
      const measured = BUDGET_ROUTES.find((x) => x.path === r.sameAs && !x.sameAs);
      expect(measured, `${r.path} → ${r.sameAs}`).toBeDefined();
      expect([r.budgetKB, enforcedKB(r)], r.path).toEqual([measured!.budgetKB, enforcedKB(measured!)]);
    }
  });

  // each page once (the bench, `npm run bench:web-budget`, measures every route); one at a time:
  // pages of one session opened side by side kept their spinners for 20 s (tried in session 25)
  for (const route of BUDGET_ROUTES.filter((r) => !r.sameAs)) {
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
/** The languages of the text chunks among `urls`: `lang-<locale>` (core) and `txt-<locale>-<ns>` (one namespace). */
const langChunks = (urls: string[], kind: 'lang' | 'txt' | 'any' = 'lang') =>
  [
    ...new Set(
      urls
        .map((u) => /\/assets\/(lang|txt)-([a-z]{2}_[A-Z]{2})-/.exec(u))
        .filter((m) => !!m && (kind === 'any' || m[1] === kind))
        .map((m) => m![2]!),
    ),
  ].sort();
/** The namespaces of the `txt-` chunks among `urls`. */
const txtNamespaces = (urls: string[]) =>
  [
    ...new Set(
      urls.map((u) => /\/assets\/txt-[a-z]{2}_[A-Z]{2}-([A-Za-z]+)-/.exec(u)?.[1]).filter((n): n is string => !!n),
    ),
  ].sort();
const NAMESPACE_FILES = readdirSync(path.join(LOCALES_DIR, 'en_US')).map((f) => f.replace(/\.json$/, ''));
/** Texts on screen that look like an i18n key of one of the app's namespaces (`alarms:list.title`). */
async function rawKeys(page: Page): Promise<string[]> {
  const body = await page.locator('body').innerText();
  const re = new RegExp(`\\b(?:${NAMESPACE_FILES.join('|')}|errors|rules):[A-Za-z][\\w.]*`, 'g');
  return body.match(re) ?? [];
}

describe('texts of one language and of the page, loaded on demand', () => {
  for (const locale of ['de_DE', 'zh_CN', 'en_US']) {
    it(`${locale}: the entry page, a landing page${locale === 'en_US' ? '' : ', the alarm and datalogger pages'} fetch only ${locale} texts, and show them (no raw key)`, async () => {
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
      // the entry page needs core texts and its own extras (branding, the lookup/QR/experience
      // faces): no namespace of a feature page behind sign-in
      expect(txtNamespaces(entryUrls).filter((ns) => !ENTRY_NAMESPACES.includes(ns))).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.replace('_', '-'));

      const landing = recordTransfers(page);
      const signedIn = recordTransfers(page); // everything after signing in, landing page included
      await login(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd, { goto: false });
      await areaMenu(page).waitFor({ state: 'visible' });
      await areaMenu(page)
        .getByText(text(locale, 'menu', 'items.alarm'))
        .first()
        .waitFor({ state: 'visible' });
      const landingUrls = (await landing.stop()).map((t) => t.url);
      // the core texts are there already: only the landing page's own namespaces arrive, in this language
      expect(langChunks(landingUrls)).toEqual([]);
      expect(langChunks(landingUrls, 'txt')).toEqual([locale]);
      expect(await rawKeys(page)).toEqual([]);

      if (locale !== 'en_US') {
        // two pages of other features, each with its namespace loaded with it: its texts show, never a raw key
        await areaMenu(page)
          .getByText(text(locale, 'menu', 'items.alarm'))
          .first()
          .click();
        // within the page (the menu entry can read the same: "Alarme", "告警")
        await page
          .getByTestId('alarms-page')
          .getByText(text(locale, 'alarms', 'title'), { exact: true })
          .first()
          .waitFor({ state: 'visible' });
        await settle(page);
        expect(await rawKeys(page)).toEqual([]);

        await page.goto('/adminNew/setting/datalogger');
        await page
          .getByTestId('dataloggers-page')
          .getByText(text(locale, 'dataloggers', 'title'))
          .first()
          .waitFor({ state: 'visible' });
        await settle(page);
        expect(await rawKeys(page)).toEqual([]);
      }
      const signedInUrls = (await signedIn.stop()).map((t) => t.url);
      // (the alarm texts may come with the landing page already: its overview counts alarms)
      if (locale !== 'en_US')
        expect(txtNamespaces(signedInUrls)).toEqual(expect.arrayContaining(['alarms', 'dataloggers']));
      expect(langChunks(signedInUrls, 'any')).toEqual([locale]);
      await context.close();
    });
  }
});
