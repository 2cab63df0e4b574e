/** Entry page behaviour: language choice (entry page and header), slider puzzle, wrong password, remember me, log out. */
import { describe, expect, it } from 'vitest';
import {
  areaMenu,
  headerLanguage,
  passwordField,
  stableHandleBox,
  puzzleTrack,
  puzzleVerdict,
  solvePuzzle,
  usernameField,
  DEMO,
  REMEMBER_COOKIE,
  landingPattern,
  login,
  loginButton,
  loginError,
  pathOf,
} from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

describe('entry page', () => {
  it('a chosen language persists across a reload', async () => {
    const page = await h().newPage({ locale: 'en-US' });
    await page.goto('/entry');
    const english = (await loginButton(page).innerText()).trim();
    expect(english).toMatch(/sign in/i);

    // a native select (the entry page loads no antd)
    await page.getByTestId('language-picker').selectOption({ label: 'Deutsch' });
    // changing the language reloads the page (spec §1)
    await expect.poll(async () => (await loginButton(page).innerText()).trim(), { timeout: 15_000 }).not.toBe(english);
    const german = (await loginButton(page).innerText()).trim();
    expect(german).toMatch(/anmelden/i);

    await page.reload();
    await loginButton(page).waitFor({ state: 'visible' });
    expect((await loginButton(page).innerText()).trim()).toBe(german);
    await h().screenshot(page, 'entry-de');
    await page.context().close();
  });

  it('on a phone the puzzle is a labelled modal that fits, takes the keyboard and cancels with Escape', async () => {
    const page = await h().newPage({ locale: 'en-US' });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/entry');
    await usernameField(page).fill(DEMO.owner_anna.usr);
    await passwordField(page).fill(DEMO.owner_anna.pwd);
    await loginButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Security check' });
    await dialog.waitFor({ state: 'visible' });
    await stableHandleBox(page);
    // focus starts on the slider: the puzzle can be solved without a pointer
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('puzzle-handle');
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.keyboard.press('ArrowRight');
    expect(Number(await page.getByTestId('puzzle-handle').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await h().screenshot(page, 'entry-puzzle-360');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe('/entry');
    // focus goes back to the form
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('login-submit');
    await page.context().close();
  });

  it('a language chosen in the header persists across a reload', async () => {
    const page = await h().newPage({ locale: 'en-US' });
    await login(page, DEMO.viewer_cara.usr, DEMO.viewer_cara.pwd);
    await page.waitForURL(landingPattern(DEMO.viewer_cara.role));
    const logout = page.getByRole('button', { name: /log out|abmelden/i });
    await logout.waitFor({ state: 'visible' });
    expect((await logout.innerText()).trim()).toBe('Log out');

    await headerLanguage(page).click();
    await page.locator('.ant-select-dropdown').getByText('Deutsch', { exact: true }).click();
    await expect.poll(async () => (await logout.innerText()).trim(), { timeout: 15_000 }).toBe('Abmelden');

    await page.reload();
    await page.waitForURL(landingPattern(DEMO.viewer_cara.role));
    await logout.waitFor({ state: 'visible' });
    expect((await logout.innerText()).trim()).toBe('Abmelden');
    await areaMenu(page).waitFor({ state: 'visible' });
    await h().screenshot(page, 'header-de');
    await page.context().close();
  });

  it('a drop away from the gap fails, the puzzle resets, and the next trail signs in', async () => {
    const page = await h().newPage();
    await page.goto('/entry');
    await usernameField(page).fill(DEMO.owner_ben.usr);
    await passwordField(page).fill(DEMO.owner_ben.pwd);
    await loginButton(page).click();
    const track = puzzleTrack(page);
    await track.waitFor({ state: 'visible' });
    const gapX = Number(await track.getAttribute('data-gap-x'));
    const box = await stableHandleBox(page);
    const y = box.y + box.height / 2;
    // drop 30 px short of the gap
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    for (const dx of [5, 13, 24, 31, gapX / 2, gapX - 40, gapX - 30]) {
      await page.mouse.move(box.x + box.width / 2 + dx, y + 1);
      await page.waitForTimeout(15 + (dx % 7) * 5);
    }
    await page.mouse.up();
    expect(await puzzleVerdict(page)).toBe('fail');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=puzzle-track]')?.getAttribute('data-status') === 'idle',
    );
    expect(pathOf(page)).toMatch(/^\/entry/);
    await solvePuzzle(page);
    expect(await puzzleVerdict(page)).toBe('success');
    await page.waitForURL(landingPattern(DEMO.owner_ben.role));
    await page.context().close();
  });

  it('a wrong password shows an error under the form', async () => {
    const page = await h().newPage();
    await page.goto('/entry');
    await login(page, DEMO.owner_ben.usr, 'Wrong_Password_1', { expectSuccess: false });
    await loginError(page).waitFor({ state: 'visible' });
    expect((await loginError(page).innerText()).trim()).toMatch(/wrong password/i);
    expect(pathOf(page)).toMatch(/^\/entry/);
    await h().screenshot(page, 'entry-wrong-password');
    await page.context().close();
  });

  it('remember me signs in again after the session is gone', async () => {
    const context = await h().newContext();
    const first = await context.newPage();
    await first.goto('/entry');
    await login(first, DEMO.owner_anna.usr, DEMO.owner_anna.pwd, { remember: true });
    await first.waitForURL(landingPattern(DEMO.owner_anna.role));

    const before = await context.cookies();
    const remembered = before.filter((c) => c.name === REMEMBER_COOKIE);
    expect(remembered, `remember cookie among ${before.map((c) => c.name).join(', ')}`).toHaveLength(1);
    expect(remembered[0]!.expires).toBeGreaterThan(Date.now() / 1000 + 6 * 86400);

    // End the browser session: session storage goes with the tab; drop every cookie but the
    // remember token, so only authByRememberToken can sign us in again.
    await first.evaluate(() => sessionStorage.clear());
    await first.close();
    await context.clearCookies();
    await context.addCookies(remembered);

    const second = await context.newPage();
    await second.goto('/home');
    await second.waitForURL(landingPattern(DEMO.owner_anna.role));
    await areaMenu(second).waitFor({ state: 'visible' });
    // the token is rotated on use (docs/contracts.md)
    const after = (await context.cookies()).filter((c) => c.name === REMEMBER_COOKIE);
    expect(after).toHaveLength(1);
    expect(after[0]!.value).not.toBe(remembered[0]!.value);
    await context.close();
  });

  it('log out in the header ends the session and revokes remember me', async () => {
    const context = await h().newContext();
    const page = await context.newPage();
    await login(page, DEMO.owner_ben.usr, DEMO.owner_ben.pwd, { remember: true });
    await page.waitForURL(landingPattern(DEMO.owner_ben.role));
    const remembered = (await context.cookies()).filter((c) => c.name === REMEMBER_COOKIE);
    expect(remembered).toHaveLength(1);
    await page.getByRole('button', { name: /log out/i }).click();
    await page.waitForURL(/\/entry(?:[/?#]|$)/);
    // the entry page comes first, the logout call right after it (use-sign-out.ts): its answer clears the cookie
    await expect
      .poll(async () => (await context.cookies()).filter((c) => c.name === REMEMBER_COOKIE).length)
      .toBe(0);
    await page.close();

    // Even a copy of the old remember cookie no longer signs in: the server revoked the token.
    await context.clearCookies();
    await context.addCookies(remembered);
    const again = await context.newPage();
    await again.goto('/home');
    await again.waitForURL(/\/entry\?redirect=/);
    await context.close();
  });

  it('without remember me a new browser session has to sign in again', async () => {
    const context = await h().newContext();
    const first = await context.newPage();
    await first.goto('/entry');
    await login(first, DEMO.owner_anna.usr, DEMO.owner_anna.pwd, { remember: false });
    await first.waitForURL(landingPattern(DEMO.owner_anna.role));
    const kept = (await context.cookies()).filter((c) => c.name === REMEMBER_COOKIE);
    expect(kept).toHaveLength(0);
    await first.close();
    await context.clearCookies();
    const second = await context.newPage();
    await second.goto('/home');
    await second.waitForURL(/\/entry/);
    await context.close();
  });
});
