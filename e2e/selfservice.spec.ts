/**
 * Self-service on the entry page (issue 12): sign up by email reading the code from the outbox
 * (the operator's queryMailOutbox), then sign in; sign up by phone in Chinese with the SMS code
 * from the outbox (the default SMS provider writes there); password retrieval by email end to end
 * (the picture code read from the server's image, the code from the outbox); bind and unbind an
 * email address on the personal page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CODE_COUNTDOWN_S, WEB_COMPANY_KEY, createApiClient, errorMessage, type ApiClient } from '@sunwatch/protocol';
import { readPictureCode } from '../apps/server/src/modules/selfservice/picture-code.ts';
import { landingPattern, login, passwordField, usernameField } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness();

async function operatorApi(): Promise<ApiClient> {
  const held: { session?: { secret: string; token: string } } = {};
  const api = createApiClient({ baseUrl: `${h().baseUrl}/public/`, companyKey: WEB_COMPANY_KEY, getSession: () => held.session });
  const dat = await api.login('operator', 'Operator_2026');
  held.session = { secret: dat.secret, token: dat.token };
  return api;
}

/**
 * The newest code mailed (kind `code`) or texted (kind `sms`) to `to`, read from the outbox as the
 * operator reads it; only messages newer than the id `after`.
 */
async function codeFromOutbox(op: ApiClient, to: string, after = 0, kind: 'code' | 'sms' = 'code'): Promise<{ id: number; code: string }> {
  let found: { id: number; code: string } | undefined;
  await expect
    .poll(
      async () => {
        const { mail } = await op.call('queryMailOutbox', { to, state: 'outbox', pagesize: 5 });
        const m = mail.find((x) => x.kind === kind && x.id > after);
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

  it('sign up by phone in Chinese: SMS code from the outbox, 90 s countdown, a second send at once is refused in Chinese; the new owner signs in', async () => {
    const op = await operatorApi();
    const phone = '13912345678';
    const page = await h().newPage({ locale: 'zh-CN' });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/entry');
    await page.getByTestId('link-signup').click();
    await page.getByTestId('entry-mode-signup').waitFor();
    // Chinese: phone and email tabs, phone first
    expect(await page.getByTestId('ss-tab-email').innerText()).toBe('邮箱');
    expect(await page.getByTestId('ss-tab-phone').getAttribute('aria-selected')).toBe('true');
    expect(await field(page, 'email').count()).toBe(0);
    await field(page, 'usr').fill('sunny_phone');
    await field(page, 'pwd').fill('Sunny_2026');
    await field(page, 'confPwd').fill('Sunny_2026');
    await field(page, 'sn').fill('SWNORTH0000101');
    await page.getByTestId('ss-country').selectOption('CN');
    // not a mainland mobile: refused before anything is sent
    await field(page, 'phone').fill('12345678901');
    await page.getByTestId('ss-send-code').click();
    await page.locator('.sw-field-invalid [data-testid=ss-phone]').waitFor();
    await field(page, 'phone').fill(phone);
    await page.getByTestId('ss-send-code').click();
    // the 90 s countdown on the (disabled) send button, in Chinese
    const send = page.getByTestId('ss-send-code');
    await expect.poll(() => send.innerText()).toMatch(/^\d+ 秒后重新发送$/);
    const left = Number(/^(\d+)/.exec(await send.innerText())![1]);
    expect(left).toBeLessThanOrEqual(CODE_COUNTDOWN_S.signupPhone);
    expect(left).toBeGreaterThan(CODE_COUNTDOWN_S.signupPhone - 10);
    expect(await send.isDisabled()).toBe(true);
    const { id, code } = await codeFromOutbox(op, phone, 0, 'sms');

    // the same phone from a second tab at once (its own button is not counting down): refused,
    // the server's text in Chinese; no second SMS goes out
    const again = await h().newPage({ context: page.context() });
    await again.goto('/entry');
    await again.getByTestId('link-signup').click();
    await field(again, 'phone').fill(phone);
    const answer = again.waitForResponse((r) => r.url().includes('action=sendSmsCodeMobile'));
    await again.getByTestId('ss-send-code').click();
    const { err } = (await (await answer).json()) as { err: number };
    expect(err).toBe(525);
    expect(await again.getByTestId('ss-form-error').innerText()).toBe(errorMessage(err, 'zh_CN'));
    expect(await again.getByTestId('ss-send-code').isDisabled()).toBe(false);
    await again.close();
    const { mail } = await op.call('queryMailOutbox', { to: phone, state: 'outbox', pagesize: 5 });
    expect(mail.filter((m) => m.kind === 'sms').map((m) => m.id)).toEqual([id]);

    await field(page, 'code').fill(code);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await page.locator('.sw-entry-card').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await h().screenshot(page, 'selfservice-signup-phone-zh-360');
    await page.getByTestId('ss-submit').click();

    await usernameField(page).waitFor();
    expect(await usernameField(page).inputValue()).toBe('sunny_phone');
    expect(await passwordField(page).inputValue()).toBe('Sunny_2026');
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, 'sunny_phone', 'Sunny_2026', { goto: false });
    expect(page.url()).toMatch(landingPattern(0));
    const me = await (await tabApi(page, h().baseUrl)).call('queryAccountInfo', {});
    expect(me).toMatchObject({ usr: 'sunny_phone', mobile: phone });
    await page.context().close();
  });

  it('bind and unbind an email on the personal page with codes from the outbox; the server agrees', async () => {
    const op = await operatorApi();
    const address = 'fay.bound@example.com';
    const page = await h().newPage({ locale: 'en-US' });
    await login(page, 'owner_fay', 'Owner_2026');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/generalNew/personalBasic');
    const card = page.getByTestId('bind-card');
    await page.getByTestId('bind-row-email').waitFor();
    expect(await page.getByTestId('bound-email').count()).toBe(0);
    expect(await page.getByTestId('unbind-email').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await card.scrollIntoViewIfNeeded();
    await h().screenshot(page, 'selfservice-bind-card-360');
    const api = await tabApi(page, h().baseUrl);

    // bind: the code goes to the new address
    await page.getByTestId('bind-email').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('bind-value') });
    await dialog.waitFor();
    await page.getByTestId('bind-value').fill(address);
    await page.getByTestId('bind-send').click();
    await expect.poll(() => page.getByTestId('bind-send').innerText()).toMatch(/Resend in \d+ s/);
    const bound = await codeFromOutbox(op, address);
    await page.getByTestId('bind-code').fill(bound.code);
    expect(await dialog.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(360);
    await h().screenshot(page, 'selfservice-bind-dialog-360');
    await page.getByTestId('bind-save').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('bound-email').innerText()).toBe(address);
    expect((await api.call('queryAccountInfo', {})).email).toBe(address);
    // the other cards of the page read the same record: recovery through the address now
    expect(await page.getByTestId('account-security-card').innerText()).toContain(address);

    // unbind: warned that recovery through the address is gone; the code goes to the bound address
    await page.getByTestId('unbind-email').click();
    const warning = page.getByTestId('unbind-warning');
    await warning.waitFor();
    expect(await warning.innerText()).toContain(address);
    expect(await page.getByTestId('bind-value').inputValue()).toBe(address);
    expect(await page.getByTestId('bind-value').isDisabled()).toBe(true);
    await page.getByTestId('bind-send').click();
    const unbound = await codeFromOutbox(op, address, bound.id);
    // a wrong code is refused in the dialog and changes nothing
    await page.getByTestId('bind-code').fill(unbound.code === '000000' ? '111111' : '000000');
    await page.getByTestId('bind-save').click();
    await page.getByTestId('bind-error').waitFor();
    expect((await api.call('queryAccountInfo', {})).email).toBe(address);
    await page.getByTestId('bind-code').fill(unbound.code);
    await page.getByTestId('bind-save').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByTestId('bound-email').count()).toBe(0);
    expect(await page.getByTestId('bind-row-email').innerText()).toContain('Not bound');
    expect((await api.call('queryAccountInfo', {})).email ?? '').toBe('');
    expect(await page.getByTestId('account-security-card').innerText()).not.toContain(address);
    await page.context().close();
  });
});
