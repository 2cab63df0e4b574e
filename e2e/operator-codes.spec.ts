/**
 * Issue 14, factoryCode: the operator opens /adminNewStatr/home/factoryCode, adds a PN rule for
 * the demo manufacturer (code ZZ + type code Q → prefix ZZQ) through the form, sees it listed,
 * disables it, edits its type code (→ ZZR) and deletes it.
 *
 * Robustness (session 27 CI: the flow passed only on its retry). The first attempt failed before
 * the rule was saved (a retry after a saved rule would have met err 14): the manufacturer pick
 * was made while the dialog was still zooming open, the click missed the option, the form stayed
 * invalid and the wait for the dialog to close ran out. Now every pick waits for the dialog to
 * stand still and checks the choice was taken (re-picking until it is); every list wait reads the
 * row's own state attribute (data-enabled) after the refetch, not a control that may be stale;
 * and a rule left by an interrupted attempt is removed first, so a retry starts clean.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness();

/** Waits out a dialog's open animation: its box the same in two frames in a row. */
async function steady(page: Page, dialog: Locator): Promise<void> {
  await dialog.waitFor({ state: 'visible' });
  let last = '';
  for (let i = 0; i < 200; i++) {
    const now = JSON.stringify(await dialog.boundingBox());
    if (now === last) return;
    last = now;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  throw new Error('the dialog did not settle');
}

/** Picks `option` in the select `select` and checks the form took it (a missed click is picked again). */
async function pick(page: Page, select: Locator, option: string): Promise<void> {
  await expect
    .poll(
      async () => {
        // the form item shows the chosen label (the options live in a portal outside it)
        if ((await page.locator('.ant-form-item').filter({ has: select }).innerText()).includes(option)) return true;
        await select.click();
        const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option });
        await item.first().waitFor({ state: 'visible' });
        await item.first().click();
        return false;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
}

const row = (page: Page, prefix: string) => page.locator(`[data-testid=code-row][data-prefix=${prefix}]`);

describe('operator: PN rules (factoryCode)', () => {
  it('adds a rule for a manufacturer, disables, edits and deletes it', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home/factoryCode');
    await page.getByTestId('code-list-page').waitFor();
    // a retried attempt starts clean: the rules an interrupted attempt saved are removed
    const api = await tabApi(page, h().baseUrl);
    for (const c of (await api.call('queryManufacturerCodes', { search: 'ZZ', pagesize: 50 })).codes) {
      await api.call('deleteManufacturerCode', { id: c.id });
    }
    await page.reload();
    await page.getByTestId('code-list-page').waitFor();

    await page.getByTestId('code-add').click();
    const form = page.getByTestId('code-form');
    await steady(page, page.locator('.ant-modal').filter({ has: form }));
    await pick(page, page.getByTestId('code-field-maker'), 'sunmaker');
    // an invalid code is refused in the form, nothing is sent
    await page.getByTestId('code-field-code').fill('Z');
    await page.getByTestId('code-form-ok').click();
    await form.getByText('2 to 3').first().waitFor();
    await page.getByTestId('code-field-code').fill('zz');
    await page.getByTestId('code-field-type').fill('q');
    await page.getByTestId('code-form-ok').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'ZZQ').getAttribute('data-enabled'), { timeout: 15_000 }).toBe('true');
    expect(await row(page, 'ZZQ').innerText()).toContain('sunmaker');

    // disable: the row's state after the list's refetch
    await row(page, 'ZZQ').getByTestId('code-enabled').click();
    await expect.poll(() => row(page, 'ZZQ').getAttribute('data-enabled'), { timeout: 15_000 }).toBe('false');

    // edit: type code Q → R, enabled again; the code stays
    await row(page, 'ZZQ').getByTestId('code-edit').click();
    await steady(page, page.locator('.ant-modal').filter({ has: form }));
    expect(await page.getByTestId('code-field-code').isDisabled()).toBe(true);
    await page.getByTestId('code-field-type').fill('r');
    await page.getByTestId('code-field-enabled').click();
    await page.getByTestId('code-form-ok').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => row(page, 'ZZR').getAttribute('data-enabled'), { timeout: 15_000 }).toBe('true');
    expect(await row(page, 'ZZQ').count()).toBe(0);

    // delete, confirmed
    await row(page, 'ZZR').getByTestId('code-delete').click();
    await page.getByTestId('code-delete-ok').click();
    await expect.poll(() => row(page, 'ZZR').count(), { timeout: 15_000 }).toBe(0);
    expect((await api.call('queryManufacturerCodes', { search: 'ZZ', pagesize: 50 })).total).toBe(0);
    await page.close();
  }, 120_000);
});
