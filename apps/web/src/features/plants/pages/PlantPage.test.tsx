import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { PlantDeviceViewDat } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import PlantPage from './PlantPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const plant = {
  pid: 4,
  uid: 7,
  usr: 'owner_anna',
  name: 'Anna Elbblick Home',
  status: 0,
  energyOffset: '0.0000',
  address: { country: 'Germany', province: '', city: 'Hamburg', county: '', town: 'Altona', village: '', address: 'Elbchaussee 1', lon: '9.9', lat: '53.55', timezone: 3600 },
  profit: { unitProfit: '0.3000', currency: 'EUR', coal: '0.4', co2: '0.99', so2: '0.03', soldProfit: '0.08', purchProfit: '0.32', consProfit: '0', selfProfit: '0', feedProfit: '0.07' },
  nominalPower: '9.8000',
  energyYearEstimate: '0',
  designCompany: '',
  installer: 'Nord Solar',
  remark: 'Roof and garage',
  picBig: '',
  picSmall: '',
  isDefault: true,
  install: '2025-04-01 00:00:00',
  gts: '2025-04-01 00:00:00',
};

const view: PlantDeviceViewDat = {
  pid: 4,
  name: plant.name,
  status: 0,
  outputPower: '3.2',
  alarms: 2,
  collector: [
    {
      pn: 'SWNORTH0000001',
      alias: 'Roof logger',
      status: 0,
      signal: 80,
      firmware: '1.2.3',
      lts: '2026-11-25 10:00:00',
      device: [{ devcode: 2341, devaddr: 1, sn: 'SW2341N0000101', alias: 'Hybrid', status: 0, devtype: 512, lts: '', outputPower: '3.2', energyToday: '11.5', soc: '64' }],
    },
  ],
};

type Answer = { err: number; desc?: string; dat?: unknown };
let answers: Record<string, (q: URLSearchParams) => Answer>;
let calls: URLSearchParams[];

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
  calls = [];
  answers = {
    queryPlantInfo: () => ({ err: 0, dat: plant }),
    queryPlantCurrentData: (q) => ({
      err: 0,
      dat: (q.get('par') ?? '').split(',').map((key) => ({ key, val: key === 'CURRENT_POWER' ? '3.2' : key === 'ENERGY_TODAY' ? '11.5' : key === 'BATTERY_SOC' ? '64' : '1' })),
    }),
    webQueryPlants: () => ({ err: 0, dat: { total: 1, page: 0, pagesize: 50, plant: [{ pid: 4, name: plant.name, loadPower: '0.5', gridPower: '-1', energyUsed: '4', profitToday: '3.45' }] } }),
    queryPlantDeviceView: () => ({ err: 0, dat: view }),
    queryPlantEnvMonitor: () => ({ err: 265, desc: 'ERR_NO_ENV_MONITOR' }),
    queryPlantActiveOuputPowerOneDay: () => ({ err: 12, desc: 'ERR_NO_RECORD' }),
    delPlant: () => ({ err: 517, desc: 'ERR_HAS_COLLECTORS' }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URLSearchParams(String(url).split('?')[1]);
      calls.push(q);
      const a = answers[q.get('action') ?? '']?.(q) ?? { err: 9, desc: 'ERR_NOT_SUPPORTED' };
      return new Response(JSON.stringify({ desc: 'ERR_NONE', ...a }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

function renderPage(role: 0 | 5, path = '/generalNew/project/4') {
  saveLogin(authDat({ role }), { remember: false });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/generalNew/project/:pid" element={<PlantPage />} />
          <Route path="*" element={<div>elsewhere</div>} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
}

describe('plant page', () => {
  it('shows the plant, its figures, flow, dataloggers with device links and its alarm count', async () => {
    renderPage(0);
    expect(await screen.findByTestId('plant-name', {}, { timeout: 10_000 })).toHaveProperty('textContent', plant.name);
    expect(screen.getByTestId('plant-coordinates').textContent).toBe('53.55, 9.9');
    expect(screen.getByTestId('plant-address').textContent).toContain('Elbchaussee 1, Altona');
    await waitFor(() => expect(screen.getByTestId('plant-alarms').textContent).toBe('2'));
    const logger = await screen.findByTestId('plant-datalogger');
    expect(logger.textContent).toContain('Roof logger');
    const device = within(logger).getByRole('link', { name: 'Hybrid' });
    expect(device.getAttribute('href')).toBe('/generalNew/deviceno/SWNORTH0000001/2341/1/SW2341N0000101');
    // battery closes the balance: 3.2 produced + 1 exported… 0.5 used → 1.7 kW charging
    await waitFor(() => expect(screen.getByTestId('plant-flow-battery').getAttribute('data-direction')).toBe('out'));
    expect(screen.getByTestId('plant-flow-grid').getAttribute('data-direction')).toBe('out');
    expect(screen.getByTestId('plant-income-today').textContent).toBe('€ 3.45');
    // no environment monitor (265): no card; the curve has no data yet (12): an empty state, no error
    expect(screen.queryByTestId('plant-env')).toBeNull();
    // the charts card is a lazy chunk (echarts): slow to transform on a loaded machine
    expect(await screen.findByText('No data yet', {}, { timeout: 40_000 })).toBeTruthy();
    expect(calls.find((q) => q.get('action') === 'queryPlantActiveOuputPowerOneDay')?.get('plantid')).toBe('4');
    // the owner binds a datalogger to this plant from its card
    expect(screen.getByTestId('plant-add-datalogger').textContent).toContain('Add datalogger');
  }, 60_000);

  it('the owner may delete; a plant with dataloggers is refused with the 517 text', async () => {
    renderPage(0);
    fireEvent.click(await screen.findByTestId('plant-delete', {}, { timeout: 10_000 }));
    const ok = await waitFor(() => {
      const b = document.getElementById('confirm-delete-plant');
      if (!b) throw new Error('no confirmation yet');
      return b;
    });
    fireEvent.click(ok);
    expect(await screen.findByText('This plant still has dataloggers: unbind them or move them to another plant first.')).toBeTruthy();
    expect(calls.some((q) => q.get('action') === 'delPlant' && q.get('plantid') === '4')).toBe(true);
  });

  it('a viewer sees no edit or delete button', async () => {
    renderPage(5);
    await screen.findByTestId('plant-name', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('plant-edit')).toBeNull();
    expect(screen.queryByTestId('plant-delete')).toBeNull();
    await screen.findByTestId('plant-datalogger');
    expect(screen.queryByTestId('plant-add-datalogger')).toBeNull();
  });

  it('an unknown plant (260) is a not-found page', async () => {
    answers.queryPlantInfo = () => ({ err: 260, desc: 'ERR_NO_PLANT' });
    renderPage(0);
    expect(await screen.findByText('This plant does not exist or you may not see it', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
