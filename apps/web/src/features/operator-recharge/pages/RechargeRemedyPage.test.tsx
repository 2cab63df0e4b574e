import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RechargeOrderDetail, RechargeOrderRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import RechargeRemedyPage from './RechargeRemedyPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

function order(over: Partial<RechargeOrderRow> = {}): RechargeOrderRow {
  return {
    id: 7,
    orderNo: 'RC20260601009006',
    status: 'overdue',
    accountUid: 5,
    accountUsr: 'owner_ben',
    vendorUid: 2,
    vendorUsr: 'sunmaker',
    months: 12,
    package: 'EU-50MB',
    amount: 1350,
    discount: 150,
    currency: 'EUR',
    method: 'card',
    channel: 'sandbox',
    area: 'international',
    providerRef: 'SBX-1',
    items: 5,
    pns: ['SWSOUTH0000001', 'SWSOUTH0000002', 'SWSOUTH0000003'],
    remedies: 1,
    createdAt: Date.UTC(2026, 5, 1, 8),
    paidAt: Date.UTC(2026, 5, 1, 8, 5),
    finishedAt: null,
    updatedAt: Date.UTC(2026, 5, 1, 8, 5),
    ...over,
  };
}

const DONE = order({ id: 8, orderNo: 'RC20260501009001', status: 'success', items: 1, pns: ['SWNORTH0000001'] });

const DETAIL: RechargeOrderDetail = {
  order: order(),
  items: [
    { id: 1, pn: 'SWSOUTH0000001', ccid: '89490000000000000001', load: 3, cardStatus: 'warning', creditState: 'none' },
  ],
  remedies: [
    {
      id: 3,
      from: 'recharging',
      to: 'overdue',
      reason: 'Carrier ticket 4711: no credit after 14 days',
      operator: 'operator',
      at: Date.UTC(2026, 5, 20, 9),
    },
  ],
};

/** Opens the antd select with this input id and picks the option with this text. */
async function pick(id: string, text: string) {
  fireEvent.mouseDown(document.querySelector(`#${id}`)!);
  const dropdown = await waitFor(() => {
    const d = document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    if (!d) throw new Error('no dropdown');
    return d as HTMLElement;
  });
  fireEvent.click(within(dropdown).getByText(text));
  return dropdown;
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('rechargeRemedy page', () => {
  it('lists from the address-bar state on the server, money in the currency, more PNs folded', async () => {
    const api = installFakeApi({ queryRechargeOrders: paged('orders', [order(), DONE], { total: 23 }) });
    renderWithApp(<RechargeRemedyPage />, { role: 15, path: '/?status=overdue&page=2&q=SWSOUTH' });
    const rows = await screen.findAllByTestId('order-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(2);
    const q = api.last('queryRechargeOrders')!;
    expect([q.get('status'), q.get('page'), q.get('pagesize'), q.get('search')]).toEqual([
      'overdue',
      '1',
      '10',
      'SWSOUTH',
    ]);
    expect(within(rows[0]!).getByTestId('order-amount').textContent).toBe('€13.50');
    expect(within(rows[0]!).getByText('+2 more')).toBeTruthy();
    expect(within(rows[0]!).getByText('EU-50MB · 12 months')).toBeTruthy();
    expect(screen.getByText('23 orders')).toBeTruthy();
    // a credited order offers no remedy
    expect((within(rows[1]!).getByTestId('order-remedy') as HTMLButtonElement).disabled).toBe(true);
  }, 60_000);

  it('remedy: only the allowed states, a reason required, then sent with the state seen', async () => {
    const api = installFakeApi({
      queryRechargeOrders: paged('orders', [order()]),
      remedyRechargeOrder: ok({ status: 'success' }),
    });
    renderWithApp(<RechargeRemedyPage />, { role: 15 });
    const row = await screen.findByTestId('order-row', {}, { timeout: 10_000 });
    fireEvent.click(within(row).getByTestId('order-remedy'));
    await screen.findByTestId('remedy-form');
    fireEvent.click(screen.getByTestId('remedy-ok'));
    expect(await screen.findByText('Pick one of the offered states')).toBeTruthy();
    const dropdown = await pick('remedy-status', 'Successful');
    const offered = [...dropdown.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    expect(offered).toEqual(['Recharging', 'Successful', 'Failed']);
    fireEvent.click(screen.getByTestId('remedy-ok'));
    expect(await screen.findByText('A reason is required')).toBeTruthy();
    expect(api.count('remedyRechargeOrder')).toBe(0);
    fireEvent.change(screen.getByTestId('remedy-reason'), { target: { value: '  Carrier confirmed the credit  ' } });
    fireEvent.click(screen.getByTestId('remedy-ok'));
    await waitFor(() => expect(api.count('remedyRechargeOrder')).toBe(1));
    const sent = api.last('remedyRechargeOrder')!;
    expect([sent.get('id'), sent.get('from'), sent.get('status'), sent.get('reason')]).toEqual([
      '7',
      'overdue',
      'success',
      'Carrier confirmed the credit',
    ]);
    await waitFor(() => expect(screen.queryByTestId('remedy-form')).toBeNull());
    await waitFor(() => expect(api.count('queryRechargeOrders')).toBe(2)); // the list reloads
  }, 60_000);

  it('a remedy refused because another operator came first says so', async () => {
    installFakeApi({
      queryRechargeOrders: paged('orders', [order({ status: 'unpaid' })]),
      remedyRechargeOrder: fail(14),
    });
    renderWithApp(<RechargeRemedyPage />, { role: 15 });
    fireEvent.click(
      within(await screen.findByTestId('order-row', {}, { timeout: 10_000 })).getByTestId('order-remedy'),
    );
    const dropdown = await pick('remedy-status', 'Paid');
    expect([...dropdown.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
      'Paid',
      'Failed',
      'Expired',
    ]);
    fireEvent.change(screen.getByTestId('remedy-reason'), { target: { value: 'Bank statement shows it' } });
    fireEvent.click(screen.getByTestId('remedy-ok'));
    expect((await screen.findByTestId('remedy-error')).textContent).toContain('Someone changed this order meanwhile');
  }, 60_000);

  it('the drawer shows the cards as ordered and the remedy history', async () => {
    const api = installFakeApi({ queryRechargeOrders: paged('orders', [order()]), queryRechargeOrder: ok(DETAIL) });
    renderWithApp(<RechargeRemedyPage />, { role: 15 });
    fireEvent.click(within(await screen.findByTestId('order-row', {}, { timeout: 10_000 })).getByTestId('order-open'));
    const drawer = await screen.findByTestId('recharge-drawer');
    await within(drawer).findByText('89490000000000000001', {}, { timeout: 10_000 });
    expect(api.last('queryRechargeOrder')?.get('id')).toBe('7');
    expect(within(drawer).getByText('Warning')).toBeTruthy();
    expect(within(drawer).getByText('Cards (1)')).toBeTruthy();
    expect(within(drawer).getByTestId('drawer-amount').textContent).toBe('€13.50');
    const history = within(drawer).getAllByTestId('drawer-remedy-row');
    expect(history).toHaveLength(1);
    expect(within(history[0]!).getByText('Carrier ticket 4711: no credit after 14 days')).toBeTruthy();
    expect(within(history[0]!).getByText(/^by operator,/)).toBeTruthy();
  }, 60_000);
});
