/**
 * Issue 13 in the classic edition: /admin/setting/firmware is a tabbed page (library | upgrade
 * firmware | default firmware | upgrade strategies | cloud upgrade; apps/web/src/app/routes.ts).
 * sunmaker (manufacturer) uploads a signed image in the library tab and sees it listed as signed,
 * opens the default-firmware tab, the strategies tab (a strategy made through the API is listed;
 * its editor opens with its values), and the cloud-upgrade tab, where she starts a batch upgrade
 * of an online demo datalogger and watches its progress bar reach 100 % completed. Each tab is an
 * address of its own (a reload keeps it). The classic owner area keeps the owner's firmware page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { demoFirmwareSigningKey, signFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import { DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

// Bigger chunks than the default 4 KB (as upgrades.spec.ts): the 96 KB demo image in 6 round trips.
const chunkBefore = process.env.UPGRADE_CHUNK_BYTES;
process.env.UPGRADE_CHUNK_BYTES = '16384';
afterAll(() => {
  if (chunkBefore === undefined) delete process.env.UPGRADE_CHUNK_BYTES;
  else process.env.UPGRADE_CHUNK_BYTES = chunkBefore;
});

const h = useHarness({ fleet: { historyDays: 0 } });

const BASE = '/admin/setting/firmware';
const TARGET = 'SWNORTH0000001';
/** A signed datalogger firmware of the demo library (apps/server/src/demo/seed-firmware.ts). */
const FIRMWARE = { name: 'SW-DL1 main', version: '1.4.2' };
const TABS = ['Firmware library', 'Upgrade firmware', 'Default firmware', 'Upgrade strategies', 'Cloud upgrade'];

/** `YYYY-MM-DD HH:mm` in UTC, `days` from now. */
function utc(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16).replace('T', ' ');
}

async function openTab(page: Page, tab: string, url: string): Promise<void> {
  await page.getByTestId(`route-tab-${tab}`).click();
  await page.waitForURL((u) => u.pathname === url);
}

describe('firmware in the classic admin edition (/admin/setting/firmware)', () => {
  it('library, default firmware, strategies and a cloud upgrade to 100 %, each in its tab', async () => {
    const image = randomBytes(4096);
    const sha = createHash('sha256').update(image).digest('hex');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fw-old-e2e-')), 'classic-7.7.7.bin');
    writeFileSync(file, image);
    const key = demoFirmwareSigningKey();

    const page = await h().newPage();
    await h().signIn(page, DEMO.sunmaker.usr, DEMO.sunmaker.pwd, BASE);
    expect(new URL(page.url()).pathname).toBe(BASE);
    await page.getByTestId('fw-library-page').waitFor();
    await page.getByTestId('route-tab-upgrade').waitFor();
    expect((await page.getByRole('tab').allInnerTexts()).map((s) => s.trim())).toEqual(TABS);
    // the settings menu of the classic edition keeps its one firmware entry, selected
    expect(await page.locator('[data-testid=settings-menu] .ant-menu-item-selected').innerText()).toBe('Firmware');

    // Library: upload a signed image; it is listed as signed by the demo key.
    await page.getByTestId('fw-upload').click();
    const form = page.getByTestId('fw-upload-form');
    await form.locator('input[type=file]').setInputFiles(file);
    await page.getByTestId('fw-form-name').fill('Classic image');
    await page.getByTestId('fw-form-version').fill('7.7.7');
    await page.getByTestId('fw-form-signature').fill(signFirmwareDigest(key.privateKey, sha));
    await page.getByTestId('fw-upload-ok').click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByTestId('fw-row').filter({ hasText: 'Classic image' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.getByTestId('fw-signed').getAttribute('data-signed')).toBe('1');
    expect(await row.innerText()).toContain(key.fingerprint);

    // Default firmware: its own tab, the demo default of SW-DL4G listed.
    await openTab(page, 'default', `${BASE}/default`);
    await page.locator('[data-testid=fw-default-row][data-type="SW-DL4G"]').waitFor();
    expect(await page.getByTestId('fw-library-page').count()).toBe(0);

    // Strategies: one made through the API (not started, so editable) is listed; its editor opens.
    const api = await tabApi(page, h().baseUrl);
    const fw = (await api.call('queryFirmwares', { page: 0, pagesize: 10, search: FIRMWARE.name })).firmware.find(
      (f) => f.name === FIRMWARE.name && f.version === FIRMWARE.version,
    )!;
    expect(fw, 'seeded firmware').toBeDefined();
    const name = `Classic rollout ${Date.now() % 100_000}`;
    await api.call('addUpgradeStrategy', {
      name,
      description: 'Made by the classic edition browser flow',
      firmware: fw.firmware,
      type: 0,
      baudRate: 9600,
      timezone: 0,
      startTime: utc(7),
      endTime: utc(37),
      method: 1,
      devices: 'SWSOUTH0000001',
    });
    await openTab(page, 'strategy', `${BASE}/strategy`);
    const strategy = page.getByTestId('strategy-row').filter({ hasText: name });
    await strategy.waitFor();
    expect(await strategy.getByTestId('strategy-row-status').getAttribute('data-status')).toBe('0');
    await strategy.getByTestId('strategy-edit').click();
    const editor = page.getByTestId('strategy-form');
    await editor.waitFor({ state: 'visible' });
    await expect.poll(() => editor.getByTestId('strategy-name').inputValue()).toBe(name);
    await page.locator('.ant-modal-footer:visible .ant-btn').first().click();
    await editor.waitFor({ state: 'hidden' });
    // a deep link (reload) keeps the tab
    await page.reload();
    await page.getByTestId('strategy-row').filter({ hasText: name }).waitFor();
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Upgrade strategies');

    // Cloud upgrade: start a batch of one online datalogger and watch it complete.
    await openTab(page, 'upgrade', `${BASE}/upgrade`);
    await expect
      .poll(async () => (await api.call('queryCollectorStatus', { pn: TARGET })).collector[0]?.status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(0);
    const start = page.getByTestId('upg-start');
    await start.waitFor({ state: 'visible' });
    await start.getByTestId('upg-firmware').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', {
        hasText: `${FIRMWARE.name} ${FIRMWARE.version}`,
      })
      .click();
    const targets = page.getByTestId('upg-targets');
    await targets.getByTestId('upg-target-search').locator('input').fill(TARGET);
    await targets.getByTestId('upg-target-search').locator('input').press('Enter');
    const target = targets.locator('.ant-table-row', { hasText: TARGET });
    await target.waitFor({ state: 'visible' });
    await expect.poll(() => targets.locator('.ant-table-row').count()).toBe(1);
    await target.locator('.ant-checkbox-input').check();
    await page.getByTestId('upg-submit').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    const result = page.getByTestId('upg-batch-result');
    await result.waitFor({ state: 'visible' });
    expect(await result.getAttribute('class')).toContain('ant-alert-success');
    const bar = page.getByTestId(`upg-progress-${TARGET}`);
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const p = Number(await bar.getAttribute('data-progress'));
          seen.push(p);
          return p;
        },
        { timeout: 45_000, interval: 250 },
      )
      .toBe(100);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await expect.poll(() => page.getByTestId(`upg-status-${TARGET}`).getAttribute('data-outcome')).toBe('success');
    await h().screenshot(page, 'firmware-old-edition-upgrade');

    // Back to the library tab: the uploaded image is still there.
    await openTab(page, 'index', BASE);
    await expect.poll(() => page.getByTestId('fw-row').filter({ hasText: 'Classic image' }).count()).toBe(1);
    await page.close();
  }, 240_000);

  it('the classic owner area keeps the owner firmware page', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd, '/general/setting/firmware');
    expect(new URL(page.url()).pathname).toBe('/general/setting/firmware');
    await page.getByTestId('upg-owner-page').waitFor();
    expect(await page.getByTestId('route-tabs').count()).toBe(0);
    await page.close();
  }, 120_000);
});
