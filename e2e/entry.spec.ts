/** Entry page behaviour: language choice, wrong password, remember me. */
import { describe, expect, it } from 'vitest';
import {
  areaMenu,
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

    await page.getByTestId('language-picker').click();
    await page.locator('.ant-select-dropdown').getByText('Deutsch', { exact: true }).click();
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
