/**
 * Personal settings and the header menu (issue 12):
 *  a. an owner's first sign-in offers the new-user guide (opened, then remembered); the owner
 *     edits the basic info and uploads an avatar, whose thumbnail the header shows;
 *  b. skin (header menu, then the old admin edition's setting/customize page) and edition
 *     switches persist across a reload;
 *  c. a dialog (the operating manual) dragged and resized, never below 400 × 300, keyboard too;
 *  d. the personal page and the header menu at a 360 px phone width: no horizontal overflow.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { DEMO, login } from './entry-page.ts';
import { settle, tabApi, useHarness } from './harness.ts';

const h = useHarness();

async function signedIn(usr: string, pwd: string, viewport = { width: 1280, height: 860 }): Promise<Page> {
  const context = await h().browser.newContext({ baseURL: h().baseUrl, locale: 'en-US', viewport });
  context.setDefaultTimeout(15_000);
  const page = await h().newPage({ context });
  await login(page, usr, pwd);
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

  it('drags a dialog with the mouse; moves and resizes it with the keyboard', async () => {
    const page = await signedIn(DEMO.owner_ben.usr, DEMO.owner_ben.pwd);
    await page.getByTestId('header-user-menu').click();
    await page.getByTestId('user-menu-manual').click();
    const box = page.getByTestId('dialog-box');
    await box.waitFor({ state: 'visible' });
    await page.getByTestId('guide-steps').waitFor({ state: 'visible' });
    await page.waitForTimeout(400); // the open animation
    const before = (await box.boundingBox())!;

    const handle = (await page.getByTestId('dialog-drag-handle').boundingBox())!;
    await page.mouse.move(handle.x + 20, handle.y + 5);
    await page.mouse.down();
    await page.mouse.move(handle.x + 80, handle.y + 45, { steps: 5 });
    await page.mouse.move(handle.x + 140, handle.y + 85, { steps: 5 });
    await page.mouse.up();
    const moved = (await box.boundingBox())!;
    expect(Math.round(moved.x - before.x)).toBe(120);
    expect(Math.round(moved.y - before.y)).toBe(80);

    // keyboard: the grip and the title bar take the focus; arrows resize and move by 16 px
    // (resizing with the mouse does not work in the browser yet: issue 12's note)
    await page.getByTestId('dialog-resize-handle').focus();
    await page.keyboard.press('ArrowRight');
    const keyed = (await box.boundingBox())!;
    expect(Math.round(keyed.width)).toBe(Math.round(moved.width + 16));
    await page.getByTestId('dialog-drag-handle').focus();
    await page.keyboard.press('ArrowLeft');
    expect(Math.round((await box.boundingBox())!.x)).toBe(Math.round(keyed.x - 16));
    await h().screenshot(page, 'personal-dialog');
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
    const box = (await page.getByTestId('dialog-box').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
  });
});
