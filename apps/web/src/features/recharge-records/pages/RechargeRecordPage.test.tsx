import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RechargeRecordDetail, RechargeRecordRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import RechargeRecordPage from './RechargeRecordPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

function record(over: Partial<RechargeRecordRow> = {}): RechargeRecordRow {
  return {
    id: 7,
    orderNo: 'RC20260601009005',
    status: 'unpaid',
    accountUid: 5,
    accountUsr: 'owner_anna',
    vendorUid: 2,
    vendorUsr: 'sunmaker',
    months: 3,
    package: 'EU-100MB',
    amount: 750,
    discount: 0,
    currency: 'EUR',
    method: 'card',
    channel: 'sandbox',
    area: 'international',
    providerRef: '',
    items: 4,
    pns: ['SWNORTH0000001', 'SWNORTH0000002', 'SWNORTH0000003'],
    loads: [2],
    cardStatuses: ['warning'],
    own: true,
    createdAt: Date.UTC(2026, 5, 1, 8),
    paidAt: null,
    finishedAt: null,
    updatedAt: Date.UTC(2026, 5, 1, 8),
    ...over,
  };
}

const DONE = record({
  id: 8,
  orderNo: 'RC20260501009001',
  status: 'success',
  amount: 12000,
  discount: 1500,
  currency: 'CNY',
  method: 'scan',
  area: 'mainland',
  items: 2,
  pns: ['SWNORTH0000201', 'SWNORTH0000202'],
  loads: [4],
  cardStatuses: ['normal', 'overdue'],
  own: false,
  accountUsr: 'dealer_north',
});

const DETAIL: RechargeRecordDetail = {
  order: DONE,
  items: [
    {
      id: 1,
      pn: 'SWNORTH0000201',
      ccid: '89860000000000000001',
      load: 4,
      cardStatus: 'normal',
      creditState: 'applied',
      expireAt: Date.UTC(2027, 4, 1),
    },
    {
      id: 2,
      pn: 'SWNORTH0000202',
      ccid: '89860000000000000002',
      load: 4,
      cardStatus: 'overdue',
      creditState: 'pending',
      expireAt: null,
    },
  ],
};

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('rechargeRecord page', () => {
  it('lists from the address-bar state on the server: money, states, loads, card statuses, a Pay link for own unpaid orders', async () => {
    const api = installFakeApi({ queryMyRechargeOrders: paged('orders', [record(), DONE], { total: 23 }) });
    renderWithApp(<RechargeRecordPage />, {
      role: 0,
      path: '/generalNew/setting/rechargeRecord?status=unpaid&area=international&method=card&page=2&q=SWNORTH&from=2026-06-01&to=2026-06-30',
    });
    const rows = await screen.findAllByTestId('record-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(2);
    const q = api.last('queryMyRechargeOrders')!;
    expect([
      q.get('status'),
      q.get('area'),
      q.get('method'),
      q.get('page'),
      q.get('pagesize'),
      q.get('search'),
    ]).toEqual(['unpaid', 'international', 'card', '1', '10', 'SWNORTH']);
    expect(Number(q.get('end')) - Number(q.get('start'))).toBe(30 * 86_400_000 - 1);
    expect(within(rows[0]!).getByTestId('record-amount').textContent).toBe('€7.50');
    expect(within(rows[1]!).getByTestId('record-amount').textContent).toBe('CN¥120.00');
    expect(within(rows[1]!).getByText('CN¥15.00')).toBeTruthy();
    expect(within(rows[0]!).getByText('+1 more')).toBeTruthy();
    expect(within(rows[0]!).getByTestId('record-status').textContent).toBe('Unpaid');
    expect(within(rows[1]!).getByTestId('record-status').className).toContain('success');
    expect(within(rows[1]!).getByText('Chat app scan')).toBeTruthy();
    expect(within(rows[1]!).getByText('Mainland China')).toBeTruthy();
    expect(within(rows[1]!).getByText('Normal')).toBeTruthy();
    expect(within(rows[1]!).getByText('Overdue')).toBeTruthy();
    expect(screen.getByText('23 orders')).toBeTruthy();
    // Pay only for the caller's own unpaid order, to rechargePay of the same area.
    const pay = within(rows[0]!).getByTestId('record-pay');
    expect(pay.getAttribute('href')).toBe('/generalNew/setting/rechargePay?order=RC20260601009005');
    expect(within(rows[1]!).queryByTestId('record-pay')).toBeNull();
  }, 60_000);

  it('the drawer shows the cards with their renewal and expiry', async () => {
    const api = installFakeApi({
      queryMyRechargeOrders: paged('orders', [DONE]),
      queryMyRechargeOrder: ok(DETAIL),
    });
    renderWithApp(<RechargeRecordPage />, { role: 2, path: '/adminNew/setting/rechargeRecord' });
    fireEvent.click(
      within(await screen.findByTestId('record-row', {}, { timeout: 10_000 })).getByTestId('record-open'),
    );
    const drawer = await screen.findByTestId('record-drawer');
    await within(drawer).findByText('89860000000000000001', {}, { timeout: 10_000 });
    expect(api.last('queryMyRechargeOrder')?.get('id')).toBe('8');
    const items = within(drawer).getAllByTestId('drawer-item');
    expect(items.map((i) => i.getAttribute('data-pn'))).toEqual(['SWNORTH0000201', 'SWNORTH0000202']);
    expect(within(items[0]!).getByTestId('item-credit').textContent).toBe('Renewed');
    expect(within(items[1]!).getByTestId('item-credit').textContent).toBe('Renewal due');
    expect(within(drawer).getByText('Cards (2)')).toBeTruthy();
    expect(within(drawer).getByTestId('drawer-amount').textContent).toBe('CN¥120.00');
    expect(within(drawer).queryByTestId('drawer-pay')).toBeNull();
  }, 60_000);

  it('an unpaid own order in the drawer links to payment', async () => {
    installFakeApi({
      queryMyRechargeOrders: paged('orders', [record()]),
      queryMyRechargeOrder: ok({ order: record(), items: [] }),
    });
    renderWithApp(<RechargeRecordPage />, { role: 2, path: '/adminNew/setting/rechargeRecord' });
    fireEvent.click(
      within(await screen.findByTestId('record-row', {}, { timeout: 10_000 })).getByTestId('record-open'),
    );
    const pay = await screen.findByTestId('drawer-pay', {}, { timeout: 10_000 });
    expect(pay.getAttribute('href')).toBe('/adminNew/setting/rechargePay?order=RC20260601009005');
  }, 60_000);

  it('exports the filtered list as the server built it; too many and nothing are explained', async () => {
    const created = vi.fn(() => 'blob:records');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const api = installFakeApi({
      queryMyRechargeOrders: paged('orders', [record(), DONE]),
      exportMyRechargeOrders: ok({
        name: 'Recharge records_20260601-0800.xlsx',
        mime: 'x',
        size: 3,
        rows: 2,
        data: 'AQID',
      }),
    });
    renderWithApp(<RechargeRecordPage />, { role: 0, path: '/generalNew/setting/rechargeRecord?status=success&q=SWN' });
    await screen.findAllByTestId('record-row', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('records-export'));
    await waitFor(() => expect(clicks).toEqual(['Recharge records_20260601-0800.xlsx']), { timeout: 10_000 });
    const sent = api.last('exportMyRechargeOrders')!;
    expect([sent.get('status'), sent.get('search'), sent.get('page'), sent.get('tz')]).toEqual([
      'success',
      'SWN',
      null,
      String(-new Date().getTimezoneOffset() * 60),
    ]);
    expect(await screen.findByText('2 orders exported', {}, { timeout: 10_000 })).toBeTruthy();
    api.on({ exportMyRechargeOrders: fail(13) });
    fireEvent.click(screen.getByTestId('records-export'));
    expect(
      await screen.findByText('More than 10,000 orders match: narrow the filters to export', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    api.on({ exportMyRechargeOrders: fail(264) });
    fireEvent.click(screen.getByTestId('records-export'));
    expect(
      await screen.findByText('No orders match the filters: nothing to export', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(clicks).toHaveLength(1);
    click.mockRestore();
  }, 60_000);

  it('speaks the caller’s language', async () => {
    await i18n.changeLanguage('de_DE');
    installFakeApi({ queryMyRechargeOrders: paged('orders', [DONE]) });
    renderWithApp(<RechargeRecordPage />, { role: 0, path: '/generalNew/setting/rechargeRecord' });
    const row = await screen.findByTestId('record-row', {}, { timeout: 10_000 });
    expect(within(row).getByTestId('record-status').textContent).toBe('Erfolgreich');
    expect(screen.getByText('Aufladeverlauf')).toBeTruthy();
  }, 60_000);
});
