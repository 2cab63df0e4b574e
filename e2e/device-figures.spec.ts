/**
 * Issue 8 "figures that contradict each other": for every shipped devcode of the demo fleet
 * (2341 hybrid inverter + 5123 battery for owner_anna; 5121 grid-tie inverter, 5124 meter and
 * 2 × 5122 micro-inverter for owner_ben) the key figures of the device's type read the same in
 * the card view, the list view, the detail page and the API reply (webQueryDeviceEs and
 * webQueryDeviceStatistic), as the same formatted number; and the detail screens name things
 * right: device type and plant in the info tab, only the device's own nodes in the energy flow,
 * no grid direction without a value, the day chart as a power curve, the lifetime-counter hint.
 *
 * The fleet keeps sending samples while the flow runs: one comparison reads the API before and
 * after the screens, and is repeated when a new sample came in between.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type ApiClient, type DeviceFigureWire } from '@sunwatch/protocol';
import { figureId, formatFigure } from '../apps/web/src/features/shared/devices/figures.ts';
import { formatEnergy, formatPower } from '../apps/web/src/features/shared/charts/format.ts';
import { DEMO, landingPattern } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 2 } });

const LIST = '/generalNew/deviceno';
const PLANTS = '/generalNew/project';

/** The figures shown inside `root`: figure id → displayed text. */
async function shown(page: Page, selector: string): Promise<Record<string, string>> {
  const root = page.locator(selector).first();
  await root.locator('[data-figure]').first().waitFor({ state: 'visible' });
  return root
    .locator('[data-figure]')
    .evaluateAll((els) =>
      Object.fromEntries(
        els.map((el) => [
          (el as HTMLElement).dataset.figure!,
          (el.querySelector('[data-testid="figure-value"]')?.textContent ?? '').trim(),
        ]),
      ),
    );
}

/** A displayed figure back in the wire unit (kW, kWh, %), to check the text is the number. */
function parseShown(text: string): number | undefined {
  const m = /^(-?[\d,]+(?:\.\d+)?) (W|kW|MW|GW|Wh|kWh|MWh|GWh|%)$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  const f: Record<string, number> = { W: 1e-3, kW: 1, MW: 1e3, GW: 1e6, Wh: 1e-3, kWh: 1, MWh: 1e3, GWh: 1e6, '%': 1 };
  return n * f[m[2]!]!;
}

/** A protocol client signed with the browser tab's own session. */
const apiOf = (page: Page): Promise<ApiClient> => tabApi(page, h().baseUrl);

const EXPECTED_KEYS: Record<number, string[]> = {
  2341: ['power', 'energyToday', 'energyTotal'],
  5121: ['power', 'energyToday', 'energyTotal'],
  5122: ['power', 'energyToday', 'energyTotal', 'panelPower1', 'panelPower2'],
  5123: ['soc', 'chargePower', 'dischargePower', 'chargedToday', 'chargedTotal', 'dischargedToday', 'dischargedTotal'],
  5124: ['importPower', 'exportPower', 'importToday', 'importTotal', 'exportToday', 'exportTotal'],
};

describe.each([
  { account: DEMO.owner_anna, devcodes: [2341, 5123] },
  { account: DEMO.owner_ben, devcodes: [5121, 5124, 5122] },
])('figures of $account.usr', ({ account, devcodes }) => {
  let page: Page;
  let api: ApiClient;

  beforeAll(async () => {
    page = await h().newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await h().signIn(page, account.usr, account.pwd);
    await page.waitForURL(landingPattern(account.role));
    api = await apiOf(page);
  });
  afterAll(async () => {
    await page?.context().close();
  });

  const listRows = async () => (await api.call('webQueryDeviceEs', { page: 0, pagesize: 50 })).device;

  it.each(devcodes)('devcode %i: card = list = detail = API', async (devcode) => {
    const devices = (await listRows()).filter((d) => d.devcode === devcode);
    expect(devices.length).toBeGreaterThan(0);
    for (const d of devices) {
      const tuple = { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn };
      let agreed = false;
      for (let attempt = 0; attempt < 4 && !agreed; attempt++) {
        const before = (await listRows()).find((x) => x.sn === d.sn)!;
        const stat = await api.call('webQueryDeviceStatistic', tuple);
        await page.goto(LIST);
        const card = await shown(page, `[data-testid="device-card"][data-sn="${d.sn}"]`);
        if (attempt === 0 && d === devices[0]) await h().screenshot(page, `device-figures-${devcode}-cards`);
        await page.goto(`${LIST}?mode=list`);
        const list = await shown(page, `[data-testid="device-table"] tr:has-text("${d.sn}")`);
        await page.goto(`${LIST}/${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}`);
        const detail = await shown(page, '[data-testid="detail-figures"]');
        const after = (await listRows()).find((x) => x.sn === d.sn)!;
        // a sample arrived while reading the screens: read again
        if (JSON.stringify(before.figures) !== JSON.stringify(after.figures)) continue;
        agreed = true;
        const expected = Object.fromEntries(
          after.figures.map((f: DeviceFigureWire) => [figureId(f), formatFigure(f, 'en_US')]),
        );
        expect(Object.keys(expected), `${d.sn} figure set`).toEqual(EXPECTED_KEYS[devcode]);
        expect(stat.figures, `${d.sn}: statistics = list reply`).toEqual(after.figures);
        expect(card, `${d.sn}: card`).toEqual(expected);
        expect(list, `${d.sn}: list`).toEqual(expected);
        expect(detail, `${d.sn}: detail`).toEqual(expected);
        // the text is the API's number (within the display rounding)
        for (const f of after.figures as DeviceFigureWire[]) {
          if (f.val === '--') continue;
          const v = parseShown(card[figureId(f)]!);
          expect(v, `${d.sn} ${figureId(f)} "${card[figureId(f)]}"`).toBeDefined();
          expect(Math.abs(v! - Number(f.val))).toBeLessThanOrEqual(Math.max(0.006, Math.abs(Number(f.val)) * 0.006));
        }
      }
      expect(agreed, `${d.sn}: the figures kept changing`).toBe(true);
    }
    await h().screenshot(page, `device-figures-${devcode}`);
  });

  it("plant list: the plant's consumption and energy used today = API ('--' where no meter or hybrid can tell)", async () => {
    let agreed = false;
    for (let attempt = 0; attempt < 4 && !agreed; attempt++) {
      const before = (await api.call('webQueryPlants', { page: 0, pagesize: 50 })).plant;
      await page.goto(PLANTS);
      const shownRows = await Promise.all(
        before.map(async (p) => {
          const row = page.locator(`tr:has-text("${p.name}")`).first();
          await row.waitFor({ state: 'visible' });
          return {
            load: (await row.getByTestId('plant-load').textContent())?.trim(),
            used: (await row.getByTestId('plant-used').textContent())?.trim(),
          };
        }),
      );
      const after = (await api.call('webQueryPlants', { page: 0, pagesize: 50 })).plant;
      if (JSON.stringify(before) !== JSON.stringify(after)) continue;
      agreed = true;
      expect(after.length).toBeGreaterThan(0);
      // each owner has a plant with a meter (ben) or a hybrid inverter (anna): its consumption is known
      expect(after.some((p) => p.loadPower !== '--')).toBe(true);
      after.forEach((p, i) => {
        expect(shownRows[i], p.name).toEqual({ load: formatPower(p.loadPower, 'en_US'), used: formatEnergy(p.energyUsed, 'en_US') });
      });
    }
    expect(agreed, 'the plant figures kept changing').toBe(true);
  });
});

describe("owner_anna's hybrid inverter and battery: the detail screens name things right", () => {
  let page: Page;
  let api: ApiClient;
  const HYBRID = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
  const BATTERY = { pn: 'SWNORTH0000001', devcode: 5123, devaddr: 2, sn: 'SW5123N0000102' };
  const detail = (d: typeof HYBRID, tab: string) => `${LIST}/${d.pn}/${d.devcode}/${d.devaddr}/${d.sn}?tab=${tab}`;

  beforeAll(async () => {
    page = await h().newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd);
    await page.waitForURL(landingPattern(DEMO.owner_anna.role));
    api = await apiOf(page);
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('device info: "Hybrid inverter" (not "Off-grid") and the plant by name, linking to its devices', async () => {
    await page.goto(detail(HYBRID, 'info'));
    await expect.poll(() => page.getByTestId('info-category').innerText()).toBe('Hybrid inverter');
    const plant = page.getByTestId('info-plant');
    await expect.poll(() => plant.innerText()).toBe('Anna Elbblick Home');
    const info = await api.call('queryDeviceInfo', HYBRID);
    expect(await plant.getAttribute('href')).toBe(`${LIST}?pid=${info.device[0]!.pid}`);
    expect(await page.getByRole('tabpanel').innerText()).not.toContain('Off-grid');
  });

  it('energy flow: the grid without a measured power has no direction', async () => {
    const flow = await api.call('webQueryDeviceEnergyFlowEs', HYBRID);
    expect(flow.gd_status[0]!.unit).toBeUndefined(); // the 2341 measures no grid power
    await page.goto(detail(HYBRID, 'flow'));
    const grid = page.getByTestId('flow-caption-grid');
    await grid.waitFor({ state: 'visible' });
    expect(await grid.textContent()).not.toMatch(/Importing|Exporting/);
    expect(await grid.textContent()).toMatch(/^(Connected|--)$/);
    expect(await page.getByTestId('flow-grid').getAttribute('data-direction')).toBe('none');
  });

  it('the battery state of charge is labelled as such, not "Battery Capacity"', async () => {
    await page.goto(detail(BATTERY, 'realtime'));
    const value = page.getByTestId('value-bt_battery_capacity');
    await value.waitFor({ state: 'visible' });
    const label = await value.evaluate((el) => el.closest('tr')?.querySelector('th')?.textContent ?? '');
    expect(label).toBe('State of charge');
    await page.goto(detail(HYBRID, 'realtime'));
    const hybridSoc = page.getByTestId('value-bt_battery_capacity');
    await hybridSoc.waitFor({ state: 'visible' });
    expect(await hybridSoc.evaluate((el) => el.closest('tr')?.querySelector('th')?.textContent ?? '')).toBe(
      'State of charge',
    );
  });

  it('statistics: the lifetime counter is told apart from what the platform recorded', async () => {
    const stat = await api.call('webQueryDeviceStatistic', HYBRID);
    expect(Number(stat.energy.generated.total)).toBeGreaterThan(Number(stat.sincePlatform.generated) + 1);
    await page.goto(detail(HYBRID, 'statistic'));
    const hint = page.getByTestId('lifetime-hint');
    await hint.waitFor({ state: 'visible' });
    expect(await hint.innerText()).toContain(stat.firstDay);
    const pane = page.getByRole('tabpanel');
    expect(await pane.innerText()).toContain(`Since connected (${stat.firstDay})`);
    expect(await pane.innerText()).toContain('Lifetime (device counter)');
  });

  it('the day chart is the power curve of the samples, not hourly energy', async () => {
    await page.goto(detail(HYBRID, 'chart'));
    const curve = page.getByTestId('power-curve');
    await curve.waitFor({ state: 'visible' });
    const today = await page.getByRole('tabpanel').locator('.ant-picker input').first().inputValue();
    const chart = await api.call('webQueryDeviceEnergyChart', { ...HYBRID, view: 'day', date: today });
    const samples = await api.call('queryDeviceDataOneDayPaging', { ...HYBRID, date: today, page: 0, pagesize: 1 });
    expect(chart.power?.map((p) => p.node)).toEqual(['pv', 'battery', 'load']);
    // one point per sample of the day, as measured
    for (const p of chart.power!) expect(p.points.length).toBe(samples.total);
    expect(await curve.locator('[aria-label="Power curve"]').count()).toBe(1);
  });
});

describe("owner_ben's micro-inverter: the energy flow draws only its own nodes", () => {
  it('PV and grid, no battery and no load', async () => {
    const page = await h().newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await h().signIn(page, DEMO.owner_ben.usr, DEMO.owner_ben.pwd);
    await page.waitForURL(landingPattern(DEMO.owner_ben.role));
    await page.goto(`${LIST}/SWSOUTH0000002/5122/1/SW5122S0000201?tab=flow`);
    await page.getByTestId('flow-pv').waitFor({ state: 'attached' });
    expect(await page.getByTestId('flow-grid').count()).toBe(1);
    expect(await page.getByTestId('flow-battery').count()).toBe(0);
    expect(await page.getByTestId('flow-load').count()).toBe(0);
    await page.context().close();
  });
});
