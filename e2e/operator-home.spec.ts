/**
 * Issue 14, operator home: the operator signs in and lands on /adminNewStatr/home, which shows the
 * platform at a glance (not the placeholder): account and plant counts, the datalogger and device
 * donuts, the hourly charts, the slowest actions and the queues. The demo fleet publishes over
 * MQTT; once the server has written its per-minute ingest counts the 24 h frame count is not 0.
 */
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness({ fleet: { historyDays: 0 } });

describe('operator: home', () => {
  it('shows the platform figures and charts, and the ingest counted by the server', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home');
    const home = page.getByTestId('operator-home');
    await home.waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/adminNewStatr/home');
    expect(await page.getByText('not available yet').count()).toBe(0);

    // the figure's value only (its title may hold digits: "Frames, 24 h")
    const figure = async (id: string) =>
      Number(
        (await page.getByTestId(id).locator('.ant-statistic-content-value').first().innerText()).replace(/\D+/g, ''),
      );
    // the seeded demo: one manufacturer at least, distributors, owners, plants
    expect(await figure('home-manufacturers')).toBeGreaterThanOrEqual(1);
    expect(await figure('home-distributors')).toBeGreaterThanOrEqual(1);
    expect(await figure('home-owners')).toBeGreaterThanOrEqual(1);
    expect(await figure('home-plants')).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('home-storage').innerText()).toMatch(/\d+(\.\d)? (KB|MB|GB)/);

    // charts: datalogger and device donuts, hourly bars of ingest and calls
    for (const id of [
      'home-dataloggers',
      'home-devices',
      'home-frames-chart',
      'home-points-chart',
      'home-calls-chart',
    ]) {
      await page.getByTestId(id).locator('svg[role="img"]').waitFor();
    }
    expect(await page.getByTestId('home-slowest').innerText()).toMatch(/p99/);
    expect(await page.getByTestId('home-queues').innerText()).toContain('Mails waiting');

    // the fleet's frames reach the home once the minute they came in is written (≤ 1 min + 1 s)
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.waitForTimeout(2_000);
          return figure('home-frames24h');
        },
        { timeout: 100_000, interval: 3_000 },
      )
      .toBeGreaterThan(0);
    // the action calls of this session are in the action log
    expect(await page.getByTestId('home-slowest').locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    await h().screenshot(page, 'operator-home');
    await page.close();
  }, 180_000);

  it('fits a 360 px phone without sideways scrolling', async () => {
    const page = await h().newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home');
    await page.getByTestId('operator-home').waitFor({ timeout: 30_000 });
    await page.getByTestId('home-devices').locator('svg').first().waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await h().screenshot(page, 'operator-home-phone');
    await page.close();
  }, 60_000);
});
