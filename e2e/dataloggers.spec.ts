/**
 * Datalogger management screens (issue 10, /adminNew/setting/datalogger) against the live demo
 * fleet: its dataloggers are MQTT clients of the embedded broker, so every command reaches the
 * simulator and its acknowledgement comes back for real.
 *  1. dealer_north reboots SWNORTH0000104: acknowledged, then seen reconnecting (log + status),
 *     and the drawer's operation history shows it (when, who, what, result);
 *  2. dealer_south resets SWSOUTH0000002 from its details: refused before YES is typed, then its
 *     devices are gone from the details;
 *  3. dealer_north batch-adds from an xlsx built here (column A PN, column B alias, no header):
 *     one result per row — added, 520 duplicate in the file, 522 exists, 772 bound, 259 invalid;
 *  4. dealer_north debugs SWNORTH0000102: the device at address 1 answers a register read,
 *     nothing answers at address 9 (err 1);
 *  plus the list and the drawer's operation history at a 360 px phone viewport without
 *  horizontal overflow.
 * Each flow uses its own dataloggers (this file starts its own server).
 */
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 1 } });
const LIST = '/adminNew/setting/datalogger';

/** A minimal xlsx: one sheet, column A PN, column B alias, no header, inline strings. */
function sheetOf(rows: ReadonlyArray<readonly [string, string]>): Buffer {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const cell = (ref: string, v: string) => `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
  const data = rows
    .map(([pn, alias], i) => `<row r="${i + 1}">${cell(`A${i + 1}`, pn)}${cell(`B${i + 1}`, alias)}</row>`)
    .join('');
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
      'xl/workbook.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="PN" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
      'xl/worksheets/sheet1.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}"><sheetData>${data}</sheetData></worksheet>`,
      ),
    }),
  );
}

async function signedIn(usr: string, pwd: string, viewport = { width: 1366, height: 900 }): Promise<Page> {
  const context = await h().browser.newContext({ baseURL: h().baseUrl, locale: 'en-US', viewport });
  context.setDefaultTimeout(20_000);
  const page = await h().newPage({ context });
  await h().signIn(page, usr, pwd);
  return page;
}

/** Opens the list filtered to one PN and waits until that row alone is shown. */
async function showOnly(page: Page, pn: string): Promise<void> {
  await page.goto(`${LIST}?q=${pn}`);
  const rows = page.locator('.ant-table-row');
  await page.locator('.ant-table-row', { hasText: pn }).first().waitFor({ state: 'visible' });
  await expect.poll(() => rows.count()).toBe(1);
}

/** Waits until the datalogger reports as online (the fleet connects its dataloggers after the start). */
async function waitOnline(page: Page, pn: string): Promise<void> {
  const api = await tabApi(page, h().baseUrl);
  await expect
    .poll(async () => (await api.call('queryCollectorStatus', { pn })).collector[0]?.status, { timeout: 60_000, interval: 1_000 })
    .toBe(0);
}

async function rowAction(page: Page, pn: string, label: string): Promise<void> {
  await page.getByTestId(`dl-actions-${pn}`).click();
  await page.locator('.ant-dropdown-menu-item', { hasText: label }).click();
}

describe('datalogger management (/adminNew/setting/datalogger)', () => {
  it('reboots a datalogger: acknowledged, then seen reconnecting', async () => {
    const pn = 'SWNORTH0000104';
    const page = await signedIn(DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    await waitOnline(page, pn);
    await showOnly(page, pn);
    await expect.poll(() => page.locator('.ant-table-row').getByTestId('dl-status').textContent()).toBe('Online');
    await rowAction(page, pn, 'Reboot');
    const dialog = page.getByTestId('dl-reboot-dialog');
    await dialog.getByTestId('dl-reboot-run').click();
    const result = dialog.getByTestId('dl-reboot-result');
    await result.waitFor({ state: 'visible' });
    expect(await result.textContent()).toContain('Acknowledged');
    await expect.poll(() => result.getAttribute('data-state'), { timeout: 60_000, interval: 500 }).toBe('reconnected');
    await h().screenshot(page, 'dataloggers-reboot');
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    // the log shows the command, its acknowledgement and the new connection
    await page.getByTestId('dl-open').click();
    const drawer = page.getByTestId('dl-drawer');
    await drawer.getByRole('tab', { name: 'Log' }).click();
    const log = drawer.getByTestId('dl-log');
    await log.locator('[data-kind=ack]').first().waitFor({ state: 'visible' });
    await log.locator('[data-kind=connect]').first().waitFor({ state: 'visible' });
    expect(await log.locator('.ant-table-row', { hasText: 'reboot' }).count()).toBeGreaterThan(0);
    // the range picker refuses future days
    await log.getByTestId('dl-log-range').first().click();
    await expect
      .poll(() => page.locator('.ant-picker-dropdown:visible .ant-picker-cell-disabled').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    // the operation history shows the reboot: when, who, what and its result
    await drawer.getByRole('tab', { name: 'Operation history' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('dtab')).toBe('history');
    const row = drawer.getByTestId('history-table').locator('.ant-table-row', { hasText: 'Reboot' }).first();
    await row.waitFor({ state: 'visible' });
    const text = (await row.textContent()) ?? '';
    expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(text).toContain('The datalogger itself');
    expect(text).toContain(DEMO.dealer_north.usr);
    expect(text).toContain('Done');
    await h().screenshot(page, 'dataloggers-history');
    await page.context().close();
  }, 180_000);

  it('resets a datalogger only after YES is typed, and its devices are gone', async () => {
    const pn = 'SWSOUTH0000002';
    const page = await signedIn(DEMO.dealer_south.usr, DEMO.dealer_south.pwd);
    await waitOnline(page, pn);
    await showOnly(page, pn);
    await page.getByTestId('dl-open').click();
    const drawer = page.getByTestId('dl-drawer');
    await drawer.getByRole('tab', { name: 'Devices' }).click();
    const devices = drawer.getByTestId('dl-detail-devices');
    await expect.poll(() => devices.locator('.ant-table-row').count()).toBe(2);

    await drawer.getByTestId('dl-drawer-reset').click();
    const dialog = page.getByTestId('dl-reset-dialog');
    const run = dialog.getByTestId('dl-reset-run');
    expect(await run.isDisabled()).toBe(true);
    await dialog.getByTestId('dl-reset-yes').fill('yes');
    expect(await run.isDisabled()).toBe(true);
    await dialog.getByTestId('dl-reset-yes').fill('YES');
    expect(await run.isDisabled()).toBe(false);
    await h().screenshot(page, 'dataloggers-reset-yes');
    await run.click();
    await page.locator('.ant-message', { hasText: `Datalogger ${pn} reset: 2 devices` }).waitFor({ state: 'visible', timeout: 30_000 });
    // the details' device list is read again at once: the two devices are gone
    await drawer.getByText('No device reports through this datalogger').waitFor({ state: 'visible' });
    await h().screenshot(page, 'dataloggers-reset');
    await page.context().close();
  }, 180_000);

  it('batch-adds dataloggers from an xlsx with a result per row', async () => {
    const page = await signedIn(DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    await page.goto(LIST);
    await page.getByTestId('dl-add-batch').click();
    const dialog = page.getByTestId('dl-add-dialog');
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'dataloggers.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: sheetOf([
        ['SWNORTH0000901', 'Workshop logger'],
        ['SWNORTH0000901', 'Same again'],
        ['SWNORTH0000105', 'Already in stock'],
        ['SWNORTH0000001', 'Anna’s'],
        ['bad-pn', ''],
      ]),
    });
    await dialog.getByTestId('dl-batch-run').click();
    const result = dialog.getByTestId('dl-batch-result');
    await result.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await result.textContent()).toContain('1 of 5 added, 4 failed');
    const rows = result.locator('.ant-table-row');
    expect(await rows.count()).toBe(5);
    const errOf = async (i: number) => {
      const err = rows.nth(i).locator('[data-err]');
      return (await err.count()) === 0 ? '0' : ((await err.getAttribute('data-err')) ?? '?');
    };
    expect([await errOf(0), await errOf(1), await errOf(2), await errOf(3), await errOf(4)]).toEqual(['0', '520', '522', '772', '259']);
    expect(await rows.nth(0).textContent()).toContain('Added');
    await h().screenshot(page, 'dataloggers-batch');
    // the new datalogger is in the list (a fresh visit of the page)
    await showOnly(page, 'SWNORTH0000901');
    expect(await page.locator('.ant-table-row').textContent()).toContain('Workshop logger');
    await page.context().close();
  }, 180_000);

  it('debugs a datalogger: the device answers, an empty address does not', async () => {
    const pn = 'SWNORTH0000102';
    const page = await signedIn(DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    await waitOnline(page, pn);
    await showOnly(page, pn);
    await rowAction(page, pn, 'Debug');
    const dialog = page.getByTestId('dl-debug-dialog');
    // a register read (function 03, start 0000, two registers) for the device at address 1
    await dialog.getByTestId('dl-debug-cmd').fill('03 00 00 00 02');
    await dialog.getByTestId('dl-debug-send').click();
    const answer = dialog.getByTestId('dl-debug-answer');
    await answer.waitFor({ state: 'visible', timeout: 30_000 });
    // Modbus-style: address 1, function 3, 4 bytes of two registers, CRC
    expect(await answer.textContent()).toMatch(/^01 03 04( [0-9A-F]{2}){6}/);
    await dialog.getByTestId('dl-debug-addr').fill('9');
    await dialog.getByTestId('dl-debug-send').click();
    const error = dialog.getByTestId('dl-debug-error');
    await error.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await error.textContent()).toContain('Operation failed');
    await h().screenshot(page, 'dataloggers-debug');
    await page.context().close();
  }, 180_000);

  it('fits a 360 px phone without horizontal overflow', async () => {
    const page = await signedIn(DEMO.dealer_north.usr, DEMO.dealer_north.pwd, { width: 360, height: 740 });
    await page.goto(LIST);
    await page.locator('.ant-table-row').first().waitFor({ state: 'visible' });
    await h().screenshot(page, 'dataloggers-phone');
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    // the drawer's operation history (the reboot of the first flow) fits too
    await page.goto(`${LIST}?detail=SWNORTH0000104&dtab=history`);
    await page.getByTestId('history-table').locator('.ant-table-row', { hasText: 'Reboot' }).first().waitFor({ state: 'visible' });
    await h().screenshot(page, 'dataloggers-history-phone');
    expect(await fits()).toBe(true);
    await page.context().close();
  }, 120_000);
});
