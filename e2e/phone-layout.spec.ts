/**
 * Phones (issue 8): every real route of the route table (nodes with a page, settings layouts,
 * device-detail tabs, device-list modes, /entry, /401, /404) at 390×844 and 360×740 shows no
 * horizontal page overflow; the area menu is a drawer that navigates; the header folds into one
 * menu offering language and log out. On a desktop (1440×900) the project table's last column
 * is fully inside its container.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LOCALE_NAMES } from '@sunwatch/protocol';
import { DEMO } from './entry-page.ts';
import { REPO_ROOT, useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 1 } });

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const;

const HYBRID = 'SWNORTH0000001/2341/1/SW2341N0000101';
/** owner_anna's demo plant, the first one seeded (the plant page under the project lists). */
const PLANT = '1';
const DETAIL_TABS = ['realtime', 'flow', 'statistic', 'chart', 'params', 'data', 'info'] as const;

/** The slice of apps/web/src/app/routes.ts this spec reads. */
interface Node {
  path: string;
  page?: unknown;
  subPage?: { pattern: string };
  layout?: 'settings';
  children?: Node[];
}
interface Area {
  id: string;
  base: string;
  children: Node[];
}

/**
 * The route table itself, imported at run time (a path in a variable keeps the web app out of
 * this package's type check): every node with a page, and every settings layout (its index or
 * default child), by area.
 */
async function realRoutes(): Promise<Map<string, string[]>> {
  const file = path.join(REPO_ROOT, 'apps/web/src/app/routes.ts');
  const { AREAS } = (await import(/* @vite-ignore */ file)) as { AREAS: readonly Area[] };
  const out = new Map<string, string[]>();
  for (const area of AREAS) {
    const paths: string[] = [];
    const walk = (prefix: string, nodes: readonly Node[]) => {
      for (const n of nodes) {
        const p = `${prefix}/${n.path}`;
        if (n.page || n.layout === 'settings') paths.push(p);
        if (n.subPage && n.page) {
          const pattern = n.subPage.pattern;
          // A plant, a device, or a fixed child page (the recharge result, the acceleration purchase).
          paths.push(`${p}/${pattern === ':pid' ? PLANT : pattern.startsWith(':pn') ? HYBRID : pattern}`);
        }
        if (n.children) walk(p, n.children);
      }
    };
    walk(area.base, area.children);
    out.set(area.id, paths);
  }
  return out;
}

/** Who opens each area's routes: an account of the area with every permission. */
const AREA_ACCOUNT = {
  operator: DEMO.operator,
  adminNew: DEMO.dealer_north,
  admin: DEMO.dealer_north,
  generalNew: DEMO.owner_anna,
  general: DEMO.owner_anna,
} as const;

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** The outermost elements reaching past the right edge (for the failure message). */
  culprits: string[];
}

async function pageOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const culprits: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= vw + 0.5) continue;
      const parent = el.parentElement?.getBoundingClientRect();
      if (parent && parent.right > vw + 0.5) continue;
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 3).join('.') : '';
      culprits.push(`${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} right=${Math.round(r.right)}`);
      if (culprits.length >= 6) break;
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, culprits };
  });
}

/** The page has rendered: the area header or a result page is there, no spinner is left. */
async function ready(page: Page): Promise<void> {
  await page.waitForSelector('.sw-area-header, .ant-result, [data-testid=login-username]', { timeout: 20_000 });
  await page
    .waitForFunction(
      () =>
        Array.from(document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active, .sw-loading')).every(
          (el) => (el as HTMLElement).offsetParent === null,
        ),
      undefined,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  await page.waitForTimeout(250);
}

/** Requests in flight per page (Playwright's own networkidle fires once per document, not per in-app navigation). */
const inFlight = new WeakMap<Page, { n: number; last: number }>();
function track(page: Page): { n: number; last: number } {
  let t = inFlight.get(page);
  if (!t) {
    const state = { n: 0, last: Date.now() };
    const done = () => {
      state.n = Math.max(0, state.n - 1);
      state.last = Date.now();
    };
    page.on('request', () => {
      state.n += 1;
      state.last = Date.now();
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    inFlight.set(page, state);
    t = state;
  }
  return t;
}
/** No request in flight for `quietMs` (the route's chunks and its API calls have arrived). */
async function networkQuiet(page: Page, quietMs = 400, timeout = 15_000): Promise<void> {
  const t = track(page);
  const until = Date.now() + timeout;
  while (Date.now() < until) {
    if (t.n === 0 && Date.now() - t.last >= quietMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Opens `route` inside the running app when one is loaded (history.pushState + popstate: the
 * router renders the route as after a click, without booting the app again), else by loading
 * it. The app's start is checked by every other browser flow and by the first route of each list.
 */
async function open(page: Page, route: string): Promise<void> {
  track(page);
  const inApp = await page.evaluate(() => !!document.querySelector('.sw-area-header')).catch(() => false);
  if (!inApp) {
    await page.goto(route);
    await ready(page);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, route);
  // the route's chunks and API calls start within a frame or two of the navigation
  await page.waitForTimeout(100);
  await networkQuiet(page);
  await ready(page);
}

/** Opens `route` and checks both phone widths; returns nothing, fails with the culprits. */
async function expectNoOverflow(page: Page, route: string): Promise<void> {
  await page.setViewportSize(PHONES[0]);
  await open(page, route);
  for (const size of PHONES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    const o = await pageOverflow(page);
    expect(
      o.scrollWidth,
      `${route} at ${size.width}×${size.height} scrolls sideways: ${o.culprits.join(', ')}`,
    ).toBeLessThanOrEqual(o.innerWidth);
  }
}

async function signedInPage(account: { usr: string; pwd: string }): Promise<Page> {
  const page = await h().newPage();
  await page.setViewportSize(PHONES[0]);
  await h().signIn(page, account.usr, account.pwd);
  return page;
}

let routes: Map<string, string[]>;
beforeAll(async () => {
  routes = await realRoutes();
});

describe('public pages on a phone', () => {
  it('/entry, /404 and /401 do not scroll sideways', async () => {
    const page = await h().newPage();
    await expectNoOverflow(page, '/entry');
    await h().screenshot(page, 'phone-entry');
    await expectNoOverflow(page, '/401');
    await expectNoOverflow(page, '/404');
    // spec §8: opening /404 logs exactly that as an error (the harness fails on any other)
    expect(
      h()
        .takeBrowserProblems()
        .map((p) => p.text.replace(/ \(at .*\)$/, '')),
    ).toEqual(['404 page not found /404']);
    await page.context().close();
  });
});

for (const [areaId, account] of Object.entries(AREA_ACCOUNT)) {
  describe(`${areaId} area on a phone as ${account.usr}`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await signedInPage(account);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('every real route fits 390 and 360 px', async () => {
      const list = routes.get(areaId) ?? [];
      expect(list.length).toBeGreaterThan(0);
      for (const route of list) await expectNoOverflow(page, route);
      await page.setViewportSize(PHONES[0]);
      await page.goto(list[0]!);
      await ready(page);
      await h().screenshot(page, `phone-${areaId}`);
    });
  });
}

describe('owner on a phone', () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage(DEMO.owner_anna);
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('device list in card, list and map mode, and every device-detail tab fit', async () => {
    for (const mode of ['card', 'list', 'map']) await expectNoOverflow(page, `/generalNew/deviceno?mode=${mode}`);
    await page.setViewportSize(PHONES[0]);
    await page.goto('/generalNew/deviceno?mode=list');
    await ready(page);
    await h().screenshot(page, 'phone-device-list');
    for (const tab of DETAIL_TABS) {
      await expectNoOverflow(page, `/generalNew/deviceno/${HYBRID}?tab=${tab}`);
      if (tab === 'flow' || tab === 'chart') {
        await page.setViewportSize(PHONES[0]);
        await h().screenshot(page, `phone-detail-${tab}`);
      }
    }
    await expectNoOverflow(page, '/generalNew/project?view=map');
    await page.setViewportSize(PHONES[0]);
    await h().screenshot(page, 'phone-project-map');
  });

  it('the energy flow keeps readable labels at 360 px', async () => {
    await page.setViewportSize(PHONES[1]);
    await page.goto(`/generalNew/deviceno/${HYBRID}?tab=flow`);
    await page.getByTestId('flow-pv').waitFor({ state: 'attached' });
    // the smallest label on screen: font size in the SVG times the SVG's scale
    const smallest = await page.evaluate(() => {
      const svg = document.querySelector('svg[data-testid=energy-flow]') as SVGSVGElement | null;
      if (!svg) return 0;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const sizes = Array.from(svg.querySelectorAll('text')).map((t) => Number(t.getAttribute('font-size')) * scale);
      return Math.min(...sizes);
    });
    expect(smallest).toBeGreaterThanOrEqual(12);
  });

  it('has no sider; the menu button opens a drawer that navigates and closes', async () => {
    await page.setViewportSize(PHONES[0]);
    await page.goto('/generalNew/home');
    await ready(page);
    expect(await page.getByTestId('area-sider').count()).toBe(0);
    // the header stays one row and nothing of it reaches into the page below
    const header = await page.locator('.sw-area-header').boundingBox();
    expect(header?.height).toBeLessThanOrEqual(64);
    await page.getByTestId('area-menu-button').click();
    const drawerMenu = page.locator('.sw-area-drawer [data-testid=area-menu]');
    await drawerMenu.waitFor({ state: 'visible' });
    await h().screenshot(page, 'phone-drawer');
    await drawerMenu.locator('li[data-menu-id$="/generalNew/project"]').click();
    await page.waitForURL(/\/generalNew\/project(?:[?#]|$)/);
    await drawerMenu.waitFor({ state: 'hidden' });
    await page.locator('.ant-table').first().waitFor({ state: 'visible' });
  });

  it('the settings menu of a settings layout is a drawer too', async () => {
    await page.setViewportSize(PHONES[0]);
    await page.goto('/general/setting/personalBasic');
    await page.getByTestId('settings-menu-button').click();
    const menu = page.locator('.sw-settings-drawer [data-testid=settings-menu]');
    await menu.waitFor({ state: 'visible' });
    await menu.locator('li[data-menu-id$="/general/setting/personalBasic"]').click();
    await menu.waitFor({ state: 'hidden' });
  });

  it('the header menu offers language, skin, edition and log out; language switches; log out signs out', async () => {
    await page.setViewportSize(PHONES[1]);
    await page.goto('/generalNew/home');
    await ready(page);
    expect(await page.getByTestId('header-language').count()).toBe(0);
    await page.getByTestId('header-menu-button').click();
    const menu = page.getByTestId('header-menu');
    await menu.waitFor({ state: 'visible' });
    await h().screenshot(page, 'phone-header-menu');
    await expect(menu.getByTestId('header-user').textContent()).resolves.toBe(DEMO.owner_anna.usr);
    await menu.getByTestId('header-logout').waitFor({ state: 'visible' });
    // German (the app reloads in the new language), then back to English
    // an option clicked while its dropdown still opens can be missed: pick again until the app
    // shows the new language
    const pick = async (name: string, menuLabel: string) => {
      const switched = page.locator(`[data-testid=area-menu-button][aria-label="${menuLabel}"]`);
      await expect
        .poll(
          async () => {
            if ((await switched.count()) > 0) return true;
            if (!(await menu.isVisible())) await page.getByTestId('header-menu-button').click();
            await menu.getByTestId('header-language').click();
            await page.locator('.ant-select-item-option').filter({ hasText: name }).click();
            return switched.waitFor({ state: 'attached', timeout: 5_000 }).then(
              () => true,
              () => false,
            );
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    };
    await pick(LOCALE_NAMES.de_DE, 'Menü öffnen');
    await pick(LOCALE_NAMES.en_US, 'Open menu');
    await page.getByTestId('header-menu-button').click();
    await menu.getByTestId('header-logout').click();
    await page.waitForURL(/\/entry(?:[/?#]|$)/);
  });
});

describe('desktop', () => {
  it('the project table shows its last column fully at 1440×900', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd, '/adminNew/project');
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ state: 'visible' });
    await page.waitForTimeout(300);
    const box = await page.evaluate(() => {
      const container = document.querySelector('.ant-table-container')!.getBoundingClientRect();
      const ths = document.querySelectorAll('.ant-table-thead th');
      const last = ths[ths.length - 1]!.getBoundingClientRect();
      return { containerRight: container.right, lastRight: last.right, lastWidth: last.width, vw: window.innerWidth };
    });
    expect(box.lastWidth).toBeGreaterThan(0);
    expect(box.lastRight).toBeLessThanOrEqual(box.containerRight + 0.5);
    expect(box.containerRight).toBeLessThanOrEqual(box.vw);
    await h().screenshot(page, 'desktop-projects');
    await page.context().close();
  });
});
