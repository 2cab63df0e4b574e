import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccelerationChangeRow, AccelerationOrderRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import CollectionFrequencyRecordPage from './CollectionFrequencyRecordPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

function order(over: Partial<AccelerationOrderRow> = {}): AccelerationOrderRow {
  return {
    id: 1,
    orderNo: 'AC20260615040000ABCD1234',
    pn: 'SWNORTH0000001',
    alias: 'Anna hybrid',
    type: 'history',
    interval: 10,
    fromInterval: 60,
    storageMonths: 3,
    parameters: 40,
    loads: 3,
    amount: 15200,
    currency: 'CNY',
    method: 'card',
    status: 'paid',
    accountUsr: 'owner_anna',
    providerRef: 'SBX-1',
    change: 'applied',
    termsAcceptedAt: Date.UTC(2026, 5, 15, 4),
    createdAt: Date.UTC(2026, 5, 15, 4),
    paidAt: Date.UTC(2026, 5, 15, 4, 1),
    appliedAt: Date.UTC(2026, 5, 15, 4, 2),
    ...over,
  };
}

const CHANGE: AccelerationChangeRow = {
  id: 5,
  orderNo: 'AC20260615040000ABCD1234',
  pn: 'SWNORTH0000001',
  fromInterval: 60,
  toInterval: 10,
  status: 'pending',
  attempts: 0,
  lastError: 'offline',
  createdAt: Date.UTC(2026, 5, 15, 4, 1),
  appliedAt: null,
  ackInterval: null,
};

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('collectionFrequencyRecord page', () => {
  it('lists orders from the address-bar state, paged on the server, with price and the interval change', async () => {
    const api = installFakeApi({ queryAccelerationOrders: paged('orders', [order()], { total: 31 }) });
    renderWithApp(<CollectionFrequencyRecordPage />, { role: 0, path: '/x?status=paid&type=history&page=2&q=SWN' });
    const row = await screen.findByTestId('accel-order-row', {}, { timeout: 10_000 });
    const q = api.last('queryAccelerationOrders')!;
    expect([q.get('status'), q.get('type'), q.get('page'), q.get('pagesize'), q.get('search')]).toEqual([
      'paid',
      'history',
      '1',
      '10',
      'SWN',
    ]);
    expect(within(row).getByTestId('accel-amount').textContent).toBe('CN¥152.00');
    expect(within(row).getByText('60 s → 10 s · 3 months of storage')).toBeTruthy();
    expect(within(row).getByText('Detail / history data')).toBeTruthy();
    expect(within(row).getByTestId('accel-change').textContent).toBe('Applied');
    expect(screen.getByText('Total: 31')).toBeTruthy();
    expect(screen.getByTestId('accel-buy')).toBeTruthy();
    expect(api.count('queryAccelerationChanges')).toBe(0);
  }, 60_000);

  it('the interval changes view: old → new, and why a change still waits', async () => {
    const api = installFakeApi({
      queryAccelerationOrders: paged('orders', []),
      queryAccelerationChanges: paged('rows', [
        CHANGE,
        { ...CHANGE, id: 6, status: 'applied', lastError: '', appliedAt: Date.UTC(2026, 5, 15, 5), ackInterval: 10 },
      ]),
    });
    renderWithApp(<CollectionFrequencyRecordPage />, { role: 2, path: '/x?view=changes&change=pending' });
    const rows = await screen.findAllByTestId('accel-change-row', {}, { timeout: 10_000 });
    expect(api.last('queryAccelerationChanges')?.get('status')).toBe('pending');
    expect(within(rows[0]!).getByTestId('accel-interval').textContent).toBe('60 s → 10 s');
    expect(within(rows[0]!).getByText('Waiting for the datalogger to come online')).toBeTruthy();
    expect(within(rows[1]!).getByText(/^Acknowledged .* \(10 s\)$/)).toBeTruthy();
    expect(api.count('queryAccelerationOrders')).toBe(0);
  }, 60_000);

  it('coming back from the checkout shows the order’s result; group accounts get no buy button', async () => {
    installFakeApi({
      queryAccelerationOrders: paged('orders', [order({ change: 'pending' })]),
      queryAccelerationOrder: ok(order({ change: 'pending' })),
    });
    renderWithApp(<CollectionFrequencyRecordPage />, { role: 3, path: '/x?order=AC20260615040000ABCD1234' });
    const result = await screen.findByTestId('accel-result', {}, { timeout: 10_000 });
    await waitFor(() => expect(result.textContent).toContain('is being sent to SWNORTH0000001'));
    expect(screen.queryByTestId('accel-buy')).toBeNull();
    fireEvent.click(result.querySelector('.ant-alert-close-icon')!);
    await waitFor(() => expect(screen.queryByTestId('accel-result')).toBeNull());
  }, 60_000);
});
