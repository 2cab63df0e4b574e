import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncomeFigure, TariffWire } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import RatePage from './RatePage';

// jsdom has no canvas: ECharts draws into a context that accepts every call (the chart's element
// still reports what it was given: series and points).
const fakeContext = new Proxy({} as Record<string | symbol, unknown>, {
  get: (t, p) => (p in t ? t[p] : () => ({ width: 0, addColorStop: () => undefined })),
  set: (t, p, v) => {
    t[p] = v;
    return true;
  },
});

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const PRICES = { unitProfit: 0.2, soldProfit: 0.05, selfProfit: 0.15, purchProfit: 0.3, consProfit: 0, feedProfit: 0 };

function tariff(over: Partial<TariffWire> = {}): TariffWire {
  return {
    id: 2,
    pid: 7,
    from: '2026-06-18 00:00:00',
    fromMs: Date.UTC(2026, 5, 17, 23),
    until: '',
    currency: 'EUR',
    prices: PRICES,
    periods: [],
    state: 'current',
    createdAt: '2026-06-15 05:00:00',
    createdBy: 'owner_anna',
    ...over,
  };
}

const PEAK = tariff({
  id: 1,
  from: '2026-06-16 00:00:00',
  until: '2026-06-18 00:00:00',
  state: 'past',
  prices: { ...PRICES, unitProfit: 0.1 },
  periods: [{ kind: 'peak', name: 'Peak', weekdays: [1, 2, 3, 4, 5], from: 17, to: 21, prices: { unitProfit: 0.3 } }],
});
const PLANNED = tariff({
  id: 3,
  from: '2099-01-01 00:00:00',
  state: 'future',
  prices: { ...PRICES, unitProfit: 0.25 },
});

function figure(currency: string, gen: string, income: string): IncomeFigure {
  return {
    currency,
    generated: gen,
    sold: '0.0000',
    selfUse: gen,
    bought: '0.0000',
    used: '0.0000',
    generationIncome: income,
    soldIncome: '0.0000',
    feedIncome: '0.0000',
    selfUseIncome: '0.0000',
    purchaseCost: '0.0000',
    consumptionValue: '0.0000',
    earnings: '0.0000',
    net: '0.0000',
  };
}

const INCOME = {
  pid: 7,
  currency: 'USD',
  date: '2026-06-19',
  today: [figure('USD', '1.0000', '0.2000')],
  month: [figure('USD', '1.0000', '0.2000'), figure('EUR', '9.0000', '1.9000')],
  year: [figure('USD', '1.0000', '0.2000'), figure('EUR', '9.0000', '1.9000')],
  total: [figure('USD', '1.0000', '0.2000'), figure('EUR', '9.0000', '1.9000')],
  chartYear: '2026',
  months: [{ month: '2026-06', ...figure('EUR', '9.0000', '1.9000') }],
};

function handlers(canEdit = true) {
  return {
    webQueryPlants: ok({
      total: 2,
      page: 0,
      pagesize: 50,
      plant: [
        { pid: 7, name: 'Roof Anna' },
        { pid: 8, name: 'Barn Anna' },
      ],
    }),
    queryPlantTariffs: ok({
      pid: 7,
      timezone: 3600,
      total: 3,
      page: 0,
      pagesize: 100,
      current: tariff(),
      tariffs: [PLANNED, tariff(), PEAK],
      canEdit,
    }),
    queryPlantIncome: ok(INCOME),
  };
}

let canvas: { mockRestore: () => void } | undefined;
beforeEach(async () => {
  canvas = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(fakeContext as never);
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  resetAppTest();
  canvas?.mockRestore();
});

describe('rate page', () => {
  it('shows the chosen plant’s prices, history and income per currency (never summed)', async () => {
    const api = installFakeApi(handlers());
    renderWithApp(<RatePage />, { role: 0, path: '/?pid=7' });
    const items = await screen.findAllByTestId('tariff-item', {}, { timeout: 10_000 });
    expect(items.map((i) => i.getAttribute('data-state'))).toEqual(['future', 'current', 'past']);
    expect(within(items[2]!).getByText('Time-of-use periods: 1')).toBeTruthy();
    expect(screen.getByTestId('rate-currency').textContent).toBe('EUR');
    expect(screen.getByTestId('price-unitProfit').textContent).toBe('€0.20');
    expect(api.last('queryPlantTariffs')!.get('plantid')).toBe('7');
    const total = await screen.findByTestId('income-total');
    const figs = within(total).getAllByTestId('income-figure');
    expect(figs.map((f) => f.getAttribute('data-currency'))).toEqual(['USD', 'EUR']);
    expect(within(total).getByText('€1.90')).toBeTruthy();
    expect(within(total).getByText('$0.20')).toBeTruthy();
    // The month chart: generation and net per currency of the year's months, June non-zero.
    const chart = await screen.findByTestId('echart');
    expect(chart.getAttribute('data-series')).toBe('2');
    expect(chart.getAttribute('data-nonzero')).toBe('1');
    // Only a planned tariff can be edited or deleted.
    expect(within(items[0]!).getByTestId('tariff-edit')).toBeTruthy();
    expect(within(items[1]!).queryByTestId('tariff-edit')).toBeNull();
  }, 60_000);

  it('adds a tariff with a peak period; an overlap is refused before sending', async () => {
    const api = installFakeApi({ ...handlers(), addPlantTariff: ok({ id: 9 }) });
    renderWithApp(<RatePage />, { role: 0, path: '/?pid=7' });
    fireEvent.click(await screen.findByTestId('tariff-add', {}, { timeout: 10_000 }));
    await screen.findByTestId('tariff-form');
    fireEvent.click(screen.getByTestId('tou-add'));
    fireEvent.click(screen.getByTestId('tou-add'));
    expect(await screen.findByTestId('tou-issue')).toBeTruthy();
    expect(screen.getByText('Period 2 overlaps period 1.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('tariff-save'));
    expect(api.count('addPlantTariff')).toBe(0);
    // The second period moves to the night: no overlap any more.
    const input = (el: HTMLElement) => (el.tagName === 'INPUT' ? el : el.querySelector('input')!);
    const from = input(screen.getAllByTestId('tou-from')[1]!);
    const to = input(screen.getAllByTestId('tou-to')[1]!);
    fireEvent.change(from, { target: { value: '0' } });
    fireEvent.blur(from);
    fireEvent.change(to, { target: { value: '6' } });
    fireEvent.blur(to);
    await waitFor(() => expect(screen.queryByTestId('tou-issue')).toBeNull());
    const peakCells = screen.getAllByTestId('tou-cell').filter((c) => c.getAttribute('data-period') === '0');
    expect(peakCells).toHaveLength(5 * 4);
    fireEvent.click(screen.getByTestId('tariff-save'));
    await waitFor(() => expect(api.count('addPlantTariff')).toBe(1));
    const sent = api.last('addPlantTariff')!;
    expect(sent.get('plantid')).toBe('7');
    expect(sent.get('currency')).toBe('EUR');
    expect(sent.get('unitProfit')).toBe('0.2');
    const periods = JSON.parse(sent.get('periods')!) as Array<{ from: number; to: number; weekdays: number[] }>;
    expect(periods.map((p) => [p.from, p.to])).toEqual([
      [17, 21],
      [0, 6],
    ]);
    expect(sent.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }, 60_000);

  it('a viewer-like account without edit rights sees no add button; a server refusal is shown', async () => {
    installFakeApi({ ...handlers(false), queryPlantIncome: fail(260) });
    renderWithApp(<RatePage />, { role: 0, path: '/?pid=7' });
    await screen.findAllByTestId('tariff-item', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('tariff-add')).toBeNull();
    expect(await screen.findByRole('alert')).toBeTruthy();
  }, 60_000);
});
