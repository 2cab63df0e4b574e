/**
 * Navigation and language (issue 8): the edition switch opens a page the account may open, a
 * viewer's menus hold only what she can use and every page says she is read-only, and German
 * names a page the same in its menu entry and its title.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { areaMenu, DEMO, pathOf } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

/** Every label of the menus on the page (the area sider and, in settings, the settings menu). */
async function menuLabels(page: Page): Promise<string[]> {
  return (await page.locator('.ant-menu-item, .ant-menu-item-group-title').allInnerTexts()).map((t) => t.trim());
}

describe('navigation', () => {
  it('north_ops switches edition from the device list to the classic device list and back (no 401)', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.north_ops.usr, DEMO.north_ops.pwd, '/adminNew/device');
    await areaMenu(page).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Switch to classic edition' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/device');
    await areaMenu(page).waitFor({ state: 'visible' });
    expect(pathOf(page)).toBe('/admin/device');
    expect(await page.getByText('No permission, please contact the higher-level administrator').count()).toBe(0);
    // her classic menu: devices and alarms, no overview she may not open (the classic layout
    // replaces the new edition's menu once its chunk is in, so wait for it rather than read once)
    await expect.poll(() => menuLabels(page)).toEqual(expect.arrayContaining(['Devices', 'Alarms', 'Settings']));
    const labels = await menuLabels(page);
    expect(labels).not.toContain('Home');
    await h().screenshot(page, 'navigation-north_ops-classic');

    await page.getByRole('button', { name: 'Switch to new edition' }).click();
    await page.waitForURL((u) => u.pathname === '/adminNew/device');
    await areaMenu(page).waitFor({ state: 'visible' });
    // the classic area root, opened directly, lands on her first page too
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/admin/device');
    await page.context().close();
  });

  it('a viewer sees no entries she can never use, is refused them, and every page says read-only', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.viewer_cara.usr, DEMO.viewer_cara.pwd, '/generalNew/home');
    await areaMenu(page).waitFor({ state: 'visible' });
    const notice = page.getByTestId('read-only-notice');
    await notice.waitFor({ state: 'visible' });
    expect(await notice.innerText()).toContain('You can view the plants shared with you');

    await page.goto('/generalNew/setting');
    await page.waitForURL((u) => u.pathname === '/generalNew/setting/alarmform');
    await notice.waitFor({ state: 'visible' });
    // the settings layout and its menu load lazily after the area layout
    await page.getByRole('menuitem', { name: 'Report export' }).waitFor({ state: 'visible' });
    const labels = await menuLabels(page);
    expect(labels).toEqual(expect.arrayContaining(['My devices', 'Plants', 'Alarm email settings', 'Report export']));
    for (const never of ['Sub-accounts', 'Data plan recharge', 'Recharge records', 'Acceleration records', 'Dataloggers', 'Rate settings']) {
      expect(labels, never).not.toContain(never);
    }
    await h().screenshot(page, 'navigation-viewer-settings');

    await page.goto('/generalNew/setting/browseAccount');
    await page.waitForURL((u) => u.pathname === '/401');
    await page.goto('/generalNew/setting/rechargePay');
    await page.waitForURL((u) => u.pathname === '/401');
    await page.context().close();
  });

  it('an owner sees no read-only notice and keeps her settings', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd, '/generalNew/setting');
    await page.waitForURL((u) => u.pathname === '/generalNew/setting/datalogger');
    await areaMenu(page).waitFor({ state: 'visible' });
    await page.getByRole('menuitem', { name: 'Sub-accounts' }).waitFor({ state: 'visible' });
    expect(await menuLabels(page)).toEqual(expect.arrayContaining(['Sub-accounts', 'Data plan recharge']));
    expect(await page.getByTestId('read-only-notice').count()).toBe(0);
    await page.context().close();
  });

  it('German uses one term: the plant page is "Anlagen" in the menu and as its title', async () => {
    const page = await h().newPage({ locale: 'de-DE' });
    await page.addInitScript(() => localStorage.setItem('sw.lang', 'de_DE'));
    await h().signIn(page, DEMO.owner_anna.usr, DEMO.owner_anna.pwd, '/generalNew/project');
    await areaMenu(page).waitFor({ state: 'visible' });
    const selected = (await areaMenu(page).locator('.ant-menu-item-selected').innerText()).trim();
    const title = page.locator('.ant-card-head-title').first();
    await title.waitFor({ state: 'visible' });
    expect(selected).toBe('Anlagen');
    expect((await title.innerText()).trim()).toBe('Anlagen');
    const labels = await menuLabels(page);
    expect(labels).toEqual(expect.arrayContaining(['Meine Geräte', 'Anlagen', 'Geräteliste']));
    // no rival name for the plant anywhere on the page, nor a second "Meine …" in the header
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/Projekt/);
    expect(body).not.toContain('Meine Anlagen');
    await h().screenshot(page, 'navigation-de-plants');
    await page.context().close();
  });
});
