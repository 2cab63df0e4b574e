/**
 * Personal settings and the header menu (issue 12):
 *  a. an owner's first sign-in offers the new-user guide (opened, then remembered); the owner
 *     edits the basic info and uploads an avatar, whose thumbnail the header shows;
 *  b. skin (header menu, then the old admin edition's setting/customize page) and edition
 *     switches persist across a reload;
 *  c. a dialog (the operating manual) dragged and resized with the mouse, never below 400 × 300,
 *     keyboard too; a title click closes an open select (plant form); a confirm dragged;
 *  d. the personal page and the header menu at a 360 px phone width: no horizontal overflow; the
 *     dialog fills the width, without a grip, and does not move.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { DEMO } from './entry-page.ts';
import { settle, tabApi, useHarness } from './harness.ts';

const h = useHarness();

async function signedIn(usr: string, pwd: string, viewport = { width: 1280, height: 860 }): Promise<Page> {
  const context = await h().browser.newContext({ baseURL: h().baseUrl, locale: 'en-US', viewport });
  context.setDefaultTimeout(15_000);
  const page = await h().newPage({ context });
  await h().signIn(page, usr, pwd);
  await page.waitForURL((u) => /^\/(general|admin)/.test(u.pathname));
  return page;
}

function png(width: number, height: number): Buffer {
  const p = new PNG({ width, height });
  for (let i = 0; i < p.data.length; i += 4) {
    p.data[i] = 30;
    p.data[i + 1] = (i / 4) % 256;
    p.data[i + 2] = 200;
    p.data[i + 3] = 255;
  }
  return PNG.sync.write(p);
}

/** Waits out a dialog's open animation: its box the same in two frames in a row. */
async function steady(page: Page, testId: string) {
  const target = page.getByTestId(testId);
  await target.waitFor({ state: 'visible' });
  let last = '';
  for (let i = 0; i < 100; i++) {
    const now = JSON.stringify(await target.boundingBox());
    if (now === last) return;
    last = now;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  throw new Error(`${testId} did not settle`);
}

/** A real mouse drag from `from` by (dx, dy), in two legs of a few steps. */
async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 4 });
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 4 });
  await page.mouse.up();
}

/** Drags the open dialog's resize grip by (dx, dy) with the mouse; the dialog's box after. */
async function dragGrip(page: Page, dx: number, dy: number) {
  const grip = (await page.getByTestId('dialog-resize-handle').boundingBox())!;
  await drag(page, { x: grip.x + grip.width / 2, y: grip.y + grip.height / 2 }, dx, dy);
  return (await page.getByTestId('dialog-box').boundingBox())!;
}

const skinOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.skin);
const primaryOf = (page: Page) => page.evaluate(() => document.documentElement.style.getPropertyValue('--sw-primary'));

describe('personal settings and header menu', () => {
  it('offers the guide on first sign-in; edits basic info and uploads an avatar', async () => {
    const page = await signedIn(DEMO.owner_anna.usr, DEMO.owner_anna.pwd);
    await page.goto('/generalNew/home');
    const offer = page.getByTestId('guide-offer');
    await offer.waitFor({ state: 'visible' });
    await page.getByTestId('guide-offer-open').click();
    await page.waitForURL((u) => u.pathname === '/generalNew/generalintro');
    await page.getByTestId('guide-steps').waitFor({ state: 'visible' });
    expect(await page.getByTestId('guide-steps').textContent()).toContain('Your account: avatar, nickname');
    await page.goto('/generalNew/home');
    await settle(page);
    expect(await page.getByTestId('guide-offer').count()).toBe(0);

    // basic info through the header's user menu
    await page.getByTestId('header-user-menu').click();
    await page.getByTestId('user-menu-personal').click();
    await page.waitForURL((u) => u.pathname === '/generalNew/personalBasic');
    await page.getByTestId('basic-info-card').waitFor({ state: 'visible' });
    await page.getByTestId('basic-qname').fill('A');
    await page.getByText('Nickname: 2 to 32 characters').waitFor({ state: 'visible' });
    await page.getByTestId('basic-qname').fill('Anna Elbblick');
    await page.getByTestId('basic-cname').fill('Elbblick Solar GmbH');
    await page.getByTestId('basic-caddr').fill('Elbchaussee 1, 22763 Hamburg');
    await page.getByTestId('basic-ctel').fill('+49 40 1234567');
    await page.getByTestId('basic-save').click();
    await page.getByText('Basic information saved').waitFor({ state: 'visible' });

    await page.locator('[data-testid=basic-info-card] input[type=file]').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: png(600, 400),
    });
    await page.getByText('Avatar saved').waitFor({ state: 'visible' });
    await page.waitForFunction(() => /\/files\/avatar\/[0-9a-f]{32}-s\.png$/.test(document.querySelector('[data-testid=header-avatar] img')?.getAttribute('src') ?? ''));

    const info = await (await tabApi(page, h().baseUrl)).call('queryAccountInfo', {});
    expect(info).toMatchObject({ qname: 'Anna Elbblick', cname: 'Elbblick Solar GmbH', caddr: 'Elbchaussee 1, 22763 Hamburg', ctel: '+49 40 1234567' });
    expect(info.photo).toMatch(/^\/files\/avatar\/[0-9a-f]{32}\.png$/);
    const thumb = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, info.photo.replace('.png', '-s.png'));
    expect(thumb).toEqual([128, 85]);
    await page.reload();
    await page.getByTestId('basic-info-card').waitFor({ state: 'visible' });
    expect(await page.getByTestId('basic-qname').inputValue()).toBe('Anna Elbblick');
    await h().screenshot(page, 'personal-basic');
  });

  it('skin and edition switches persist across a reload', async () => {
    const page = await signedIn(DEMO.sunmaker.usr, DEMO.sunmaker.pwd);
    await page.goto('/adminNew/home');
    await settle(page);
    expect(await skinOf(page)).toBe('blue');
    await page.getByTestId('header-skin').click();
    await page.getByRole('menuitem', { name: 'Purple' }).click();
    expect(await skinOf(page)).toBe('purple');
    expect(await primaryOf(page)).toBe('#722ed1');
    await page.reload();
    await settle(page);
    expect(await skinOf(page)).toBe('purple');

    // to the classic edition; its setting/customize page sets the skin too
    await page.getByTestId('header-edition').click();
    await page.waitForURL((u) => u.pathname.startsWith('/admin/'));
    await page.goto('/admin/setting/customize');
    await page.getByTestId('customize-page').waitFor({ state: 'visible' });
    // the radio input itself is visually hidden: click its button
    await page.locator('.ant-radio-button-wrapper', { has: page.getByTestId('skin-green') }).click();
    expect(await skinOf(page)).toBe('green');
    expect(await primaryOf(page)).toBe('#52c41a');
    await page.reload();
    await page.getByTestId('customize-page').waitFor({ state: 'visible' });
    expect(await skinOf(page)).toBe('green');
    expect(new URL(page.url()).pathname).toBe('/admin/setting/customize');
    // the edition is remembered: the landing page is the classic one now
    await page.goto('/home');
    await page.waitForURL((u) => u.pathname.startsWith('/admin/'));
    await page.getByTestId('header-edition').click();
    await page.waitForURL((u) => u.pathname.startsWith('/adminNew/'));
    await page.goto('/home');
    await page.waitForURL((u) => u.pathname.startsWith('/adminNew/'));
  });

  it('drags and resizes a dialog with the mouse (never below 400 × 300) and the keyboard; a title click closes an open select; a confirm drags', async () => {
    const page = await signedIn(DEMO.owner_ben.usr, DEMO.owner_ben.pwd);
    await page.getByTestId('header-user-menu').click();
    await page.getByTestId('user-menu-manual').click();
    const box = page.getByTestId('dialog-box');
    await box.waitFor({ state: 'visible' });
    await page.getByTestId('guide-steps').waitFor({ state: 'visible' });
    await steady(page, 'dialog-box');
    const before = (await box.boundingBox())!;

    // the title bar, dragged with the mouse
    const handle = (await page.getByTestId('dialog-drag-handle').boundingBox())!;
    await drag(page, { x: handle.x + 20, y: handle.y + 5 }, 120, -60); // up: the manual is tall, its grip stays on screen
    const moved = (await box.boundingBox())!;
    expect(Math.round(moved.x - before.x)).toBe(120);
    expect(Math.round(moved.y - before.y)).toBe(-60);

    // the corner grip, dragged with the mouse: the grip follows the pointer, the upper left stays
    const grown = await dragGrip(page, 90, -40);
    expect(Math.round(grown.width - moved.width)).toBe(90);
    expect(Math.round(grown.height - moved.height)).toBe(-40);
    expect(Math.round(grown.x)).toBe(Math.round(moved.x));
    expect(Math.round(grown.y)).toBe(Math.round(moved.y));
    // dragged far smaller: held at 400 × 300
    const least = await dragGrip(page, -1000, -1000);
    expect([Math.round(least.width), Math.round(least.height)]).toEqual([400, 300]);
    expect(Math.round(least.x)).toBe(Math.round(moved.x));

    // keyboard: the grip and the title bar take the focus; arrows resize and move by 16 px
    await page.getByTestId('dialog-resize-handle').focus();
    await page.keyboard.press('ArrowRight');
    const keyed = (await box.boundingBox())!;
    expect(Math.round(keyed.width)).toBe(416);
    await page.getByTestId('dialog-drag-handle').focus();
    await page.keyboard.press('ArrowLeft');
    expect(Math.round((await box.boundingBox())!.x)).toBe(Math.round(keyed.x - 16));
    await h().screenshot(page, 'personal-dialog');

    // a click on a dialog's title closes a select's open dropdown (the drag keeps the mousedown)
    const api = await tabApi(page, h().baseUrl);
    const plants = await api.call('webQueryPlants', { page: 0, pagesize: 1 });
    const pid = plants.plant[0]!.pid;
    await page.goto(`/generalNew/project/${pid}`);
    await page.getByTestId('plant-edit').click();
    await steady(page, 'dialog-box');
    await page.getByTestId('plant-form').locator('.ant-select:not(.ant-select-disabled)').first().click();
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    await dropdown.waitFor({ state: 'visible' });
    await page.getByTestId('dialog-drag-handle').click({ position: { x: 20, y: 5 } });
    await dropdown.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await page.getByTestId('plant-form').waitFor({ state: 'hidden' });

    // a confirm (deleting the plant) is dragged by its title, then cancelled
    await page.getByTestId('plant-delete').click();
    const confirm = page.getByTestId('confirm-box');
    await steady(page, 'confirm-box');
    const c0 = (await confirm.boundingBox())!;
    const title = (await confirm.locator('.ant-modal-confirm-title').getByTestId('dialog-drag-handle').boundingBox())!;
    await drag(page, { x: title.x + 10, y: title.y + 5 }, -150, 60);
    const c1 = (await confirm.boundingBox())!;
    expect([Math.round(c1.x - c0.x), Math.round(c1.y - c0.y)]).toEqual([-150, 60]);
    await page.locator('.ant-modal-confirm .ant-btn').filter({ hasText: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByTestId('plant-page').waitFor({ state: 'visible' });
  });

  it('fits a 360 px phone: the personal page and the header menu', async () => {
    const page = await signedIn(DEMO.viewer_cara.usr, DEMO.viewer_cara.pwd, { width: 360, height: 740 });
    await page.goto('/generalNew/personalBasic');
    await page.getByTestId('basic-info-card').waitFor({ state: 'visible' });
    await settle(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await h().screenshot(page, 'personal-phone');
    await page.getByTestId('header-menu-button').click();
    await page.getByTestId('user-menu-manual').waitFor({ state: 'visible' });
    await page.getByTestId('user-menu-manual').click();
    await page.getByTestId('guide-steps').waitFor({ state: 'visible' });
    await steady(page, 'dialog-box');
    const box = (await page.getByTestId('dialog-box').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.width).toBeGreaterThanOrEqual(360 - 32);
    // too narrow for the 400 px minimum: no grip, and the title does not drag
    expect(await page.getByTestId('dialog-resize-handle').count()).toBe(0);
    const handle = (await page.getByTestId('dialog-drag-handle').boundingBox())!;
    await drag(page, { x: handle.x + 10, y: handle.y + 5 }, 60, 60);
    expect((await page.getByTestId('dialog-box').boundingBox())!).toEqual(box);
  });
});
