/**
 * Notification and report screens of the general edition (issue 11), one server with a day of
 * fleet history:
 *  a. owner_anna subscribes an address to one plant's fault alarms and daily reports on
 *     /generalNew/setting/alarmform (the rules are checked in the browser first): the row shows it,
 *     it is still there after a reload, /setting/reportsubscribe lists the same subscription, and
 *     the API answers exactly what was chosen;
 *  b. she exports this month's report of that plant on /generalNew/setting/reportexport, the
 *     export history shows it exporting then downloadable, she downloads it and the xlsx's cells
 *     are the API's figures (energy per day, the month's total), numbers as numbers;
 *  c. both pages at a 360 px phone width: no horizontal overflow of the page.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import type { ApiClient } from '@sunwatch/protocol';
import { DEMO, landingPattern } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 1 } });

const EMAIL = 'night-shift@example.com';

describe('notification and report screens of owner_anna', () => {
  let page: Page;
  let api: ApiClient;
  let plant: { pid: number; name: string };

  beforeAll(async () => {
    page = await h().newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd);
    await page.waitForURL(landingPattern(DEMO.owner_anna.role));
    api = await tabApi(page, h().baseUrl);
    const plants = await api.call('webQueryPlants', { page: 0, pagesize: 50 });
    expect(plants.plant.length).toBeGreaterThan(0);
    plant = { pid: plants.plant[0]!.pid, name: plants.plant[0]!.name };
  }, 60_000);

  it("subscribes an address to a plant's fault alarms and daily reports", async () => {
    await page.goto(h().url('/generalNew/setting/alarmform'));
    await page.getByTestId('subscriptions-alarm').waitFor({ state: 'visible' });
    await page.getByTestId('subscription-add').click();
    const modal = page.locator('.ant-modal').filter({ has: page.getByTestId('subscription-form') });
    await modal.waitFor({ state: 'visible' });
    // nothing filled in: the rules answer in the browser, nothing is sent
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Please enter the email address').waitFor({ state: 'visible' });
    await modal.getByText('Choose at least one plant').waitFor({ state: 'visible' });
    expect((await api.call('queryEmailPush', { page: 0, pagesize: 10 })).total).toBe(0);

    await page.getByTestId('subscription-email').fill(EMAIL);
    // the pick must take: a click on an option of a list still loading, or lost on a busy machine,
    // leaves the select empty (seen in a full run): open the list again until the plant shows
    const picked = modal.locator('.ant-select-selection-item', { hasText: plant.name }).first();
    for (let i = 0; i < 3 && !(await picked.isVisible()); i++) {
      await modal.locator('.ant-select').first().click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: plant.name })
        .first()
        .click();
      // closes the dropdown: focus another field (the title is the dialog's drag handle)
      await page.getByTestId('subscription-email').click();
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
      await picked.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
    }
    await picked.waitFor({ state: 'visible' });
    // a new alarm subscription starts with error and fault: keep fault only, add the daily report
    await page.getByTestId('subscription-level').getByLabel('Error').uncheck();
    await page.getByTestId('subscription-report').getByLabel('Daily report').check();
    await modal.getByRole('button', { name: 'Save' }).click();
    // on a failure, say what the dialog showed (a rule's message, a server error)
    await modal.waitFor({ state: 'hidden', timeout: 30_000 }).catch(async (e: unknown) => {
      throw new Error(`the dialog stayed open, showing: ${await modal.innerText().catch(() => '?')}`, { cause: e });
    });

    const rowOf = () => page.getByTestId('subscription-row').filter({ hasText: EMAIL });
    const check = async () => {
      await rowOf().waitFor({ state: 'visible' });
      expect(await rowOf().getByTestId('subscription-row-plants').innerText()).toBe(plant.name);
      expect(await rowOf().getByTestId('subscription-row-level').innerText()).toBe('Fault');
      expect(await rowOf().getByTestId('subscription-row-report').innerText()).toBe('Daily report');
    };
    await check();
    await page.reload();
    await check();

    // the report page shows the same subscription
    await page.goto(h().url('/generalNew/setting/reportsubscribe'));
    await page.getByTestId('subscriptions-report').waitFor({ state: 'visible' });
    await check();

    const listed = await api.call('queryEmailPush', { page: 0, pagesize: 10 });
    expect(listed.total).toBe(1);
    expect(listed.push[0]).toMatchObject({
      email: EMAIL,
      plants: [{ pid: plant.pid, pname: plant.name }],
      level: [2],
      report: ['daily'],
      language: 'en_US',
      enable: true,
    });
  });

  it("exports this month's plant report, follows it to downloadable and reads the xlsx", async () => {
    await page.goto(h().url('/generalNew/setting/reportexport'));
    await page.getByTestId('report-files').waitFor({ state: 'visible' });
    await page.getByTestId('report-new').click();
    await page.getByTestId('report-export-form').waitFor({ state: 'visible' });
    await h().screenshot(page, 'reports-export-form');
    // the defaults: a plant report of this month, of the first plant (the plant picker shows once
    // the plant list is back: on a loaded CI machine that can take longer than a click's wait)
    await page.getByTestId('report-plant').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.getByTestId('report-plant').innerText()).toContain(plant.name);
    await page.getByTestId('report-start').click();

    // the history shows the file at once: exporting (with its progress) or already downloadable
    const files = page.getByTestId('report-files');
    await files
      .locator('[data-testid="report-file-exporting"], [data-testid="report-file-ready"]')
      .first()
      .waitFor({ state: 'visible' });
    const ready = files.getByTestId('report-file-ready').first();
    await ready.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await ready.innerText()).toBe('Downloadable');

    const listed = await api.call('webQueryReportFiles', { page: 0, pagesize: 10 });
    expect(listed.total).toBe(1);
    const file = listed.file[0]!;
    expect(file).toMatchObject({ scope: 'plant', type: 'monthly', plantid: plant.pid, status: 1, progress: 100 });
    expect(file.size).toBeGreaterThan(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId(`report-download-${file.id}`).click(),
    ]);
    const saved = path.join(mkdtempSync(path.join(os.tmpdir(), 'sunwatch-report-')), download.suggestedFilename());
    await download.saveAs(saved);
    expect(saved.endsWith('.xlsx')).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(saved);
    const ws = wb.worksheets[0]!;

    // row 5: headers in the user's language; then one row per day; last: the total
    expect(ws.getCell('A5').value).toBe('Date');
    expect(String(ws.getCell('B5').value)).toMatch(/kWh/);
    const perDay = await api.call('queryPlantEnergyMonthPerDay', { plantid: plant.pid, date: file.date });
    const byDay = new Map(perDay.perday.map((v) => [v.ts.slice(0, 10), Number(v.val)]));
    // The live demo fleet keeps producing while the flow runs: a finished day must equal the API
    // exactly, while the plant's current day (and so the month's total) may only have grown since
    // the file was built (energy counters never go down).
    // The plant's "today" is the UTC date give or take a day, whatever its timezone.
    const current = new Set([-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10)));
    const days: string[] = [];
    let sum = 0;
    let r = 6;
    for (
      ;
      typeof ws.getCell(`A${r}`).value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(String(ws.getCell(`A${r}`).value));
      r++
    ) {
      const day = String(ws.getCell(`A${r}`).value);
      days.push(day);
      const generated = ws.getCell(`B${r}`).value;
      expect(typeof generated, `B${r}`).toBe('number');
      sum += generated as number;
      const live = byDay.get(day) ?? 0;
      if (current.has(day)) expect(generated as number, day).toBeLessThanOrEqual(live + 0.005);
      else expect(generated as number, day).toBeCloseTo(live, 2);
    }
    expect(days[0]).toBe(file.sdate);
    expect(days[days.length - 1]).toBe(file.edate);
    const month = await api.call('queryPlantEnergyMonth', { plantid: plant.pid, date: file.date });
    expect(Number(month.energy)).toBeGreaterThan(0);
    const total = ws.getCell(`B${r}`).value as number;
    expect(total).toBeCloseTo(sum, 2);
    expect(total).toBeLessThanOrEqual(Number(month.energy) + 0.005);
  }, 120_000);

  it('both pages fit a 360 px phone', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    for (const [p, id, shot] of [
      ['/generalNew/setting/alarmform', 'subscriptions-alarm', 'reports-alarmform-360'],
      ['/generalNew/setting/reportexport', 'report-export-page', 'reports-reportexport-360'],
    ] as const) {
      await page.goto(h().url(p));
      await page.getByTestId(id).waitFor({ state: 'visible' });
      await h().screenshot(page, shot);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, p).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 60_000);
});
