/**
 * Issue 16, web error reporting: an uncaught error on the entry page (before sign-in) reaches the
 * platform's public collector from the real web app, and the operator finds it in the Web errors
 * tab beside the action log.
 */
import { createApiClient, WEB_COMPANY_KEY, type WebErrorGroupRow } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();
const MESSAGE = 'e2e web error boom';

describe('web error reporting', () => {
  it('a page error before sign-in shows up in the operator’s Web errors tab', async () => {
    const page = await h().newPage();
    await page.goto(h().url('/entry'));
    await page.waitForLoadState('networkidle');
    await page.evaluate((m) => {
      setTimeout(() => {
        throw new Error(m);
      }, 0);
    }, MESSAGE);

    // the reporter sends after its batch delay; the operator reads it through the protocol
    const held: { session?: { secret: string; token: string } } = {};
    const api = createApiClient({
      baseUrl: `${h().baseUrl}/public/`,
      companyKey: WEB_COMPANY_KEY,
      getSession: () => held.session,
    });
    held.session = await api.login(DEMO.operator.usr, DEMO.operator.pwd);
    const find = async () =>
      ((await api.call('queryWebErrorGroups', { kind: 'error' })).group as WebErrorGroupRow[]).find((g) =>
        g.message.includes(MESSAGE),
      );
    await expect.poll(find, { timeout: 15_000, interval: 500 }).toBeDefined();
    const group = (await find())!;
    expect(group).toMatchObject({ kind: 'error', accounts: 0, route: '/entry' });

    // the intentional error was the page's only problem
    const problems = h().takeBrowserProblems();
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.text.includes(MESSAGE))).toBe(true);

    const op = await h().newPage();
    await h().signIn(op, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home/actionLog?tab=web');
    const row = op.getByTestId('web-error-row').filter({ hasText: MESSAGE });
    await row.first().waitFor({ timeout: 15_000 });
    await row.first().click();
    await op.getByTestId('web-error-stack').waitFor();
    expect(await op.getByTestId('web-error-stack').innerText()).toContain(MESSAGE);
  });
});
