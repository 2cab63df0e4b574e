/** Routing rules of spec §2: unknown paths, editions, and the guard's redirect to /entry. */
import { describe, expect, it } from 'vitest';
import { areaMenu, DEMO, login, pathOf } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

describe('routing', () => {
  it('the root goes to /entry', async () => {
    const page = await h().newPage();
    await page.goto('/');
    await page.waitForURL(/\/entry(?:[/?#]|$)/);
    await page.context().close();
  });

  it('an unknown path shows the 404 page', async () => {
    const page = await h().newPage();
    await page.goto('/no/such/page');
    await page.waitForURL(/\/404$/);
    await page.getByText('404').first().waitFor({ state: 'visible' });
    await h().screenshot(page, 'page-404');
    // spec §8: a /404 is logged as an error — exactly that one, naming the path (the harness
    // fails a test on any other browser error)
    expect(h().takeBrowserProblems().map((p) => `${p.kind} ${p.text.replace(/ \(at .*\)$/, '')}`)).toEqual([
      'console.error 404 page not found /no/such/page',
    ]);
    await page.context().close();
  });

  it('a logged-out deep link goes to /entry?redirect=… and returns there after login', async () => {
    const page = await h().newPage();
    await page.goto('/adminNew/alarm');
    await page.waitForURL(/\/entry\?/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/adminNew/alarm');
    await login(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    await page.waitForURL(/\/adminNew\/alarm(?:[/?#]|$)/);
    await areaMenu(page).waitFor({ state: 'visible' });
    await page.context().close();
  });

  it('/adminNew sets the new-edition flag and /admin clears it', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd);

    await page.goto('/adminNew');
    await page.waitForURL(/\/adminNew(?:\/|$)/);
    await page.goto('/home');
    await page.waitForURL(/\/adminNew\/home(?:[/?#]|$)/);
    await areaMenu(page).waitFor({ state: 'visible' });
    expect(pathOf(page)).toMatch(/^\/adminNew\/home/);

    await page.goto('/admin');
    await page.waitForURL(/\/admin(?:\/|$)/);
    await page.goto('/home');
    await page.waitForURL(/\/admin\/home(?:[/?#]|$)/);
    await areaMenu(page).waitFor({ state: 'visible' });
    expect(pathOf(page)).toMatch(/^\/admin\/home/);
    await page.context().close();
  });
});
