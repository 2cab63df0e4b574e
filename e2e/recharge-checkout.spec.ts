/**
 * Issue 15, the recharge checkout end to end: dealer_north finds its two demo cellular
 * dataloggers' cards in the flow-card list (rechargePay), picks both and opens the checkout, sees the price with the 12-month discount, pays in the sandbox provider's
 * hosted page (signed webhook behind it), lands on the order-result page which shows success, and
 * both cards renewed (expiry later than before).
 */
import type { PayResult } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { DEMO } from './entry-page.ts';
import { tabApi, useHarness } from './harness.ts';

const h = useHarness();
const PNS = ['SWNORTH0000201', 'SWNORTH0000202'];

describe('recharge checkout through the sandbox provider', () => {
  it('recharges two cards and shows them renewed', async () => {
    const page = await h().newPage();
    // The list kit's search in the address bar: both cards (fuzzy PN).
    await h().signIn(page, DEMO.dealer_north.usr, DEMO.dealer_north.pwd, '/adminNew/setting/rechargePay?q=SWNORTH00002');
    for (const pn of PNS) {
      const row = page.locator(`[data-testid="card-row"][data-pn="${pn}"]`);
      await row.waitFor({ timeout: 30_000 });
      await row.locator('input.ant-checkbox-input').check();
    }
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('Selected: 2');
    expect(await page.getByTestId('selection-problem').count()).toBe(0);
    await page.getByTestId('recharge-button').click();
    const dialog = page.getByTestId('checkout-dialog');
    await dialog.waitFor();
    // both cards listed, the batch valid, 12 months with its 10 % discount priced
    for (const pn of PNS) await page.getByTestId('checkout-cards').getByText(pn).waitFor();
    await expect.poll(() => page.getByTestId('checkout-total').innerText(), { timeout: 15_000 }).toContain('108.00');
    expect(await page.getByTestId('checkout-batch-error').count()).toBe(0);
    expect(await page.getByTestId('checkout-price').innerText()).toContain('120.00');

    const api = await tabApi(page, h().baseUrl);
    const before = new Map(
      (
        await api.call('quoteRechargeOrder', { pns: PNS.join(','), package: 'CN-30MB', months: 12, area: 'mainland' })
      ).cards.map((c) => [c.pn, c.expireAt]),
    );

    await page.getByTestId('checkout-pay').click();
    await page.waitForURL(/\/pay\/sandbox\//, { timeout: 30_000 });
    expect(await page.getByTestId('sandbox-amount').innerText()).toContain('108.00 CNY');
    await h().screenshot(page, 'recharge-sandbox-checkout');
    await page.getByTestId('sandbox-pay').click();
    await page.waitForURL(/\/adminNew\/setting\/rechargePay\/result\?kind=recharge&orderNo=RC/, { timeout: 30_000 });
    const result = page.getByTestId('recharge-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('success');
    for (const pn of PNS) await page.getByTestId(`result-expiry-${pn}`).waitFor();
    await h().screenshot(page, 'recharge-order-result');

    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    const r: PayResult = await api.call('queryPayResult', { kind: 'recharge', orderNo });
    expect(r.status).toBe('success');
    expect(r.cards?.map((c) => c.pn).sort()).toEqual(PNS);
    for (const c of r.cards ?? []) {
      expect(c.creditState).toBe('applied');
      expect(c.expireAfter).toBeGreaterThan(Math.max(before.get(c.pn) ?? 0, Date.now()));
    }
  });
});
