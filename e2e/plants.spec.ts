/**
 * Plant management and the plant page (issue 10, /generalNew/project, /generalNew/project/:pid):
 *  1. an owner (owner_dora, no plant yet) creates a plant in the browser, its location picked by a
 *     click on the map; the form refuses what the §5 rules refuse first (a negative price, a
 *     latitude out of range); the plant is in the list and its page shows the picked coordinates;
 *     before that, an administrator's owner picker finds dora although she has no plant yet;
 *  2. dora binds a datalogger (one of her dealer's stock) from the plant page's "Add datalogger",
 *     the plant preselected; it shows in the plant's datalogger list; the prices are edited from
 *     the list; deleting is refused with the 517 message while the datalogger is bound;
 *  3. a viewer sees no write button; the form and the page at 360 px have no sideways scroll.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { ApiClient } from '@sunwatch/protocol';
import { areaMenu, DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

// the demo fleet live (one day of history): the stock datalogger bound in the flow reports, and
// owner_anna's hybrid plant has a power curve, a battery and a grid meter reading
const h = useHarness({ fleet: { historyDays: 1 } });

const DORA = { usr: 'owner_dora', pwd: 'Owner_2026' };
const STOCK_PN = 'SWNORTH0000103';
const PLANT = 'Dora Lakeside Barn';

async function contextFor(viewport = { width: 1366, height: 900 }): Promise<BrowserContext> {
  const context = await h().browser.newContext({ baseURL: h().baseUrl, locale: 'en-US', viewport });
  context.setDefaultTimeout(20_000);
  return context;
}

async function signedIn(usr: string, pwd: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await h().newPage({ context: await contextFor(viewport) });
  await h().signIn(page, usr, pwd);
  if (!viewport || viewport.width > 600) await areaMenu(page).waitFor({ state: 'visible' });
  return page;
}

const apiOf = (page: Page): Promise<ApiClient> => tabApi(page, h().baseUrl);

async function noHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll, `${what}: the page does not scroll sideways`).toBeLessThanOrEqual(width);
}

async function pickOption(page: Page, field: string, option: string, search = false): Promise<void> {
  await page.locator('.ant-form-item', { hasText: field }).locator('.ant-select').first().click();
  // a long list is virtual: search for the option instead of scrolling to it
  if (search) await page.keyboard.type(option);
  const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first();
  await item.waitFor({ state: 'visible' });
  await item.click();
}

describe('plants (projects)', () => {
  let pid = 0;
  let lon = 0;
  let lat = 0;

  it("an administrator's owner picker searches the owners in its reach: one without any plant is offered", async () => {
    const dealer = await signedIn(DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    await dealer.goto('/adminNew/project');
    await dealer.getByTestId('plant-create').click();
    const dialog = dealer.locator('.ant-modal').filter({ has: dealer.getByTestId('plant-form') });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByTestId('plant-owner').click();
    await dealer.keyboard.type('dora');
    // owner_dora has no plant yet: the old picker (owners of visible plants) could not offer her
    const option = dealer.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: DORA.usr });
    await option.waitFor({ state: 'visible' });
    // the search is debounced and answered by the server: the list narrows to her once it is back
    await expect.poll(() => dealer.locator('.ant-select-dropdown:visible .ant-select-item-option').count()).toBe(1);
    await option.click();
    expect(await dialog.getByTestId('plant-owner').innerText()).toContain(DORA.usr);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dealer.context().close();
  });

  it('an owner creates a plant, its location picked on the map; it is listed and its page shows the coordinates', async () => {
    const page = await signedIn(DORA.usr, DORA.pwd);
    const api = await apiOf(page);
    const before = await api.call('webQueryPlants', { page: 0, pagesize: 50 });
    await page.goto('/generalNew/project');
    await page.getByTestId('plant-create').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('plant-form') });
    await dialog.waitFor({ state: 'visible' });

    await dialog.getByLabel('Plant name').fill(PLANT);
    await dialog.getByLabel('Rated power').fill('12.5');
    await dialog.getByLabel('Install date').click();
    await page.locator('.ant-picker-dropdown:visible .ant-picker-today-btn, .ant-picker-dropdown:visible td.ant-picker-cell-today').first().click();
    await pickOption(page, 'Time zone', 'GMT+5:30', true);
    await pickOption(page, 'Currency', 'INR');
    await dialog.getByLabel('City').fill('Pune');
    await dialog.getByLabel('Country').fill('India');
    await dialog.getByTestId('plant-soldProfit').fill('-1');

    // the map: a click places the pin and fills the coordinates
    const map = dialog.getByTestId('location-picker');
    await map.locator('.leaflet-container').waitFor({ state: 'visible' });
    await map.scrollIntoViewIfNeeded();
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.62, box.y + box.height * 0.45);
    await expect.poll(async () => dialog.getByTestId('plant-lon').inputValue()).not.toBe('');
    lon = Number(await dialog.getByTestId('plant-lon').inputValue());
    lat = Number(await dialog.getByTestId('plant-lat').inputValue());
    expect(Math.abs(lon)).toBeLessThanOrEqual(180);
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    await map.locator('.sw-location-pin').waitFor({ state: 'visible' });
    await h().screenshot(page, 'plants-create-form');

    // the rules first: a negative price is refused under its field, nothing is sent
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('The price cannot be negative').waitFor({ state: 'visible' });
    expect((await api.call('webQueryPlants', { page: 0, pagesize: 50 })).total).toBe(before.total);
    await dialog.getByTestId('plant-soldProfit').fill('0.09');
    await dialog.getByTestId('plant-feedProfit').fill('0.05');

    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // the new plant's page opens
    await page.waitForURL(/\/generalNew\/project\/\d+$/);
    pid = Number(/\/project\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    await page.getByTestId('plant-name').filter({ hasText: PLANT }).waitFor({ state: 'visible' });
    expect(await page.getByTestId('plant-coordinates').innerText()).toBe(`${lat}, ${lon}`);
    const info = await api.call('queryPlantInfo', { plantid: pid });
    expect(info).toMatchObject({ name: PLANT, nominalPower: expect.stringMatching(/^12\.5/) as unknown, isDefault: true });
    expect(info.address.timezone).toBe(19800);
    expect(Number(info.address.lon)).toBeCloseTo(lon, 5);
    expect(Number(info.address.lat)).toBeCloseTo(lat, 5);
    expect(Number((info.profit as unknown as Record<string, string>).feedProfit)).toBeCloseTo(0.05, 5);

    // in the list, its name opens its page
    await page.goto('/generalNew/project');
    const link = page.getByTestId('plant-link').filter({ hasText: PLANT });
    await link.waitFor({ state: 'visible' });
    await link.click();
    await page.waitForURL(new RegExp(`/generalNew/project/${pid}$`));
    await page.getByTestId('plant-page').waitFor({ state: 'visible' });
    await page.context().close();
  });

  it('a datalogger bound from the plant page shows in its list; prices are edited; delete is refused with 517', async () => {
    expect(pid).toBeGreaterThan(0);
    const page = await signedIn(DORA.usr, DORA.pwd);
    const api = await apiOf(page);
    await page.goto(`/generalNew/project/${pid}`);
    await page.getByTestId('plant-dataloggers').getByText('No datalogger is bound to this plant yet').waitFor({ state: 'visible' });
    // "Add datalogger": the datalogger screens' dialog with this plant already chosen
    await page.getByTestId('plant-add-datalogger').click();
    const add = page.getByTestId('dl-add-dialog');
    await add.getByTestId('dl-add-pn').waitFor({ state: 'visible' });
    expect(await add.getByTestId('dl-add-plant').innerText()).toContain(PLANT);
    await add.getByTestId('dl-add-pn').fill(STOCK_PN);
    await add.getByTestId('dl-add-alias').fill('Barn logger');
    await add.getByTestId('dl-add-submit').click();
    await add.getByTestId('dl-add-done').waitFor({ state: 'visible' });
    await h().screenshot(page, 'plants-add-datalogger');
    await add.getByRole('button', { name: 'Close' }).first().click();
    await page.getByTestId('dl-add-pn').waitFor({ state: 'detached' });
    // bound to this plant (not to her default one by a distribution), listed on its page
    const logger = page.locator(`[data-testid="plant-datalogger"][data-pn="${STOCK_PN}"]`);
    await logger.waitFor({ state: 'visible' });
    expect(await logger.innerText()).toContain('Barn logger');
    const tree = await api.call('queryPlantDeviceView', { plantid: pid });
    expect(tree.collector.map((c) => c.pn)).toEqual([STOCK_PN]);
    await h().screenshot(page, 'plants-page');

    // edit the prices from the list
    await page.goto('/generalNew/project');
    const row = page.locator('.ant-table-row', { hasText: PLANT });
    await row.waitFor({ state: 'visible' });
    await row.getByTestId('plant-actions').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Edit' }).click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('plant-form') });
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => dialog.getByTestId('plant-soldProfit').inputValue()).toMatch(/^0\.09/);
    await dialog.getByTestId('plant-soldProfit').fill('0.12');
    await dialog.getByTestId('plant-purchProfit').fill('0.31');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const info = await api.call('queryPlantInfo', { plantid: pid });
    expect(Number(info.profit.soldProfit)).toBeCloseTo(0.12, 5);
    expect(Number(info.profit.purchProfit)).toBeCloseTo(0.31, 5);
    expect(info.address.timezone).toBe(19800);

    // delete: refused while the datalogger is bound, with the 517 message; the plant stays
    await page.goto(`/generalNew/project/${pid}`);
    await page.getByTestId('plant-delete').click();
    await page.locator('#confirm-delete-plant').click();
    const error = page.locator('.plant-delete-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.innerText()).toContain('still has dataloggers');
    expect((await api.call('queryPlantInfo', { plantid: pid })).name).toBe(PLANT);
    await page.context().close();
  });

  it('a viewer sees no write buttons; the form and the page fit a 360 px phone', async () => {
    const viewer = await signedIn(DEMO.viewer_cara.usr, DEMO.viewer_cara.pwd);
    await viewer.goto('/generalNew/project');
    const link = viewer.getByTestId('plant-link').first();
    await link.waitFor({ state: 'visible' });
    expect(await viewer.getByTestId('plant-create').count()).toBe(0);
    expect(await viewer.getByTestId('plant-actions').count()).toBe(0);
    await link.click();
    await viewer.getByTestId('plant-page').waitFor({ state: 'visible' });
    expect(await viewer.getByTestId('plant-edit').count()).toBe(0);
    await viewer.context().close();

    const phone = await signedIn(DORA.usr, DORA.pwd, { width: 360, height: 740 });
    await phone.goto(`/generalNew/project/${pid}`);
    await phone.getByTestId('plant-name').waitFor({ state: 'visible' });
    await phone.locator(`[data-testid="plant-datalogger"]`).first().waitFor({ state: 'visible' });
    await noHorizontalOverflow(phone, 'plant page');
    await h().screenshot(phone, 'plants-page-phone');
    await phone.getByTestId('plant-edit').click();
    const dialog = phone.locator('.ant-modal').filter({ has: phone.getByTestId('plant-form') });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByTestId('location-picker').locator('.leaflet-container').waitFor({ state: 'visible' });
    await noHorizontalOverflow(phone, 'plant form');
    await h().screenshot(phone, 'plants-form-phone');
    await phone.context().close();
  });

  it('a plant with live data: power curve, energy flow with battery, device links both ways', async () => {
    const page = await signedIn(DEMO.owner_anna.usr, DEMO.owner_anna.pwd);
    const api = await apiOf(page);
    const anna = (await api.call('webQueryPlants', { page: 0, pagesize: 10 })).plant.find((p) => p.name === 'Anna Elbblick Home')!;
    await page.goto(`/generalNew/project/${anna.pid}`);
    const curve = page.getByTestId('plant-power-curve').getByTestId('echart');
    await curve.waitFor({ state: 'visible' });
    await expect.poll(async () => Number(await curve.getAttribute('data-points'))).toBeGreaterThan(0);
    // consumption comes with the plant's row (its hybrid measures it), the battery with its SOC and
    // power; the hybrid has no grid power field, so the plant's grid exchange is unknown and not drawn
    for (const node of ['pv', 'battery', 'load']) await page.getByTestId(`plant-flow-${node}`).waitFor({ state: 'visible' });
    await expect.poll(async () => page.getByTestId('plant-flow-battery').innerText()).toMatch(/SOC \d/);
    // the battery's own power although the plant's grid exchange is unmeasured (never "--")
    await expect.poll(async () => page.getByTestId('plant-flow-battery').innerText()).toMatch(/\d\s?k?W\b/);
    expect(await page.getByTestId('plant-flow-battery').getAttribute('data-direction')).toMatch(/^(in|out|none)$/);
    expect(await page.getByTestId('plant-flow-grid').count()).toBe(0);
    // her weather station (devcode 5125): the environment card with its irradiance
    const env = page.getByTestId('plant-env');
    await env.waitFor({ state: 'visible' });
    expect(await env.innerText()).toContain('Irradiance');
    const tile = page.getByTestId('plant-figure-ENERGY_TODAY');
    await expect.poll(async () => (await tile.innerText()).replace(/\s+/g, ' ')).toMatch(/Energy today \d/);
    // month view: one bar per day of the plant's month
    await page.getByText('Month', { exact: true }).click();
    const bars = page.getByTestId('plant-energy-chart').getByTestId('echart');
    await bars.waitFor({ state: 'visible' });
    expect(Number(await bars.getAttribute('data-points'))).toBeGreaterThanOrEqual(28);
    await h().screenshot(page, 'plants-page-live');

    // its devices link to the device detail, whose plant name links back
    const device = page.getByTestId('plant-device').getByRole('link').first();
    await device.click();
    await page.waitForURL(/\/generalNew\/deviceno\/SWNORTH0000001\//);
    const back = page.getByTestId('device-plant-link');
    await back.waitFor({ state: 'visible' });
    expect(await back.innerText()).toBe('Anna Elbblick Home');
    await back.click();
    await page.waitForURL(new RegExp(`/generalNew/project/${anna.pid}$`));
    await page.context().close();
  });
});
