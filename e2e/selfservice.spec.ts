/**
 * Self-service on the entry page (issue 12): sign up by email reading the code from the outbox
 * (the operator's queryMailOutbox), then sign in; password retrieval by email end to end (the
 * picture code read from the server's image, the code from the outbox).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WEB_COMPANY_KEY, createApiClient, type ApiClient } from '@sunwatch/protocol';
import { readPictureCode } from '../apps/server/src/modules/selfservice/picture-code.ts';
import { landingPattern, login, passwordField, usernameField } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

async function operatorApi(): Promise<ApiClient> {
  const held: { session?: { secret: string; token: string } } = {};
  const api = createApiClient({ baseUrl: `${h().baseUrl}/public/`, companyKey: WEB_COMPANY_KEY, getSession: () => held.session });
  const dat = await api.login('operator', 'Operator_2026');
  held.session = { secret: dat.secret, token: dat.token };
  return api;
}

/** The newest code mailed to `to`, read from the outbox as the operator reads it. */
async function codeFromOutbox(op: ApiClient, to: string, after = 0): Promise<{ id: number; code: string }> {
  let found: { id: number; code: string } | undefined;
  await expect
    .poll(
      async () => {
        const { mail } = await op.call('queryMailOutbox', { to, state: 'outbox', pagesize: 5 });
        const m = mail.find((x) => x.kind === 'code' && x.id > after);
        found = m ? { id: m.id, code: /\b(\d{6})\b/.exec(m.text)![1]! } : undefined;
        return found !== undefined;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(true);
  return found!;
}

const field = (page: Page, name: string) => page.getByTestId(`ss-${name}`);

describe('self-service', () => {
  it('sign up by email with the code from the outbox; back on login the fields are filled; the new owner signs in', async () => {
    const op = await operatorApi();
    const page = await h().newPage({ locale: 'en-US' });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/entry');
    await page.getByTestId('link-signup').click();
    await page.getByTestId('entry-mode-signup').waitFor();
    expect(await page.getByTestId('ss-tab-phone').count()).toBe(0);
    await field(page, 'usr').fill('sunny_new');
    expect(await page.getByTestId('ss-usr-count').innerText()).toBe('9/32');
    await field(page, 'pwd').fill('Sunny_2026');
    expect(await page.getByTestId('ss-strength').getAttribute('data-strength')).toBe('strong');
    await field(page, 'confPwd').fill('Sunny_2026');
    await field(page, 'sn').fill('SWNORTH0000103');
    await page.getByTestId('ss-country').selectOption('DE');
    await field(page, 'email').fill('sunny.new@example.com');
    await page.getByTestId('ss-send-code').click();
    await expect.poll(() => page.getByTestId('ss-send-code').innerText()).toMatch(/Resend in \d+ s/);
    const { code } = await codeFromOutbox(op, 'sunny.new@example.com');
    await field(page, 'code').fill(code);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // nothing inside the card is wider than the card (it would be clipped, not scroll the page)
    expect(await page.locator('.sw-entry-card').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await h().screenshot(page, 'selfservice-signup-360');
    await page.getByTestId('ss-submit').click();

    await usernameField(page).waitFor();
    expect(await usernameField(page).inputValue()).toBe('sunny_new');
    expect(await passwordField(page).inputValue()).toBe('Sunny_2026');
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'sunny_new', 'Sunny_2026', { goto: false });
    expect(page.url()).toMatch(landingPattern(0));
    await page.context().close();
  });

  it('password retrieval by email: account and picture code, code from the outbox, new password, sign in with it', async () => {
    const op = await operatorApi();
    const page = await h().newPage({ locale: 'en-US' });
    await page.goto('/entry');
    const picture = page.waitForResponse((r) => r.url().includes('action=getPictureCode'));
    await page.getByTestId('link-retrieve').click();
    let img = ((await (await picture).json()) as { dat: { img: string } }).dat.img;
    // click to refresh: a new picture from the server
    const refreshed = page.waitForResponse((r) => r.url().includes('action=getPictureCode'));
    await page.getByTestId('ss-picture').click();
    const next = ((await (await refreshed).json()) as { dat: { img: string } }).dat.img;
    expect(next).not.toBe(img);
    img = next;
    await expect.poll(() => page.getByTestId('ss-picture').locator('img').getAttribute('src')).toBe(img);

    await field(page, 'usr').fill('owner_dora');
    await field(page, 'verifycode').fill(readPictureCode(img).toLowerCase());
    await page.getByTestId('ss-next').click();
    await expect.poll(() => page.getByTestId('entry-mode-retrieve').getAttribute('data-step')).toBe('1');

    await field(page, 'contact').fill('dora@example.com');
    await page.getByTestId('ss-send-code').click();
    const { code } = await codeFromOutbox(op, 'dora@example.com');
    await field(page, 'smsCode').fill(code);
    await page.getByTestId('ss-next').click();
    await expect.poll(() => page.getByTestId('entry-mode-retrieve').getAttribute('data-step')).toBe('2');

    await field(page, 'pwd').fill('Dora_New_2026');
    await field(page, 'confPwd').fill('Dora_New_2026');
    await page.getByTestId('ss-next').click();
    await page.getByTestId('ss-retrieve-done').waitFor();
    await h().screenshot(page, 'selfservice-retrieve-done');
    await page.getByTestId('ss-to-login').click();
    await login(page, 'owner_dora', 'Dora_New_2026', { goto: false });
    expect(page.url()).toMatch(landingPattern(0));
    await page.context().close();
  });
});
