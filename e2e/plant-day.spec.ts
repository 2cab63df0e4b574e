/**
 * Dates a user picks are the plant's dates: a browser far from the plant's timezone (Kiritimati
 * UTC+14 or Pago Pago UTC−11, whichever is on another calendar day than the Hamburg demo plant
 * right now) opens owner_anna's 2341 hybrid inverter. The data details tab must show the plant's
 * today and its samples (the browser's today would be a day with no data, or a future day), and
 * the chart and parameter analysis pickers must start from the plant's today as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type ApiClient } from '@sunwatch/protocol';
import { DEMO, landingPattern } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 2 } });

const HYBRID = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const DETAIL = `/generalNew/deviceno/${HYBRID.pn}/${HYBRID.devcode}/${HYBRID.devaddr}/${HYBRID.sn}`;
const FAR_ZONES = [
  { id: 'Pacific/Kiritimati', seconds: 14 * 3600 },
  { id: 'Pacific/Pago_Pago', seconds: -11 * 3600 },
];

/** The calendar date "YYYY-MM-DD" at `now` in a zone `tz` seconds east of UTC. */
function dayAt(tz: number, now = Date.now()): string {
  return new Date(now + tz * 1000).toISOString().slice(0, 10);
}

/** A protocol client signed with the browser tab's own session. */
const apiOf = (page: Page): Promise<ApiClient> => tabApi(page, h().baseUrl);

describe('a browser in another timezone than the plant', () => {
  let page: Page;
  let api: ApiClient;
  let plantTz = 0;
  let zone = FAR_ZONES[0]!;
  /** `date` params of the device calls the page sent, by action. */
  const sent: Array<{ action: string; params: URLSearchParams }> = [];

  beforeAll(async () => {
    // the Hamburg plant's offset comes from the API below; the demo seeds +1 h (docs/contracts.md)
    zone = FAR_ZONES.find((z) => dayAt(z.seconds) !== dayAt(3600)) ?? zone;
    const context = await h().browser.newContext({
      baseURL: h().baseUrl,
      locale: 'en-US',
      timezoneId: zone.id,
      viewport: { width: 1440, height: 900 },
    });
    context.setDefaultTimeout(15_000);
    page = await h().newPage({ context });
    page.on('request', (r) => {
      const u = new URL(r.url());
      const action = u.searchParams.get('action');
      if (u.pathname.startsWith('/public') && action) sent.push({ action, params: u.searchParams });
    });
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd);
    await page.waitForURL(landingPattern(DEMO.owner_anna.role));
    api = await apiOf(page);
    const info = await api.call('queryDeviceInfo', HYBRID);
    plantTz = info.device[0]!.timezone;
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('the browser really is on another calendar day than the plant', async () => {
    expect(plantTz).toBe(3600);
    const browserDay = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    const browserTz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(browserTz).toBe(zone.id);
    expect(browserDay).toBe(dayAt(zone.seconds));
    expect(browserDay).not.toBe(dayAt(plantTz));
  });

  it("data details shows the plant's today and that day's samples", async () => {
    const today = dayAt(plantTz);
    const expected = await api.call('queryDeviceDataOneDayPaging', { ...HYBRID, date: today, page: 0, pagesize: 20 });
    expect(expected.total).toBeGreaterThan(0);

    sent.length = 0;
    await page.goto(`${DETAIL}?tab=data`);
    const pane = page.getByRole('tabpanel');
    const rows = pane.locator('tbody tr.ant-table-row');
    await rows.first().waitFor({ state: 'visible' });
    expect(await pane.locator('.ant-picker input').inputValue()).toBe(today);
    // the call asked for the plant's day, never the browser's
    const calls = sent.filter((c) => c.action === 'queryDeviceDataOneDayPaging');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.map((c) => c.params.get('date'))).toEqual(calls.map(() => today));
    // the rows are that day's: the API's total and first page
    await expect
      .poll(async () => Number((await pane.locator('.ant-pagination-total-text').innerText()).replace(/\D/g, '')))
      .toBeGreaterThanOrEqual(expected.total);
    expect(await rows.count()).toBe(Math.min(20, expected.total));
    const times = await rows.evaluateAll((trs) => trs.map((tr) => (tr.querySelector('td')?.textContent ?? '').slice(0, 10)));
    expect(new Set(times)).toEqual(new Set([today]));
    // newest first: the page's first row is the API's first sample, or a newer one the fleet sent
    // since the API call (samples arrive every five minutes)
    const firstApi = String(expected.row[0]!.field[1]!);
    const firstShown = (await rows.first().locator('td').first().innerText()).slice(0, firstApi.length);
    expect(firstShown.slice(0, 10)).toBe(today);
    expect(firstShown >= firstApi, `${firstShown} is not ${firstApi} or newer`).toBe(true);
    await h().screenshot(page, 'plant-day-data');
  });

  it("the chart and parameter analysis pickers start from the plant's today", async () => {
    const today = dayAt(plantTz);
    sent.length = 0;
    await page.goto(`${DETAIL}?tab=chart`);
    const pane = page.getByRole('tabpanel');
    await pane.locator('.ant-picker input').first().waitFor({ state: 'visible' });
    await expect.poll(() => pane.locator('.ant-picker input').first().inputValue()).toBe(today);
    await expect.poll(() => sent.filter((c) => c.action === 'webQueryDeviceEnergyChart').length).toBeGreaterThan(0);
    for (const c of sent.filter((x) => x.action === 'webQueryDeviceEnergyChart')) expect(c.params.get('date')).toBe(today);

    sent.length = 0;
    await page.goto(`${DETAIL}?tab=params`);
    const inputs = page.getByRole('tabpanel').locator('.ant-picker-range input');
    await inputs.first().waitFor({ state: 'visible' });
    await expect.poll(() => inputs.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([today, today]);
    await expect.poll(() => sent.filter((c) => c.action === 'webQueryDeviceParamCurves').length).toBeGreaterThan(0);
    for (const c of sent.filter((x) => x.action === 'webQueryDeviceParamCurves')) {
      expect([c.params.get('sdate'), c.params.get('edate')]).toEqual([today, today]);
    }
  });
});
