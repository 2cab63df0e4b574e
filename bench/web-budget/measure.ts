/**
 * First-load byte budget (issue 8): which routes are measured, signed in as whom, their budgets,
 * and how a route's transferred bytes are measured in Chromium. Shared by the bench
 * (`bench/web-budget/run.ts`, prints the table) and the CI check (`e2e/web-budget.spec.ts`,
 * fails on a route over budget). Sizes only, never times.
 *
 * A route is measured as a user's first visit: a signed-in context (or a signed-out one for
 * /entry) with the browser cache disabled, `page.goto(route)`, then until the network is idle
 * and no spinner shows. Every response's body is counted as it came over the wire
 * (`request.sizes().responseBodySize`: compressed when the server compressed it; gzip is asked for,
 * as the budgets are gzipped sizes, unless `encoding` is 'browser': Chromium's own choice, brotli), by type:
 * JS (scripts), CSS (stylesheets) and other (the document, API calls, images, data).
 */
import type { BrowserContext, Page, Request } from 'playwright-core';
import type { DemoAccount } from '../../e2e/entry-page.ts';
import { DEMO } from '../../e2e/entry-page.ts';
import { settle, type Harness } from '../../e2e/harness.ts';

export const KB = 1024;

/** Budgets in KB of gzipped JavaScript (issue 8 "First load"). */
export const BUDGET_KB = {
  /** The entry page (/entry): sign-in form and slider puzzle. */
  entry: 200,
  /** Any area's landing page, and any other page without charts or maps. */
  page: 450,
  /** Pages that draw charts (ECharts, ~200 KB gzipped on its own) or maps (Leaflet + the offline world atlas). */
  charts: 650,
} as const;

export type RouteKind = 'entry' | 'landing' | 'page';

export interface BudgetRoute {
  /** The path opened (a real route of apps/web/src/app/routes.ts, or a device detail under one). */
  path: string;
  /** Who opens it (a demo account that may); none for /entry. */
  account?: keyof typeof DEMO;
  kind: RouteKind;
  /** Budget in KB of JavaScript as transferred. */
  budgetKB: number;
  /** Why the budget is what it is (printed by the bench). */
  note?: string;
  /**
   * Set only while the route does not meet its budget yet: the size CI enforces instead (a
   * ratchet against growth, a few KB above today's measure). The bench reports such a route as
   * over budget; docs/web/first-load.md says what is left to do. Lower it, never raise it.
   */
  ceilingKB?: number;
  /**
   * The same page as the route at this path, opened in another area (another edition's layout
   * or another role). The bench measures it; the browser test in CI does not (each page once,
   * every area's layout through its landing page: docs/decisions.md, "CI time").
   */
  sameAs?: string;
}

/** The size CI fails above: the ceiling while a route is over budget, else its budget. */
export function enforcedKB(route: BudgetRoute): number {
  return route.ceilingKB ?? route.budgetKB;
}

/** The hybrid inverter of the demo fleet (apps/server/src/demo/seed-telemetry.ts). */
const HYBRID = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };

/**
 * Every route with a page of its own, each with one account that may open it. Placeholder
 * routes ("not available yet") share their area's layout and are represented by one of them.
 */
export const BUDGET_ROUTES: readonly BudgetRoute[] = [
  {
    path: '/entry',
    kind: 'entry',
    budgetKB: BUDGET_KB.entry,
    // session 26: 200.3 KB once the entry dialogs drag and resize and the send-code countdown
    // survives leaving the face (issue 12); docs/web/first-load.md says how to get back under 200
    note: 'issue 12: every entry mode, movable dialogs',
    ceilingKB: 211,
  },
  // the landing page of every area (spec §2), each as the role that lands there
  // issue 14: the operator home is a real page now (figures, donuts, hourly bars, tables): 484 KB
  { path: '/adminNewStatr/home', account: 'operator', kind: 'landing', budgetKB: BUDGET_KB.page, ceilingKB: 491 },
  { path: '/adminNew/home', account: 'sunmaker', kind: 'landing', budgetKB: BUDGET_KB.page },
  { path: '/admin/home', account: 'dealer_north', kind: 'landing', budgetKB: BUDGET_KB.page },
  { path: '/adminNew/device', account: 'north_ops', kind: 'landing', budgetKB: BUDGET_KB.page },
  { path: '/generalNew/home', account: 'owner_anna', kind: 'landing', budgetKB: BUDGET_KB.page, ceilingKB: 463 },
  { path: '/general/home', account: 'owner_ben', kind: 'landing', budgetKB: BUDGET_KB.page, ceilingKB: 463 },
  // the other pages
  {
    path: '/admin/device',
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    sameAs: '/adminNew/device',
  },
  { path: '/adminNew/project', account: 'sunmaker', kind: 'page', budgetKB: BUDGET_KB.charts, note: 'map' },
  {
    path: '/adminNew/personalBasic',
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'issue 12: editable basic info (Form, Upload), the bind and security cards',
    ceilingKB: 489,
  },
  {
    path: '/admin/setting/personalBasic',
    sameAs: '/adminNew/personalBasic',
    account: 'group_east',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'issue 12: editable basic info (Form, Upload), the bind and security cards',
    ceilingKB: 489,
  },
  {
    path: '/adminNew/alarm',
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'issue 11 alarm list: antd Table, Select and Tabs on the first screen, SVG bars; the handle dialog and the rules tab load on demand',
    ceilingKB: 504,
  },
  {
    path: '/generalNew/alarm',
    sameAs: '/adminNew/alarm',
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'issue 11 alarm list: antd Table, Select and Tabs on the first screen, SVG bars; the handle dialog and the rules tab load on demand',
    ceilingKB: 504,
  },
  {
    path: '/adminNew/account',
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and other tabs load on demand',
    ceilingKB: 497,
  },
  {
    path: '/admin/account',
    sameAs: '/adminNew/account',
    account: 'sunmaker',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and other tabs load on demand',
    ceilingKB: 497,
  },
  {
    path: '/adminNewStatr/home/account',
    sameAs: '/adminNew/account',
    account: 'operator',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and other tabs load on demand',
    ceilingKB: 497,
  },
  {
    path: '/adminNew/setting/datalogger',
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and the details drawer load on demand',
    ceilingKB: 493,
  },
  {
    path: '/adminNewStatr/home/datalogger',
    sameAs: '/adminNew/setting/datalogger',
    account: 'operator',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and the details drawer load on demand',
    ceilingKB: 493,
  },
  {
    path: '/generalNew/setting/datalogger',
    sameAs: '/adminNew/setting/datalogger',
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) on the first screen; dialogs and the details drawer load on demand',
    ceilingKB: 493,
  },
  { path: '/generalNew/deviceno', account: 'owner_anna', kind: 'page', budgetKB: BUDGET_KB.page },
  {
    path: '/generalNew/project',
    account: 'viewer_cara',
    kind: 'page',
    budgetKB: BUDGET_KB.charts,
    note: 'map',
    sameAs: '/adminNew/project',
  },
  {
    path: '/generalNew/personalBasic',
    sameAs: '/adminNew/personalBasic',
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'issue 12: editable basic info (Form, Upload), the bind and security cards',
    ceilingKB: 489,
  },
  {
    path: '/generalNew/setting/browseAccount',
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'antd Table (47 KB) and its pagination Select on the first screen; the form loads on demand',
    ceilingKB: 488,
  },
  // issue 10: the plant page (owner_anna's demo plant is the first one seeded: pid 1), with its power curve
  {
    path: '/generalNew/project/1',
    ceilingKB: 740,
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.charts,
    note: 'plant page: power curve (ECharts)',
  },
  {
    path: '/adminNew/project/1',
    sameAs: '/generalNew/project/1',
    ceilingKB: 740,
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.charts,
    note: 'plant page: power curve (ECharts)',
  },
  {
    path: `/generalNew/deviceno/${HYBRID.pn}/${HYBRID.devcode}/${HYBRID.devaddr}/${HYBRID.sn}`,
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'device detail: real-time tab; the chart tabs load ECharts when opened',
  },
  {
    path: `/generalNew/deviceno/${HYBRID.pn}/${HYBRID.devcode}/${HYBRID.devaddr}/${HYBRID.sn}?tab=control`,
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'device detail opened on the control tab (issue 10; the tab loads on its own)',
    // session 26: 451.7 KB with the owner's upgrade-tab rule (issue 13, an offers query on every
    // device page); docs/web/first-load.md
    ceilingKB: 466,
  },
  {
    path: '/generalNew/setting/helpform',
    ceilingKB: 479,
    account: 'owner_anna',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'auxiliary functions (issue 10)',
  },
  {
    path: '/adminNew/setting/helpform',
    sameAs: '/generalNew/setting/helpform',
    ceilingKB: 479,
    account: 'dealer_north',
    kind: 'page',
    budgetKB: BUDGET_KB.page,
    note: 'auxiliary functions (issue 10)',
  },
  // issue 11: e-mail subscriptions and report export (the forms and pickers load on demand)
  { path: '/generalNew/setting/alarmform', account: 'owner_anna', kind: 'page', budgetKB: BUDGET_KB.page },
  { path: '/generalNew/setting/reportsubscribe', account: 'owner_anna', kind: 'page', budgetKB: BUDGET_KB.page },
  { path: '/generalNew/setting/reportexport', account: 'owner_anna', kind: 'page', budgetKB: BUDGET_KB.page },
];

export interface Transfer {
  url: string;
  type: 'js' | 'css' | 'other';
  /** Body bytes as transferred (compressed when the server compressed). */
  bytes: number;
  /** Content-Encoding of the response ('' when none). */
  encoding: string;
}

export interface RouteMeasure {
  route: BudgetRoute;
  /** Where the browser ended up (a redirect would measure another page: the check fails on it). */
  finalPath: string;
  js: number;
  css: number;
  other: number;
  total: number;
  transfers: Transfer[];
}

function typeOf(request: Request): Transfer['type'] {
  const rt = request.resourceType();
  const p = new URL(request.url()).pathname;
  if (rt === 'script' || p.endsWith('.js')) return 'js';
  if (rt === 'stylesheet' || p.endsWith('.css')) return 'css';
  return 'other';
}

/** Records every finished response of `page` until stopped. */
export function recordTransfers(page: Page): { stop(): Promise<Transfer[]> } {
  const pending: Array<Promise<Transfer | undefined>> = [];
  const onFinished = (request: Request) => {
    pending.push(
      (async () => {
        if (request.url().startsWith('data:')) return undefined;
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const encoding = (await response?.headerValue('content-encoding')) ?? '';
        return { url: request.url(), type: typeOf(request), bytes: sizes.responseBodySize, encoding };
      })().catch(() => undefined),
    );
  };
  page.on('requestfinished', onFinished);
  return {
    async stop() {
      page.off('requestfinished', onFinished);
      return (await Promise.all(pending)).filter((t): t is Transfer => t !== undefined);
    },
  };
}

export function summarize(route: BudgetRoute, finalPath: string, transfers: Transfer[]): RouteMeasure {
  const sum = (type: Transfer['type']) => transfers.filter((t) => t.type === type).reduce((s, t) => s + t.bytes, 0);
  const js = sum('js');
  const css = sum('css');
  const other = sum('other');
  return { route, finalPath, js, css, other, total: js + css + other, transfers };
}

/** A signed-in context per account (signed in once through the real entry page and puzzle). */
export class Sessions {
  private readonly contexts = new Map<string, Promise<BrowserContext>>();
  constructor(
    private readonly harness: Harness,
    private readonly locale = 'en-US',
  ) {}

  /** One signed-in context per account (created once, also when several routes ask at the same time). */
  context(account: keyof typeof DEMO | undefined): Promise<BrowserContext> {
    const key = account ?? '';
    let ctx = this.contexts.get(key);
    if (!ctx) {
      ctx = (async () => {
        const c = await this.harness.newContext(this.locale);
        if (account) {
          const a: DemoAccount = DEMO[account];
          const page = await c.newPage();
          // the session placed as the app keeps it (e2e/harness.ts signIn): what is measured is the route, not the sign-in
          await this.harness.signIn(page, a.usr, a.pwd);
          await page.close();
        }
        return c;
      })();
      this.contexts.set(key, ctx);
    }
    return ctx;
  }

  async close(): Promise<void> {
    for (const ctx of this.contexts.values()) await (await ctx.catch(() => undefined))?.close().catch(() => undefined);
    this.contexts.clear();
  }
}

/** Opens `route` as a first visit (cache disabled) and measures what came over the wire. */
export type Encoding = 'gzip' | 'browser';

export async function measureRoute(
  sessions: Sessions,
  route: BudgetRoute,
  encoding: Encoding = 'gzip',
): Promise<RouteMeasure> {
  const ctx = await sessions.context(route.account);
  const page = await ctx.newPage();
  try {
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // the budgets are gzipped sizes: ask for gzip (Chromium would take brotli, ~15 % smaller)
    if (encoding === 'gzip') await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'gzip, deflate' });
    const recorder = recordTransfers(page);
    await page.goto(route.path);
    await settle(page);
    const transfers = await recorder.stop();
    const u = new URL(page.url());
    return summarize(route, u.pathname + u.search, transfers);
  } finally {
    await page.close();
  }
}

export function kb(bytes: number): string {
  return (bytes / KB).toFixed(1);
}

export function overBudget(m: RouteMeasure): boolean {
  return m.js > m.route.budgetKB * KB;
}

/** Over what CI enforces (the ceiling of a route not yet within budget, else the budget). */
export function overEnforced(m: RouteMeasure): boolean {
  return m.js > enforcedKB(m.route) * KB;
}

export function status(m: RouteMeasure): string {
  const want = new URL(m.route.path, 'http://x');
  if (m.finalPath !== want.pathname + want.search) return `REDIRECTED ${m.finalPath}`;
  if (overEnforced(m)) return m.route.ceilingKB ? 'OVER CEILING' : 'OVER';
  if (overBudget(m)) return `over budget (ceiling ${m.route.ceilingKB})`;
  return 'ok';
}

/** The table the bench prints (markdown, so it can be pasted into the notes). */
export function formatTable(measures: readonly RouteMeasure[]): string {
  const rows = measures.map((m) => [
    m.route.path.length > 60 ? m.route.path.slice(0, 57) + '…' : m.route.path,
    m.route.account ?? '—',
    m.route.kind,
    kb(m.js),
    kb(m.css),
    kb(m.other),
    kb(m.total),
    String(m.route.budgetKB),
    status(m),
  ]);
  const head = ['route', 'account', 'kind', 'JS KB', 'CSS KB', 'other KB', 'total KB', 'JS budget KB', 'status'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Responses of the app's own assets that came uncompressed although they are compressible. */
export function uncompressedAssets(m: RouteMeasure, minBytes = 1024): Transfer[] {
  return m.transfers.filter((t) => t.type !== 'other' && t.bytes >= minBytes && t.encoding === '');
}
