/**
 * Issue 14, KEYList: the operator opens /adminNewStatr/home/KEYList, adds a company key through
 * the form, sees it masked in the list, and a client signs in with it; then the operator disables
 * it (confirmed) and the next sign-in with that key is refused (err 15) at once.
 */
import { ApiCallError, createApiClient } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { useHarness } from './harness.ts';

const h = useHarness();
const KEY = 'E2E_key_0123456Z';

/** A sign-in as a client built with `companyKey`: 0 or the error code. */
async function signInWith(baseUrl: string, companyKey: string): Promise<number> {
  const api = createApiClient({ baseUrl: `${baseUrl}/public/`, companyKey, getSession: () => undefined });
  try {
    await api.login(DEMO.sunmaker.usr, DEMO.sunmaker.pwd);
    return 0;
  } catch (e) {
    return e instanceof ApiCallError ? e.err : -1;
  }
}

describe('operator: company keys (KEYList)', () => {
  it('adds a key that signs in, then disables it and sign-ins with it are refused', async () => {
    const page = await h().newPage();
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home/KEYList');
    await page.getByTestId('key-list-page').waitFor();
    // the keys seeded from the configuration are listed, masked
    await page.getByTestId('key-row').first().waitFor();
    expect(await signInWith(h().baseUrl, KEY)).toBe(15);

    await page.getByTestId('key-add').click();
    const form = page.getByTestId('key-form');
    await form.waitFor();
    // saving the empty form shows the rule texts, nothing is sent
    await page.getByTestId('key-form-ok').click();
    await form.getByText('Please enter the hostname').waitFor();
    await page.getByTestId('key-field-company').fill('E2E Solar');
    await page.getByTestId('key-field-contact').fill('ops@e2e.example');
    await page.getByTestId('key-field-client').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Android' }).click();
    await page.getByTestId('key-field-version').fill('2.0.1');
    await page.getByTestId('key-field-domain').fill('e2e.example');
    await page.getByTestId('key-field-hostname').fill('app.e2e.example');
    await page.getByTestId('key-field-key').fill('too short');
    await page.getByTestId('key-field-description').fill('E2E Android app');
    await page.getByTestId('key-form-ok').click();
    await form.getByText('16 bytes').first().waitFor();
    await page.getByTestId('key-field-key').fill(KEY);
    await page.getByTestId('key-form-ok').click();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('key-row').filter({ hasText: 'E2E Solar' });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('app.e2e.example');
    expect(text).toContain('456Z');
    expect(text).not.toContain(KEY);
    expect(await row.getAttribute('data-enabled')).toBe('1');
    expect(await signInWith(h().baseUrl, KEY)).toBe(0);

    // disable (asks first); the very next sign-in with the key is refused
    await row.getByTestId('key-enabled').click();
    await page.getByTestId('key-disable-ok').click();
    await expect.poll(() => row.getAttribute('data-enabled'), { timeout: 15_000 }).toBe('0');
    expect(await signInWith(h().baseUrl, KEY)).toBe(15);

    // the status filter finds it among the disabled keys
    await page.getByTestId('key-status-filter').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Disabled' }).click();
    await expect.poll(() => page.getByTestId('key-row').count(), { timeout: 15_000 }).toBe(1);
    // the filter is in the address bar (the list kit): a reload shows the same list
    expect(new URL(page.url()).searchParams.get('status')).toBe('disabled');
    await page.reload();
    await page.getByTestId('key-row').filter({ hasText: 'E2E Solar' }).waitFor();
    expect(await page.getByTestId('key-row').count()).toBe(1);
    await page.close();
  }, 120_000);

  it('fits a 360 px phone: the list and the form do not scroll sideways', async () => {
    const page = await h().newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await h().signIn(page, DEMO.operator.usr, DEMO.operator.pwd, '/adminNewStatr/home/KEYList');
    await page.getByTestId('key-row').first().waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByTestId('key-add').click();
    await page.getByTestId('key-form').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    const box = await page.getByTestId('key-form').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    await h().screenshot(page, 'operator-keys-phone');
    await page.close();
  }, 60_000);
});
