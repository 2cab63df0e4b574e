import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../../../../i18n';
import { Providers } from '../../../../app/providers';
import { deviceKeys } from '../api/keys';
import { deviceListParams, stateFromSearch } from '../api/list-params';
import { DeviceBrowser, type DeviceRow } from './DeviceBrowser';

const row: DeviceRow = {
  uid: 7,
  usr: 'owner_anna',
  pid: 1,
  pname: 'Anna home',
  sn: 'SW2341A0001',
  pn: 'W0001',
  status: 0,
  devalias: 'Hybrid inverter',
  brand: 2,
  devtype: 2304,
  deviceType: 1,
  collalias: 'Roof logger',
  devaddr: 1,
  devcode: 2341,
  model: 'SW',
  outpower: '2.5000',
  energyToday: '12.3000',
  energyYear: '900.0000',
  energyTotal: '1500.0000',
  profitToday: '3.2000',
  currency: '€',
  focus: true,
  lts: '2026-11-21 12:00:00',
  figures: [
    { key: 'power', unit: 'kW', val: '2.5000' },
    { key: 'energyToday', unit: 'kWh', val: '12.3000' },
    { key: 'energyTotal', unit: 'kWh', val: '1500.0000' },
  ],
};

const battery: DeviceRow = {
  ...row,
  sn: 'SW5123A0002',
  devalias: 'Battery pack',
  devcode: 5123,
  devaddr: 2,
  devtype: 1792,
  deviceType: 0,
  outpower: '0.0000',
  energyToday: '0.0000',
  energyTotal: '0.0000',
  profitToday: '0.0000',
  focus: false,
  figures: [
    { key: 'soc', unit: '%', val: '64.0000' },
    { key: 'chargePower', unit: 'kW', val: '1.2500' },
    { key: 'dischargePower', unit: 'kW', val: '0.0000' },
    { key: 'chargedToday', unit: 'kWh', val: '0.4000' },
    { key: 'chargedTotal', unit: 'kWh', val: '5912.0000' },
  ],
};

/** Seeds the cache for the list params of `search`, so no request goes out. */
function clientWith(search: string, device: DeviceRow[] = [row]): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const params = deviceListParams(stateFromSearch(new URLSearchParams(search)));
  qc.setQueryData(deviceKeys.list(params), { total: device.length, page: 0, pagesize: params.pagesize, device });
  return qc;
}

function Where() {
  const loc = useLocation();
  return <output data-testid="where">{loc.pathname + loc.search}</output>;
}

function renderAt(path: string, qc: QueryClient) {
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                <DeviceBrowser modes={['card', 'list']} />
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
}

// antd's Segmented and Table observe their size; jsdom has no ResizeObserver.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(() => cleanup());

describe('DeviceBrowser', () => {
  it('switches between card and list mode, keeping the mode in the address', async () => {
    renderAt('/adminNew/device', clientWith(''));
    expect(screen.getByTestId('device-browser').dataset.mode).toBe('card');
    expect(screen.getByTestId('device-cards')).toBeTruthy();
    expect(screen.getByText('Hybrid inverter')).toBeTruthy();

    fireEvent.click(screen.getByText('List'));
    await waitFor(() => expect(screen.getByTestId('device-browser').dataset.mode).toBe('list'));
    expect(screen.getByTestId('where').textContent).toBe('/adminNew/device?mode=list');
    // the list mode's table is loaded on demand
    expect(await screen.findByTestId('device-table', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Hybrid inverter' }).getAttribute('href')).toBe(
      '/adminNew/device/W0001/2341/1/SW2341A0001',
    );
    expect(screen.getByText('SW2341A0001')).toBeTruthy();

    fireEvent.click(screen.getByText('Cards'));
    await waitFor(() => expect(screen.getByTestId('device-browser').dataset.mode).toBe('card'));
    expect(screen.getByTestId('where').textContent).toBe('/adminNew/device');
  });

  it('shows the follow star state and the translated status', async () => {
    renderAt('/generalNew/deviceno?mode=list', clientWith('mode=list'));
    await screen.findByTestId('device-table', {}, { timeout: 10_000 });
    expect(screen.getByRole('button', { name: 'Unfollow' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByText('Normal').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Hybrid inverter' }).getAttribute('href')).toBe(
      '/generalNew/deviceno/W0001/2341/1/SW2341A0001',
    );
  });

  it("shows each device type's figures: a battery's state of charge and charged energy, no income", async () => {
    const figuresOf = (root: HTMLElement) =>
      Object.fromEntries(
        [...root.querySelectorAll<HTMLElement>('[data-figure]')].map((el) => [
          el.dataset.figure,
          el.querySelector('[data-testid="figure-value"]')!.textContent,
        ]),
      );
    renderAt('/adminNew/device', clientWith('', [row, battery]));
    const cards = screen.getAllByTestId('device-card');
    const card = cards.find((c) => c.dataset.sn === 'SW5123A0002')!;
    const expected = {
      soc: '64 %',
      chargePower: '1.25 kW',
      dischargePower: '0 kW',
      chargedToday: '0.4 kWh',
      chargedTotal: '5.91 MWh',
    };
    expect(figuresOf(card)).toEqual(expected);
    expect(card.textContent).toContain('State of charge');
    expect(card.textContent).not.toContain('Income today');
    const inverter = cards.find((c) => c.dataset.sn === 'SW2341A0001')!;
    expect(figuresOf(inverter)).toEqual({ power: '2.5 kW', energyToday: '12.3 kWh', energyTotal: '1.5 MWh' });
    expect(inverter.textContent).toContain('Income today');
    cleanup();
    renderAt('/adminNew/device?mode=list', clientWith('mode=list', [row, battery]));
    await screen.findByTestId('device-table', {}, { timeout: 10_000 });
    const tr = screen.getByText('SW5123A0002').closest('tr')!;
    expect(figuresOf(tr)).toEqual(expected);
  });
});
