/**
 * Issue 14, factoryCode: the operator opens /adminNewStatr/home/factoryCode, adds a PN rule for
 * the demo manufacturer (code ZZ + type code Q → prefix ZZQ) through the form, sees it listed,
 * and disables it.
 */
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();

describe('operator: PN rules (factoryCode)', () => {
  it('adds a rule for a manufacturer and disables it', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home/factoryCode');
    await page.getByTestId('code-list-page').waitFor();
    await page.getByTestId('code-add').click();
    await page.getByTestId('code-form').waitFor();
    await page.getByTestId('code-field-maker').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'sunmaker' }).click();
    await page.getByTestId('code-field-code').fill('Z');
    await page.getByTestId('code-form-ok').click();
    await page.getByTestId('code-form').getByText('2 to 3').first().waitFor();
    await page.getByTestId('code-field-code').fill('zz');
    await page.getByTestId('code-field-type').fill('q');
    await page.getByTestId('code-form-ok').click();
    await page.getByTestId('code-form').waitFor({ state: 'detached' });
    const row = page.locator('[data-testid=code-row][data-prefix=ZZQ]');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.innerText()).toContain('sunmaker');
    await row.getByTestId('code-enabled').click();
    await expect
      .poll(() => row.getByTestId('code-enabled').getAttribute('aria-checked'), { timeout: 15_000 })
      .toBe('false');
    await page.close();
  }, 120_000);
});
