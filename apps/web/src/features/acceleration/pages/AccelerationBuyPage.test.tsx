import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccelerationCandidate, AccelerationQuote } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import AccelerationBuyPage, { checkout } from './AccelerationBuyPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const WIFI: AccelerationCandidate = {
  pn: 'SWNORTH0000001',
  alias: 'Anna hybrid',
  commMethod: 'Wi-Fi',
  collectInterval: 60,
  loads: 3,
  status: 0,
};

const quote = (p: URLSearchParams): AccelerationQuote => {
  const interval = Number(p.get('interval'));
  const history = p.get('type') === 'history';
  const total = history ? 40000 : interval === 30 ? 18000 : 30000;
  return {
    pn: p.get('pn')!,
    type: history ? 'history' : 'flow',
    interval,
    storageMonths: Number(p.get('storage') ?? 0),
    currentInterval: 60,
    parameters: 40,
    price: {
      blocks: 2,
      loads: 3,
      collectionMinor: total,
      storageMinor: 0,
      totalMinor: total,
      currency: 'CNY',
    },
  };
};

async function pickDatalogger(text: string) {
  fireEvent.mouseDown(document.querySelector('#accel-datalogger')!);
  const dropdown = await waitFor(() => {
    const d = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (!d) throw new Error('no dropdown');
    return d as HTMLElement;
  });
  fireEvent.click(await within(dropdown).findByText(text));
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  resetAppTest();
  vi.restoreAllMocks();
});

describe('acceleration purchase page', () => {
  it('live price from the server; pay only after the terms dialog was accepted; then the checkout opens', async () => {
    const open = vi.spyOn(checkout, 'open').mockImplementation(() => undefined);
    const api = installFakeApi({
      queryAccelerationCandidates: paged('rows', [WIFI]),
      queryAccelerationQuote: (p) => ok(quote(p)),
      createAccelerationOrder: ok({
        orderNo: 'AC20260615040000ABCD1234',
        amount: 18000,
        currency: 'CNY',
        status: 'unpaid',
      }),
      payOrder: ok({ payUrl: 'http://localhost/pay/sandbox/xyz' }),
    });
    renderWithApp(<AccelerationBuyPage />, { role: 0, path: '/generalNew/setting/collectionFrequencyRecord/buy' });
    await pickDatalogger('SWNORTH0000001 · Anna hybrid (60 s)');
    // 60 s is what it has: only 30 s and 10 s are offered, the fastest-but-one picked first
    const intervals = within(screen.getByTestId('accel-interval'));
    expect(intervals.queryByText('60 s')).toBeNull();
    expect(intervals.getByText('30 s')).toBeTruthy();
    expect((await screen.findByTestId('accel-price', {}, { timeout: 10_000 })).textContent).toContain('180.00');
    expect(api.last('queryAccelerationQuote')?.get('interval')).toBe('30');
    fireEvent.click(intervals.getByText('10 s'));
    await waitFor(() => expect(screen.getByTestId('accel-price').textContent).toContain('300.00'));
    // history asks for a storage time (1 month first)
    fireEvent.click(screen.getByTestId('accel-type-history'));
    await waitFor(() => expect(api.last('queryAccelerationQuote')?.get('storage')).toBe('1'));
    expect(screen.getByTestId('accel-storage')).toBeTruthy();
    fireEvent.click(screen.getByTestId('accel-type-flow'));
    const submit = screen.getByTestId('accel-submit') as HTMLButtonElement;
    await waitFor(() => expect(screen.getByTestId('accel-price').textContent).toContain('300.00'));
    expect(submit.disabled).toBe(true);
    // ticking the box opens the terms; only "I accept" accepts them
    fireEvent.click(screen.getByTestId('accel-terms-check'));
    const dialog = await screen.findByText('Acceleration terms');
    expect(dialog).toBeTruthy();
    expect(screen.getByText('The payment is not refundable.')).toBeTruthy();
    expect(screen.getByText(/only on Wi-Fi module dataloggers/)).toBeTruthy();
    expect(screen.getByText(/There is currently no validity limit/)).toBeTruthy();
    expect(submit.disabled).toBe(true);
    fireEvent.click(screen.getByTestId('accel-terms-accept'));
    await waitFor(() => expect(submit.disabled).toBe(false));
    fireEvent.click(screen.getByTestId('accel-method').querySelector('input[value="paypal"]')!);
    expect(screen.getByText(/shown in RMB/)).toBeTruthy();
    fireEvent.click(submit);
    await waitFor(() => expect(open).toHaveBeenCalledWith('http://localhost/pay/sandbox/xyz'));
    const created = api.last('createAccelerationOrder')!;
    expect([
      created.get('pn'),
      created.get('type'),
      created.get('interval'),
      created.get('termsAccepted'),
      created.get('method'),
    ]).toEqual(['SWNORTH0000001', 'flow', '10', 'true', 'paypal']);
    const pay = api.last('payOrder')!;
    expect([pay.get('kind'), pay.get('orderNo'), pay.get('method'), pay.get('returnPath')]).toEqual([
      'acceleration',
      'AC20260615040000ABCD1234',
      'paypal',
      '/generalNew/setting/collectionFrequencyRecord?order=AC20260615040000ABCD1234',
    ]);
  }, 60_000);

  it('a refused order (e.g. not a Wi-Fi datalogger) says why and opens no checkout', async () => {
    const open = vi.spyOn(checkout, 'open').mockImplementation(() => undefined);
    const api = installFakeApi({
      queryAccelerationCandidates: paged('rows', [WIFI]),
      queryAccelerationQuote: (p) => ok(quote(p)),
      createAccelerationOrder: fail(9, 'Not supported'),
    });
    renderWithApp(<AccelerationBuyPage />, { role: 2, path: '/adminNew/setting/collectionFrequencyRecord/buy' });
    await pickDatalogger('SWNORTH0000001 · Anna hybrid (60 s)');
    await screen.findByTestId('accel-price', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('accel-terms-open'));
    fireEvent.click(await screen.findByTestId('accel-terms-accept'));
    const submit = screen.getByTestId('accel-submit') as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(false));
    fireEvent.click(submit);
    expect((await screen.findByTestId('accel-buy-error')).textContent).toContain('Not supported');
    expect(api.count('payOrder')).toBe(0);
    expect(open).not.toHaveBeenCalled();
  }, 60_000);
});
