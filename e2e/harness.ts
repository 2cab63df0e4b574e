/**
 * Browser-flow harness: the real server (fresh SQLite data dir, demo tenant tree, built SPA)
 * plus a headless system Chromium driven by playwright-core.
 *
 *   const h = useHarness();            // registers beforeAll/afterAll in a spec file
 *   const page = await h().newPage();  // fresh context (cookies, storage) per page
 *
 * Every page of a harness context (and of any context passed to newPage) is watched: an uncaught
 * page error or a `console.error` fails the running test (useHarness asserts none in afterEach,
 * and in afterAll for what happened outside a test). There is no allow-list: fix the source.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { COOKIE_LIFETIME_SECONDS, createApiClient, WEB_COMPANY_KEY, type ApiClient } from '@sunwatch/protocol';
// The web app's own cookie names and encryption (one definition): the fast sign-in writes the cookies the app writes.
import { encryptValue } from '../apps/web/src/app/aes.ts';
import { COOKIE } from '../apps/web/src/app/session.ts';
import { loadConfig, seedDemo, startServer, startServerDemoFleet } from '@sunwatch/server';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_ROOT = path.join(REPO_ROOT, 'apps/web/dist');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e/artifacts');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags from the developer guide: quiet, offline-friendly, container-safe headless Chromium. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface PageOptions {
  /** Browser locale (navigator.language, Accept-Language), e.g. 'en-US', 'de-DE', 'zh-CN'. */
  locale?: string;
  /** Reuse a context (shared cookies) instead of creating a fresh one. */
  context?: BrowserContext;
}

/** The in-process demo fleet of `npm start` (apps/server/src/demo/demo-fleet.ts). */
export type HarnessFleet = NonNullable<Awaited<ReturnType<typeof startServerDemoFleet>>>;

export interface HarnessOptions {
  /**
   * Start the simulated demo fleet after seeding: `historyDays` days of 5-minute history pushed
   * through the ingestion service, then the dataloggers live over MQTT to the embedded broker.
   * Off by default (the entry and routing flows need no telemetry).
   */
  fleet?: { historyDays: number };
}

/** An uncaught error or a console error in a watched page. */
export interface BrowserProblem {
  kind: 'pageerror' | 'console.error';
  /** The page's URL when it happened. */
  url: string;
  text: string;
}

export interface Harness {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  browser: Browser;
  dataDir: string;
  /** The running demo fleet (only with `fleet` in the options). */
  fleet: HarnessFleet | undefined;
  newContext(locale?: string): Promise<BrowserContext>;
  /** Page errors and console errors of watched pages since the last call (clears the list). */
  takeBrowserProblems(): BrowserProblem[];
  newPage(options?: PageOptions): Promise<Page>;
  /** Absolute URL for a path of the SPA. */
  url(p: string): string;
  /**
   * Fast sign-in for flows whose subject is not the entry page (the entry flows and a few others
   * keep the real form and slider puzzle, `entry-page.ts` `login`): the real `authSource` action
   * through the protocol client, as the entry page sends it, then the session cookies exactly as
   * the app's `saveLogin` writes them (AES-encrypted values plus the login flag; no remember-me
   * token), then one page load of `path` (default `/home`, which lands on the role's home). The
   * app's guard restores the session from those cookies (spec §2 step 3) and mirrors it to
   * sessionStorage `sw.session`, as for a new tab of a signed-in browser. Waits until the page has
   * left `/entry` and `/home`.
   */
  signIn(page: Page, usr: string, pwd: string, path?: string): Promise<void>;
  /**
   * Waits until the page has settled (network idle, no loading spinner), then saves a full-page
   * screenshot to e2e/artifacts/<name>.png and returns the path.
   */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  if (!existsSync(path.join(WEB_ROOT, 'index.html'))) {
    throw new Error(
      `No built web app in ${WEB_ROOT}: run \`npm run build -w @sunwatch/web\` first (npm run test:e2e does).`,
    );
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install the Debian package \`chromium\` (never \`npx playwright install\`).`,
    );
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sunwatch-e2e-'));
  const contexts = new Set<BrowserContext>();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let fleet: HarnessFleet | undefined;
  try {
    const config = loadConfig({
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      WEB_ROOT,
      // The e2e server always runs on its own SQLite file and its own embedded MQTT broker on a
      // free loopback port, whatever the shell exports (CI may run Mosquitto on 1883).
      DATABASE_URL: '',
      SQLITE_PATH: '',
      MQTT_URL: '',
      MQTT_HOST: '127.0.0.1',
      MQTT_PORT: '0',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // The browser flows run the strict sign policy (wire-protocol.md §4a): the web app signs
      // every parameter with a fresh millisecond salt, so anything else is a regression.
      SIGN_POLICY: 'strict',
      DEMO_HISTORY_DAYS: String(options.fleet?.historyDays ?? 0),
    });
    server = await startServer(config);
    await seedDemo(server.app);
    if (options.fleet) {
      fleet = await startServerDemoFleet(server);
      if (!fleet) throw new Error('the demo fleet has no dataloggers (seedTelemetry provisioned none)');
    }
    // launch() gives every browser a fresh temporary user-data-dir, removed on close.
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await fleet?.stop().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const baseUrl = server.url.replace(/\/$/, '');
  const srv = server;
  const br = browser;
  const problems: BrowserProblem[] = [];
  const watched = new WeakSet<BrowserContext>();
  /** Collects page errors and console errors of every page of the context. */
  const watch = (context: BrowserContext) => {
    if (watched.has(context)) return;
    watched.add(context);
    context.on('weberror', (e) => {
      const err = e.error();
      problems.push({ kind: 'pageerror', url: e.page()?.url() ?? '', text: err.stack ?? err.message });
    });
    context.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const at = msg.location();
      problems.push({
        kind: 'console.error',
        url: msg.page()?.url() ?? '',
        text: at.url ? `${msg.text()} (at ${at.url}:${at.lineNumber}:${at.columnNumber})` : msg.text(),
      });
    });
  };

  const harness: Harness = {
    baseUrl,
    browser: br,
    dataDir,
    fleet,
    async newContext(locale = 'en-US') {
      const context = await br.newContext({
        baseURL: baseUrl,
        locale,
        viewport: { width: 1440, height: 900 },
        timezoneId: 'Europe/Berlin',
      });
      watch(context);
      // a wait ends as soon as its condition holds: the ceiling only matters on a busy machine (a
      // page took over 15 s to render at a load of 18 on 2 cores) or when the flow is broken
      context.setDefaultTimeout(30_000);
      context.setDefaultNavigationTimeout(30_000);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      return context;
    },
    async newPage(options = {}) {
      const context = options.context ?? (await harness.newContext(options.locale));
      watch(context);
      return context.newPage();
    },
    takeBrowserProblems() {
      return problems.splice(0);
    },
    url(p) {
      return baseUrl + (p.startsWith('/') ? p : `/${p}`);
    },
    async signIn(page, usr, pwd, to = '/home') {
      const api = createApiClient({ baseUrl: `${baseUrl}/public/`, companyKey: WEB_COMPANY_KEY, getLocale: () => 'en_US' });
      const dat = await api.login(usr, pwd);
      // apps/web/src/app/session.ts saveLogin: the cookies live as long as the session (dat.expire)
      const lifetime = dat.expire && dat.expire > 0 ? dat.expire : COOKIE_LIFETIME_SECONDS;
      const expires = Math.floor(Date.now() / 1000) + lifetime;
      const cookies = [
        { name: COOKIE.secret, value: encryptValue(dat.secret) },
        { name: COOKIE.token, value: encryptValue(dat.token) },
        { name: COOKIE.role, value: encryptValue(String(dat.role)) },
        { name: COOKIE.pprAuth, value: encryptValue(dat.pprAuth ?? '') },
        { name: COOKIE.usr, value: encryptValue(dat.usr ?? '') },
        { name: COOKIE.uid, value: encryptValue(String(dat.uid ?? 0)) },
        { name: COOKIE.loginFlag, value: '1' },
      ];
      // saveLogin without remember-me removes the remember token
      await page.context().clearCookies({ name: COOKIE.remember });
      await page.context().addCookies(
        cookies.map((c) => ({
          name: c.name,
          value: encodeURIComponent(c.value),
          url: baseUrl,
          expires,
          sameSite: 'Lax' as const,
        })),
      );
      await page.goto(to);
      await page.waitForURL((u) => !u.pathname.startsWith('/entry') && u.pathname !== '/home', { timeout: 20_000 });
    },
    async screenshot(page, name) {
      await settle(page);
      await mkdir(ARTIFACTS_DIR, { recursive: true });
      const file = path.join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      for (const context of [...contexts]) await context.close().catch(() => undefined);
      await br.close().catch(() => undefined);
      await fleet?.stop().catch(() => undefined);
      await srv.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Network idle and no visible loading spinner (lazy pages, queries); then a short pause for charts. */
export async function settle(page: Page, timeout = 20_000): Promise<void> {
  // park the pointer (it may still hover wherever the puzzle drag ended)
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle', { timeout }).catch(() => undefined);
  await page
    .waitForFunction(
      () =>
        Array.from(document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active, .sw-loading')).every(
          (el) => (el as HTMLElement).offsetParent === null,
        ),
      undefined,
      { timeout },
    )
    .catch(() => console.warn(`[e2e] ${page.url()} still shows a loading indicator after ${timeout} ms`));
  await page.waitForLoadState('networkidle', { timeout }).catch(() => undefined);
  await page.waitForTimeout(400);
}

/** Throws when watched pages had page errors or console errors (and clears the list). */
export function assertNoBrowserProblems(harness: Harness | undefined, when: string): void {
  const found = harness?.takeBrowserProblems() ?? [];
  if (found.length === 0) return;
  throw new Error(
    `${found.length} browser error(s) ${when}:\n` + found.map((p) => `  [${p.kind}] ${p.url}\n    ${p.text}`).join('\n'),
  );
}

/**
 * Starts one harness for the spec file; returns a getter usable inside tests. A page error or
 * console error during a test fails that test (afterEach); one outside any test (beforeAll,
 * afterAll of the spec) fails the file.
 */
export function useHarness(options: HarnessOptions = {}): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterEach(() => {
    assertNoBrowserProblems(harness, 'during this test');
  });
  afterAll(async () => {
    try {
      assertNoBrowserProblems(harness, 'outside the tests (beforeAll/afterAll)');
    } finally {
      await harness?.close();
    }
  });
  return () => {
    if (!harness) throw new Error('harness not started (beforeAll failed?)');
    return harness;
  };
}

/** A protocol client signed with the browser tab's own session (sessionStorage `sw.session`). */
export async function tabApi(page: Page, baseUrl: string): Promise<ApiClient> {
  const raw = await page.evaluate(() => sessionStorage.getItem('sw.session'));
  const session = JSON.parse(raw ?? 'null') as { secret: string; token: string } | null;
  if (!session?.secret) throw new Error('no session in the tab');
  return createApiClient({
    baseUrl: `${baseUrl}/public/`,
    companyKey: WEB_COMPANY_KEY,
    getSession: () => ({ secret: session.secret, token: session.token }),
    getLocale: () => 'en_US',
  });
}
