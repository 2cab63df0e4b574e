import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CardStatus, GprsCollectorRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, paged, renderWithApp, resetAppTest, signInAs } from '../../../test/fake-api';
import { setPermissions } from '../../../app/session';
import type { CheckoutProps } from '../checkout';
import RechargePayPage from './RechargePayPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const DAY = 86_400_000;
const now = Date.now();
const CODES: CardStatus[] = ['normal', 'warning', 'overdue', 'expired', 'unknown'];

function card(pn: string, over: Partial<GprsCollectorRow['gprs']> = {}, load = 1): GprsCollectorRow {
  const status = over.status ?? 'normal';
  return {
    pn,
    alias: `${pn} alias`,
    datFetch: 300,
    timezone: 3600,
    load,
    status: 0,
    uid: 1,
    pid: 1,
    type: 'SW',
    fireware: '1.0',
    gprs: {
      ccid: `8986${pn.slice(-6)}0000000000`,
      card: CODES.indexOf(status),
      imsi: '460001234567890',
      expire: '2027-01-01',
      traffic: 45,
      operator: 'China Mobile',
      package: '100 MB / month',
      usedKb: 45 * 1024,
      limitKb: 100 * 1024,
      network: '4G',
      cardType: 'standard',
      area: 'mainland',
      activated: '2026-01-01',
      activatedAt: now - 100 * DAY,
      expireAt: now + 100 * DAY,
      status,
      ...over,
    },
  };
}

const A = card('SW0000000001');
const B = card('SW0000000002', { status: 'warning', network: '2G', usedKb: 95 * 1024 });
const C = card('SW0000000003', { area: 'international', operator: 'Vodafone' });
const D = card('SW0000000004', { status: 'expired', expireAt: now - 200 * DAY });
const E = card('SW0000000005', { status: 'unknown', ccid: '', expireAt: 0, activatedAt: 0, expire: '' });
const STAT = { normal: 12, warning: 4, overdue: 2, expired: 1, unknown: 3, sunset: 5 };

const rowOf = (pn: string) => screen.getAllByTestId('card-row').find((r) => r.getAttribute('data-pn') === pn)!;
const checkbox = (pn: string) => within(rowOf(pn)).getByRole('checkbox') as HTMLInputElement;

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('rechargePay page', () => {
  it('lists on the server from the address bar, with counts per status, bars and the 2G notice', async () => {
    const api = installFakeApi({ queryGprsCollector: paged('collector', [A, B, D, E], { total: 22, stat: STAT }) });
    renderWithApp(<RechargePayPage />, { role: 2, path: '/?status=warning&q=8986&load=1&page=2' });
    const rows = await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(4);
    const q = api.last('queryGprsCollector')!;
    expect([
      q.get('cardStatus'),
      q.get('search'),
      q.get('load'),
      q.get('page'),
      q.get('pagesize'),
      q.get('stat'),
    ]).toEqual(['warning', '8986', '1', '1', '10', 'true']);
    // Summary: one card per status with its count.
    expect(within(screen.getByTestId('summary-normal')).getByText('12')).toBeTruthy();
    expect(within(screen.getByTestId('summary-unknown')).getByText('3')).toBeTruthy();
    // The 2G notice names how many, and offers to filter them.
    expect(screen.getByTestId('sunset-notice').textContent).toContain('2G dataloggers in this list: 5');
    fireEvent.click(screen.getByTestId('sunset-show'));
    await waitFor(() => expect(api.last('queryGprsCollector')!.get('network')).toBe('2G'));
    // Row contents: CCID, operator and package, usage and validity, status tag.
    const a = rowOf('SW0000000001');
    expect(within(a).getByText('China Mobile')).toBeTruthy();
    expect(within(a).getByText('100 MB / month')).toBeTruthy();
    expect(within(a).getByTestId('card-usage').textContent).toBe('45 MB of 100 MB');
    expect(Number(within(a).getByTestId('card-validity-today').getAttribute('data-share'))).toBeCloseTo(0.5, 2);
    expect(within(rowOf('SW0000000002')).getByTestId('card-status').textContent).toBe('Warning');
    expect(within(rowOf('SW0000000005')).getByText('Expiry unknown')).toBeTruthy();
    expect(within(rowOf('SW0000000005')).getByText('No CCID reported')).toBeTruthy();
    // A summary card filters by its status.
    fireEvent.click(screen.getByTestId('summary-expired'));
    await waitFor(() => expect(api.last('queryGprsCollector')!.get('cardStatus')).toBe('expired'));
  }, 60_000);

  it('no 2G notice when no 2G cards are listed', async () => {
    installFakeApi({ queryGprsCollector: paged('collector', [A], { stat: { ...STAT, sunset: 0 } }) });
    renderWithApp(<RechargePayPage />, { role: 2 });
    await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('sunset-notice')).toBeNull();
  }, 60_000);

  it('checks the batch rule live, explains a refusal, and opens the checkout with the picked PNs', async () => {
    installFakeApi({ queryGprsCollector: paged('collector', [A, B, C, D, E], { stat: STAT }) });
    const opened: CheckoutProps[] = [];
    const Checkout = (p: CheckoutProps) => {
      if (p.open) opened.push(p);
      return p.open ? <div data-testid="fake-checkout">{p.pns.join(',')}</div> : null;
    };
    renderWithApp(<RechargePayPage checkout={Checkout} />, { role: 0 });
    await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    const button = () => screen.getByTestId('recharge-button') as HTMLButtonElement;
    expect(button().disabled).toBe(true);
    // Expired and CCID-less cards cannot be picked.
    expect(checkbox('SW0000000004').disabled).toBe(true);
    expect(checkbox('SW0000000005').disabled).toBe(true);
    fireEvent.click(checkbox('SW0000000001'));
    fireEvent.click(checkbox('SW0000000002')); // normal + warning: both active, allowed
    await waitFor(() => expect(screen.getByTestId('selection-count').textContent).toBe('Selected: 2'));
    expect(screen.queryByTestId('selection-problem')).toBeNull();
    expect(button().disabled).toBe(false);
    // Another area: refused, with the reason naming the card.
    fireEvent.click(checkbox('SW0000000003'));
    const problem = await screen.findByTestId('selection-problem');
    expect(problem.getAttribute('data-reason')).toBe('mixed_area');
    expect(problem.textContent).toContain('The card of SW0000000003 belongs to another service area');
    expect(button().disabled).toBe(true);
    fireEvent.click(checkbox('SW0000000003'));
    await waitFor(() => expect(screen.queryByTestId('selection-problem')).toBeNull());
    fireEvent.click(button());
    expect((await screen.findByTestId('fake-checkout')).textContent).toBe('SW0000000001,SW0000000002');
    expect(opened.at(-1)!.pns).toEqual(['SW0000000001', 'SW0000000002']);
    fireEvent.click(screen.getByTestId('selection-clear'));
    await waitFor(() => expect(screen.getByTestId('selection-count').textContent).toBe('Selected: 0'));
  }, 60_000);

  it('without a checkout the Recharge button stays disabled', async () => {
    installFakeApi({ queryGprsCollector: paged('collector', [A], { stat: STAT }) });
    renderWithApp(<RechargePayPage checkout={null} />, { role: 0 });
    await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    fireEvent.click(checkbox('SW0000000001'));
    await waitFor(() => expect(screen.getByTestId('selection-count').textContent).toBe('Selected: 1'));
    expect((screen.getByTestId('recharge-button') as HTMLButtonElement).disabled).toBe(true);
  }, 60_000);

  it('a sub-administrator without the settings right sees the cards but cannot pay', async () => {
    installFakeApi({ queryGprsCollector: paged('collector', [A], { stat: STAT }) });
    signInAs(2);
    setPermissions({ modules: ['device_manag'], firstPages: [], secondPages: [], buttons: [] });
    const Checkout = () => <div data-testid="fake-checkout" />;
    renderWithApp(<RechargePayPage checkout={Checkout} />);
    await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    fireEvent.click(checkbox('SW0000000001'));
    await waitFor(() => expect(screen.getByTestId('selection-count').textContent).toBe('Selected: 1'));
    expect((screen.getByTestId('recharge-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('fake-checkout')).toBeNull();
  }, 60_000);

  it('other languages: the texts are translated', async () => {
    await i18n.changeLanguage('de_DE');
    installFakeApi({ queryGprsCollector: paged('collector', [B], { stat: STAT }) });
    renderWithApp(<RechargePayPage />, { role: 2 });
    await screen.findAllByTestId('card-row', {}, { timeout: 10_000 });
    expect(screen.getByTestId('sunset-notice').textContent).toContain('2G-Netze werden abgeschaltet');
    expect(within(rowOf('SW0000000002')).getByTestId('card-status').textContent).toBe('Warnung');
  }, 60_000);
});
