import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AlarmRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import AlarmsPage from './AlarmsPage';

const alarm = (id: number, over: Partial<AlarmRow> = {}): AlarmRow => ({
  id,
  uid: 7,
  usr: 'owner_anna',
  sn: 'SW2341N0000101',
  pn: 'SWNORTH0000001',
  devcode: 2341,
  devaddr: 1,
  devtype: 512,
  atype: 'inverter',
  devalias: 'Roof inverter',
  desc: 'Grid overvoltage',
  level: 2,
  code: 7,
  gts: '2026-11-24 10:00:00',
  ets: '',
  handle: 0,
  handleUsr: '',
  handleTs: '',
  pid: 4,
  pname: 'Anna Elbblick Home',
  address: 'Elbchaussee 1, Hamburg',
  timezone: 3600,
  hidden: false,
  ...over,
});

function fakeServer(answers: Record<string, (q: URLSearchParams) => { err: number; dat?: unknown }>) {
  const calls: Array<{ action: string; q: URLSearchParams }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      const action = q.get('action') ?? '';
      calls.push({ action, q });
      const answer = answers[action]?.(q) ?? { err: 9 };
      return new Response(JSON.stringify({ desc: answer.err ? 'ERR' : 'ERR_NONE', ...answer }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return { of: (action: string) => calls.filter((c) => c.action === action) };
}

const day = (date: string, fault = 0) => ({ date, warning: 0, error: 0, fault, offline: 0, total: fault });
const STATS = () => ({
  err: 0,
  dat: {
    days: [day('2026-11-18'), day('2026-11-19'), day('2026-11-20'), day('2026-11-21'), day('2026-11-22'), day('2026-11-23'), day('2026-11-24', 2)],
    total: { warning: 0, error: 0, fault: 2, offline: 0, total: 2 },
    untreated: 1,
    ongoing: 1,
  },
});

function renderPage(path = '/generalNew/alarm') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>
        <AlarmsPage />
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
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('AlarmsPage', () => {
  it('lists the ongoing alarms with their text, filters on the server and handles one', async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    let handled = false;
    const server = fakeServer({
      webQueryWarningStatistic: STATS,
      webQueryPlants: () => ({ err: 0, dat: { total: 0, page: 0, pagesize: 50, plant: [] } }),
      webQueryPlantsWarning: () => ({
        err: 0,
        dat: { total: 2, page: 0, pagesize: 10, warning: [alarm(11, handled ? { handle: 1, handleUsr: 'owner_anna', handleTs: '2026-11-24 11:00:00' } : {}), alarm(12, { handle: 1, handleUsr: 'owner_anna', handleTs: '2026-11-24 10:30:00', level: 0, desc: 'Fan warning' })] },
      }),
      ignorePlantWarning: () => {
        handled = true;
        return { err: 0 };
      },
    });
    renderPage();
    expect(await screen.findByText('Grid overvoltage', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Fan warning')).toBeTruthy();
    expect(server.of('webQueryPlantsWarning')[0]!.q.get('state')).toBe('1');
    // the statistics of the week
    await waitFor(() => expect(screen.getByTestId('alarm-stats-fault').textContent).toContain('2'));

    // a filter goes to the server
    fireEvent.click(screen.getByTestId('alarm-tab-history'));
    await waitFor(() => expect(server.of('webQueryPlantsWarning').some((c) => c.q.get('state') === '2')).toBe(true));
    fireEvent.click(screen.getByTestId('alarm-tab-current'));
    const sn = screen.getByTestId('alarm-filter-sn');
    fireEvent.change(sn, { target: { value: 'SW2341N0000101' } });
    fireEvent.keyDown(sn, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(server.of('webQueryPlantsWarning').some((c) => c.q.get('sn') === 'SW2341N0000101' && c.q.get('state') === '1')).toBe(true));

    // only the untreated alarm has a Handle button
    expect(screen.queryByTestId('alarm-handle-12')).toBeNull();
    fireEvent.click(await screen.findByTestId('alarm-handle-11'));
    fireEvent.click(await screen.findByTestId('alarm-handle-run', {}, { timeout: 10_000 }));
    await waitFor(() => expect(server.of('ignorePlantWarning')).toHaveLength(1));
    expect(server.of('ignorePlantWarning')[0]!.q.get('id')).toBe('11');
    await waitFor(() => expect(screen.queryByTestId('alarm-handle-11')).toBeNull());
  }, 120_000);

  it('shows a viewer the alarms read-only, and err 264 as the empty list', async () => {
    saveLogin(authDat({ role: 5, usr: 'viewer_vera' }), { remember: false });
    let none = false;
    fakeServer({
      webQueryWarningStatistic: STATS,
      webQueryPlants: () => ({ err: 0, dat: { total: 0, page: 0, pagesize: 50, plant: [] } }),
      webQueryPlantsWarning: () => (none ? { err: 264 } : { err: 0, dat: { total: 1, page: 0, pagesize: 10, warning: [alarm(11)] } }),
    });
    renderPage();
    expect(await screen.findByText('Grid overvoltage', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Your account can view alarms but not handle them.')).toBeTruthy();
    expect(screen.queryByTestId('alarm-handle-11')).toBeNull();
    expect(screen.queryByTestId('alarm-handle-selected')).toBeNull();
    none = true;
    fireEvent.click(screen.getByTestId('alarm-refresh'));
    expect(await screen.findByText('No alarms', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('list-error')).toBeNull();
  }, 120_000);
});
