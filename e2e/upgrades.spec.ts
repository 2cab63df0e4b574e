/**
 * Issue 13, the cloud upgrade page in the browser against the live demo fleet (its dataloggers are
 * MQTT clients of the embedded broker; the server sends them the signed image in chunks, they
 * verify, flash, report progress and reboot into the new version): the manufacturer opens adminNew
 * `setting/upgrade`, picks two online demo dataloggers in the server-paged target list and a signed
 * datalogger firmware of the library (seeded by the demo data), starts the batch, and watches both
 * progress bars reach 100 % with the completed outcome in the task list.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

// Bigger chunks than the default 4 KB: the 96 KB demo image goes in 6 MQTT round trips instead of
// 24 (config.upgrades reads UPGRADE_CHUNK_BYTES; the harness passes the environment to the server).
const chunkBefore = process.env.UPGRADE_CHUNK_BYTES;
process.env.UPGRADE_CHUNK_BYTES = '16384';
afterAll(() => {
  if (chunkBefore === undefined) delete process.env.UPGRADE_CHUNK_BYTES;
  else process.env.UPGRADE_CHUNK_BYTES = chunkBefore;
});

const h = useHarness({ fleet: { historyDays: 0 } });

const TARGETS = ['SWNORTH0000001', 'SWSOUTH0000001'];
/** A signed datalogger firmware of the demo library (apps/server/src/demo/seed-firmware.ts). */
const FIRMWARE = 'SW-DL1 main 1.4.2';

/** Waits until the datalogger reports as online (the fleet connects its dataloggers after the start). */
async function waitOnline(page: Page, pn: string): Promise<void> {
  const api = await tabApi(page, h().baseUrl);
  await expect
    .poll(async () => (await api.call('queryCollectorStatus', { pn })).collector[0]?.status, { timeout: 30_000, interval: 500 })
    .toBe(0);
}

describe('cloud upgrade (/adminNew/setting/upgrade)', () => {
  it('starts a batch upgrade of two online dataloggers and watches both reach 100 % completed', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.sunmaker.usr, DEMO.sunmaker.pwd, '/adminNew/setting/upgrade');
    for (const pn of TARGETS) await waitOnline(page, pn);
    const start = page.getByTestId('upg-start');
    await start.waitFor({ state: 'visible' });

    // The firmware: from the library, signed.
    await start.getByTestId('upg-firmware').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: FIRMWARE }).click();

    // The targets: searched in the server-paged list, ticked.
    const targets = page.getByTestId('upg-targets');
    for (const pn of TARGETS) {
      await targets.getByTestId('upg-target-search').locator('input').fill(pn);
      await targets.getByTestId('upg-target-search').locator('input').press('Enter');
      const row = targets.locator('.ant-table-row', { hasText: pn });
      await row.waitFor({ state: 'visible' });
      await expect.poll(() => targets.locator('.ant-table-row').count()).toBe(1);
      await row.locator('.ant-checkbox-input').check();
    }
    await expect.poll(() => page.getByTestId('upg-selected-count').textContent()).toMatch(/^2\b/);

    // Start, confirmed.
    await page.getByTestId('upg-submit').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    const result = page.getByTestId('upg-batch-result');
    await result.waitFor({ state: 'visible' });
    expect(await result.getAttribute('class')).toContain('ant-alert-success');

    // The task list follows the transfers and the flashing live until both have completed.
    const seen = new Map<string, number[]>(TARGETS.map((pn) => [pn, []]));
    for (const pn of TARGETS) {
      const bar = page.getByTestId(`upg-progress-${pn}`);
      await expect
        .poll(
          async () => {
            const p = Number(await bar.getAttribute('data-progress'));
            seen.get(pn)!.push(p);
            return p;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(100);
      await expect.poll(() => page.getByTestId(`upg-status-${pn}`).getAttribute('data-outcome')).toBe('success');
    }
    for (const pn of TARGETS) {
      const values = seen.get(pn)!;
      expect(values, pn).toEqual([...values].sort((a, b) => a - b)); // never goes back
    }
    await expect.poll(() => page.getByTestId('upg-count-3').textContent()).toMatch(/2$/);
    await h().screenshot(page, 'upgrades-batch-complete');
  });
});
