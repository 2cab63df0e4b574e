import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ROLE, type PayResult, type RechargeQuoteResult } from '@sunwatch/protocol';
import i18n from '../../i18n';
import { installFakeApi, ok, renderWithApp, resetAppTest } from '../../test/fake-api';
import { CheckoutDialog } from '../shared/recharge/checkout/CheckoutDialog';
import { payPageOf, resultPathFor, resultTone } from '../shared/recharge/checkout/model';
import RechargeResultPage from './pages/RechargeResultPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const PNS = ['SWNORTH0000201', 'SWNORTH0000202'];

function quote(over: Partial<RechargeQuoteResult> = {}): RechargeQuoteResult {
  return {
    cards: PNS.map((pn, i) => ({
      pn,
      ccid: `898600000000000000${i}1`,
      cardType: 'standard',
      load: 1,
      area: 'mainland',
      status: 'normal',
      expireAt: Date.UTC(2026, 11, 1),
    })),
    batchError: '',
    batchPn: '',
    currency: 'CNY',
    listMinor: 12000,
    discountPct: 10,
    discountMinor: 1200,
    amountMinor: 10800,
    ...over,
  };
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('recharge checkout model', () => {
  it('finds the result page of the area', () => {
    expect(resultPathFor('/adminNew/setting/rechargePay')).toBe('/adminNew/setting/rechargePay/result');
    expect(resultPathFor('/generalNew/setting/datalogger')).toBe('/generalNew/setting/rechargePay/result');
    expect(payPageOf('/admin/setting/rechargePay/result')).toBe('/admin/setting/rechargePay');
    expect(resultTone('success')).toBe('success');
    expect(resultTone('expired')).toBe('error');
    expect(resultTone('recharging')).toBe('info');
  });
});

describe('CheckoutDialog', () => {
  it('prices the batch, orders and pays: the browser goes to the hosted checkout', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/adminNew/setting/rechargePay' });
    const api = installFakeApi({
      quoteRechargeOrder: ok(quote()),
      createRechargeOrder: ok({
        orderNo: 'RC202606150000000001',
        amount: 10800,
        discount: 1200,
        currency: 'CNY',
        status: 'unpaid',
      }),
      payOrder: ok({ payUrl: '/pay/sandbox/ps_abc' }),
    });
    renderWithApp(<CheckoutDialog pns={PNS} open onClose={() => {}} />, { role: ROLE.DISTRIBUTOR });
    await waitFor(() => expect(screen.getByTestId('checkout-total').textContent).toContain('108.00'));
    expect(screen.getByTestId('checkout-price').textContent).toContain('120.00');
    expect(api.last('quoteRechargeOrder')?.get('pns')).toBe(PNS.join(','));
    expect(api.last('quoteRechargeOrder')?.get('months')).toBe('12');
    fireEvent.click(screen.getByTestId('checkout-pay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/pay/sandbox/ps_abc'));
    expect(api.last('createRechargeOrder')?.get('package')).toBe('CN-30MB');
    expect(api.last('payOrder')?.get('orderNo')).toBe('RC202606150000000001');
    expect(api.last('payOrder')?.get('returnPath')).toBe('/adminNew/setting/rechargePay/result');
    vi.unstubAllGlobals();
  });

  it('shows the batch-rule error and does not let the payer pay', async () => {
    installFakeApi({ quoteRechargeOrder: ok(quote({ batchError: 'mixed_load', batchPn: PNS[1]! })) });
    renderWithApp(<CheckoutDialog pns={PNS} open onClose={() => {}} />, { role: ROLE.DISTRIBUTOR });
    const alert = await screen.findByTestId('checkout-batch-error');
    expect(alert.textContent).toContain(`Datalogger ${PNS[1]} has another load count`);
    expect(screen.getByTestId('checkout-pay').closest('button')!.disabled).toBe(true);
  });
});

describe('RechargeResultPage', () => {
  it('shows the order and the cards renewed', async () => {
    const r: PayResult = {
      orderNo: 'RC1',
      kind: 'recharge',
      status: 'success',
      amount: 10800,
      currency: 'CNY',
      paidAt: Date.UTC(2026, 5, 15),
      createdAt: Date.UTC(2026, 5, 15),
      payment: 'succeeded',
      method: 'card',
      failReason: '',
      description: 'CN-30MB · 2 × 12',
      cards: [
        {
          pn: PNS[0]!,
          ccid: '89860000000000000001',
          creditState: 'applied',
          expireBefore: Date.UTC(2026, 11, 1),
          expireAfter: Date.UTC(2027, 11, 1),
          effectiveAt: Date.UTC(2026, 5, 15),
        },
      ],
    };
    installFakeApi({ queryPayResult: ok(r) });
    renderWithApp(<RechargeResultPage />, {
      role: ROLE.DISTRIBUTOR,
      path: '/adminNew/setting/rechargePay/result?kind=recharge&orderNo=RC1',
    });
    expect((await screen.findByTestId('result-status')).textContent).toBe('Recharge successful');
    expect(screen.getByTestId(`result-expiry-${PNS[0]}`).textContent).toContain('2027');
    expect(screen.getByText('Renewed')).toBeTruthy();
  });
});
