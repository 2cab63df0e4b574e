import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { WebCollectorRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import DataloggersPage from './DataloggersPage';

const row = (pn: string, over: Partial<WebCollectorRow> = {}): WebCollectorRow => ({
  pn,
  alias: `${pn} alias`,
  pid: 4,
  pname: 'Anna Elbblick Home',
  status: 0,
  fireware: '7.63.6.191',
  uid: 7,
  usr: 'owner_anna',
  signal: 80,
  devices: 2,
  datFetch: 300,
  timezone: 3600,
  load: 2,
  model: 'SW-WIFI',
  typeCode: 'W',
  lts: '2026-11-24 10:00:00',
  gts: '2026-01-01 00:00:00',
  ...over,
});

/** A fake action endpoint: answers by action, records every call's parameters. */
function fakeServer(answers: Record<string, (q: URLSearchParams) => { err: number; dat?: unknown; msg?: string }>) {
  const calls: Array<{ action: string; q: URLSearchParams }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      const action = q.get('action') ?? '';
      calls.push({ action, q });
      const answer = answers[action]?.(q) ?? { err: 9 };
      return new Response(JSON.stringify({ desc: answer.err ? 'ERR' : 'ERR_NONE', ...answer }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { of: (action: string) => calls.filter((c) => c.action === action) };
}

const list = (rows: WebCollectorRow[]) => () => ({ err: 0, dat: { total: rows.length, page: 0, pagesize: 10, collector: rows } });

function renderPage(path = '/adminNew/setting/datalogger') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>
        <DataloggersPage />
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

async function openRowAction(pn: string, label: string) {
  fireEvent.click(await screen.findByTestId(`dl-actions-${pn}`));
  const item = await screen.findByText(label, { selector: '.ant-dropdown-menu-title-content' }, { timeout: 10_000 });
  fireEvent.click(item);
}

describe('DataloggersPage', () => {
  it('lists dataloggers with state and plant, and searches on the server', async () => {
    saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
    const server = fakeServer({
      webQueryCollectorsEs: list([row('SWNORTH0000101'), row('SWNORTH0000102', { status: 1, pid: 0, pname: '' })]),
    });
    renderPage();
    expect(await screen.findByText('SWNORTH0000101')).toBeTruthy();
    const states = screen.getAllByTestId('dl-status').map((e) => e.textContent);
    expect(states).toEqual(['Online', 'Offline']);
    expect(screen.getByText('Not bound to a plant')).toBeTruthy();
    // administrators add in batches only; a single add belongs to plant owners
    expect(screen.queryByTestId('dl-add')).toBeNull();
    expect(screen.getByTestId('dl-add-batch')).toBeTruthy();

    const search = within(screen.getByTestId('dl-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: 'Garage' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(server.of('webQueryCollectorsEs').some((c) => c.q.get('search') === 'Garage')).toBe(true));
  }, 60_000);

  it('keeps the reset button disabled until YES is typed, then resets', async () => {
    saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
    const server = fakeServer({
      webQueryCollectorsEs: list([row('SWSOUTH0000002')]),
      resetCollector: () => ({ err: 0, dat: { pn: 'SWSOUTH0000002', devices: 2, samples: 840 } }),
    });
    renderPage();
    await openRowAction('SWSOUTH0000002', 'Reset');
    const dialog = await screen.findByTestId('dl-reset-dialog', {}, { timeout: 10_000 });
    const run = within(dialog).getByTestId('dl-reset-run') as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('dl-reset-yes'), { target: { value: 'yes' } });
    expect(run.disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('dl-reset-yes'), { target: { value: 'YES' } });
    expect(run.disabled).toBe(false);
    fireEvent.click(run);
    await waitFor(() => expect(server.of('resetCollector')).toHaveLength(1));
    expect(server.of('resetCollector')[0]!.q.get('confirm')).toBe('YES');
    expect(server.of('resetCollector')[0]!.q.get('pn')).toBe('SWSOUTH0000002');
    expect(await screen.findByText('Datalogger SWSOUTH0000002 reset: 2 devices and 840 samples deleted')).toBeTruthy();
  }, 60_000);

  it('checks the debug form before sending and shows the answer or the offline error', async () => {
    saveLogin(authDat({ role: 2, usr: 'dealer_north' }), { remember: false });
    let offline = false;
    const server = fakeServer({
      webQueryCollectorsEs: list([row('SWNORTH0000102')]),
      debugCollector: () =>
        offline
          ? { err: 263, msg: 'The datalogger is offline, please retry once it is online' }
          : { err: 0, dat: { pn: 'SWNORTH0000102', addr: 1, step: 0, cmd: '01 03 00 00 00 01', hex: '01 03 02 13 F2 B5 D1' } },
    });
    renderPage();
    await openRowAction('SWNORTH0000102', 'Debug');
    const dialog = await screen.findByTestId('dl-debug-dialog', {}, { timeout: 10_000 });
    fireEvent.change(within(dialog).getByTestId('dl-debug-cmd'), { target: { value: '01 030' } });
    fireEvent.change(within(dialog).getByTestId('dl-debug-step'), { target: { value: 'x' } });
    fireEvent.click(within(dialog).getByTestId('dl-debug-send'));
    expect(await within(dialog).findByText('The starting step must be a valid number')).toBeTruthy();
    expect(within(dialog).getByText('The command must be hex bytes separated by spaces, such as "AA BB CC"')).toBeTruthy();
    expect(server.of('debugCollector')).toHaveLength(0);

    fireEvent.change(within(dialog).getByTestId('dl-debug-step'), { target: { value: '0' } });
    fireEvent.change(within(dialog).getByTestId('dl-debug-cmd'), { target: { value: '01 03 00 00 00 01' } });
    fireEvent.click(within(dialog).getByTestId('dl-debug-send'));
    expect((await within(dialog).findByTestId('dl-debug-answer', {}, { timeout: 10_000 })).textContent).toContain('01 03 02 13 F2 B5 D1');
    const sent = server.of('debugCollector')[0]!.q;
    expect([sent.get('addr'), sent.get('step'), sent.get('cmd')]).toEqual(['1', '0', '01 03 00 00 00 01']);

    offline = true;
    fireEvent.click(within(dialog).getByTestId('dl-debug-send'));
    expect((await within(dialog).findByTestId('dl-debug-error', {}, { timeout: 10_000 })).textContent).toContain('offline');
  }, 60_000);

  it('offers an owner the single add with the plant, and checks the PN as it is typed', async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    const server = fakeServer({
      webQueryCollectorsEs: list([]),
      webQueryPlants: () => ({ err: 0, dat: { total: 1, page: 0, pagesize: 50, plant: [{ pid: 4, name: 'Anna Elbblick Home' }] } }),
    });
    renderPage('/generalNew/setting/datalogger');
    fireEvent.click(await screen.findByTestId('dl-add'));
    const dialog = await screen.findByTestId('dl-add-dialog', {}, { timeout: 10_000 });
    fireEvent.change(within(dialog).getByTestId('dl-add-pn'), { target: { value: 'sw123' } });
    expect(await within(dialog).findByText('The PN must be 14 or 18 characters')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('dl-add-pn'), { target: { value: 'swnorth0000109' } });
    expect(await within(dialog).findByText('The PN may contain only letters and digits and must start with an uppercase letter')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('dl-add-pn'), { target: { value: 'SWNORTH0000109' } });
    expect(await within(dialog).findByText('Valid PN')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('dl-add-submit'));
    expect(await within(dialog).findByText('Please select the plant')).toBeTruthy();
    expect(server.of('addCollectorToPlant')).toHaveLength(0);
  }, 60_000);
});
