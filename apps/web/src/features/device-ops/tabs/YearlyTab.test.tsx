import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { formatEnergy } from '../../shared/charts/format';
import YearlyTab from './YearlyTab';

const DEVICE = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };

/** What querySPDeviceKeyParameterTotalPerYear answers per parameter (err 6: no such counter). */
const ANSWERS: Record<string, { err: number; dat?: unknown }> = {
  PV_ENERGY_TOTAL: { err: 0, dat: { option: [{ val: '4321.1234', gts: '2025' }, { val: '1187.5000', gts: '2026' }] } },
  LOAD_ENERGY_TOTAL: { err: 0, dat: { option: [{ val: '3056.0001', gts: '2025' }, { val: '0.0000', gts: '2026' }] } },
  ENERGY_TOTAL_TO_GRID: { err: 6 },
  ENERGY_TOTAL_FROM_GRID: { err: 6 },
  BATTERY_ENERGY_TOTAL_CHARGE: { err: 6 },
  BATTERY_ENERGY_TOTAL_DISCHARGE: { err: 6 },
};

function fakeServer(answer: (q: URLSearchParams) => { err: number; dat?: unknown }) {
  const calls: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      calls.push(q);
      const a = q.get('action') === 'querySPDeviceKeyParameterTotalPerYear' ? answer(q) : { err: 9 };
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function renderTab() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter>
        <YearlyTab device={DEVICE} />
      </MemoryRouter>
    </Providers>,
  );
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  saveLogin(authDat({ role: 0 }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('YearlyTab', () => {
  it('shows the yearly figures the action answers: the counters the device has, per year, with their sum', async () => {
    await i18n.changeLanguage('de_DE');
    const calls = fakeServer((q) => ANSWERS[q.get('parameter') ?? '']!);
    renderTab();
    const table = await screen.findByTestId('yearly-table', {}, { timeout: 20_000 });
    // every parameter asked once, for this device
    expect(calls.map((q) => q.get('parameter')).sort()).toEqual(Object.keys(ANSWERS).sort());
    expect(calls.every((q) => q.get('sn') === DEVICE.sn && q.get('devcode') === '2341')).toBe(true);
    // columns: year and the two counters the device has, in German
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Jahr', 'PV-Erzeugung', 'Lastverbrauch']);
    for (const p of ['PV_ENERGY_TOTAL', 'LOAD_ENERGY_TOTAL']) {
      for (const o of (ANSWERS[p]!.dat as { option: Array<{ val: string; gts: string }> }).option) {
        const cell = screen.getByTestId(`yearly-${p}-${o.gts}`);
        expect(cell.getAttribute('data-val')).toBe(o.val);
        expect(cell.textContent).toBe(formatEnergy(o.val, 'de_DE'));
      }
    }
    expect(screen.getByTestId('yearly-PV_ENERGY_TOTAL-total').getAttribute('data-val')).toBe('5508.6234');
    expect(screen.getByTestId('yearly-LOAD_ENERGY_TOTAL-total').getAttribute('data-val')).toBe('3056.0001');
    expect(screen.queryByTestId('yearly-ENERGY_TOTAL_TO_GRID-2025')).toBeNull();
    // the chart: the first counter (PV), oldest year first
    const bars = screen.getAllByTestId('yearly-chart-bar').map((b) => Number(b.getAttribute('data-value')));
    expect(bars).toEqual([4321.1234, 1187.5]);
  }, 60_000);

  it('says when the device has no data yet', async () => {
    await i18n.changeLanguage('en_US');
    fakeServer((q) => (q.get('parameter') === 'PV_ENERGY_TOTAL' ? { err: 12 } : { err: 6 }));
    renderTab();
    expect((await screen.findByTestId('yearly-empty', {}, { timeout: 20_000 })).textContent).toContain('No data yet');
  }, 60_000);
});
