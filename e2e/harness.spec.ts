/**
 * The harness itself: a page error or a console error in any watched page is collected, and
 * useHarness's afterEach turns what a test leaves behind into a failure of that test.
 */
import { describe, expect, it } from 'vitest';
import { DEMO, landingPattern } from './entry-page.ts';
import { assertNoBrowserProblems, tabApi, useHarness } from './harness.ts';

const h = useHarness();

describe('browser errors fail the flows', () => {
  it('collects uncaught page errors and console errors of harness pages, then fails on them', async () => {
    const page = await h().newPage();
    await page.goto('/entry');
    await page.evaluate(() => {
      console.error('sunwatch harness self-test: console error');
      setTimeout(() => {
        throw new Error('sunwatch harness self-test: uncaught');
      }, 0);
    });
    await expect.poll(() => page.evaluate(() => 1)).toBe(1);
    await page.waitForTimeout(100);
    // what afterEach asserts: it throws, naming each problem
    let thrown: unknown;
    const before = h().takeBrowserProblems();
    try {
      expect(before.map((p) => p.kind).sort()).toEqual(['console.error', 'pageerror']);
      expect(before.find((p) => p.kind === 'pageerror')!.text).toContain('self-test: uncaught');
      expect(before.find((p) => p.kind === 'console.error')!.text).toContain('self-test: console error');
      expect(before.every((p) => p.url.endsWith('/entry'))).toBe(true);
      await page.evaluate(() => console.error('sunwatch harness self-test: again'));
      await expect.poll(() => page.evaluate(() => 1)).toBe(1);
      await page.waitForTimeout(100);
      assertNoBrowserProblems(h(), 'during this test');
    } catch (e) {
      thrown = e;
    }
    expect(String(thrown)).toMatch(/1 browser error\(s\) during this test:[\s\S]*\[console\.error\][\s\S]*self-test: again/);
    // the list is empty again: this test's own afterEach passes
    expect(h().takeBrowserProblems()).toEqual([]);
    await page.context().close();
  });

  it('pages of contexts created outside the harness are watched too (newPage with a context)', async () => {
    const context = await h().browser.newContext({ baseURL: h().baseUrl, timezoneId: 'Pacific/Kiritimati' });
    const page = await h().newPage({ context });
    await page.goto('/entry');
    await page.evaluate(() => console.error('sunwatch harness self-test: foreign context'));
    await expect.poll(() => h().takeBrowserProblems().map((p) => p.text)).toEqual([
      expect.stringContaining('self-test: foreign context'),
    ]);
    await context.close();
  });

  it('the entry page itself loads without any browser error', async () => {
    const page = await h().newPage();
    await page.goto('/entry');
    await page.getByTestId('login-username').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    expect(h().takeBrowserProblems()).toEqual([]);
    await page.context().close();
  });
});

describe('fast sign-in (harness signIn)', () => {
  it("places the app's session where the app keeps it: landing page, sessionStorage, a working signed client", async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd);
    // the guard restored the session from the encrypted cookies and sent the role home
    expect(new URL(page.url()).pathname).toMatch(landingPattern(DEMO.dealer_north.role));
    await page.getByTestId('area-menu').waitFor({ state: 'visible' });
    const stored = JSON.parse((await page.evaluate(() => sessionStorage.getItem('sw.session'))) ?? 'null') as {
      usr: string;
      role: number;
    } | null;
    expect(stored).toMatchObject({ usr: DEMO.dealer_north.usr, role: DEMO.dealer_north.role });
    // no remember-me token: a sign-in without "remember me"
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('swRem');
    const info = await (await tabApi(page, h().baseUrl)).call('queryAccountInfo', {});
    expect(info.usr).toBe(DEMO.dealer_north.usr);
    await page.context().close();
  });
});
