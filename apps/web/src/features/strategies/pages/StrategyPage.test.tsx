import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { StrategyCandidatesDat, StrategyDeviceRow, StrategyRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import StrategyPage from './StrategyPage';

function strategy(code: string, over: Partial<StrategyRow> = {}): StrategyRow {
  return {
    id: 1,
    code,
    name: `Strategy ${code}`,
    description: 'Datalogger firmware 3.0',
    firmware: { code: 'aaaaaaaaaaaaaaaa', name: 'Logger', version: '3.0.0' },
    type: 0,
    baudRate: 9600,
    method: 0,
    timezone: 8 * 3600,
    startTime: '2026-12-01 08:00:00',
    endTime: '2026-12-08 08:00:00',
    startsAt: 0,
    endsAt: 0,
    status: 1,
    deviceCount: 20,
    upgraded: 2,
    success: 1,
    failed: 1,
    stage: 0,
    canaryPercent: 10,
    failureThresholdPercent: 20,
    paused: false,
    pauseReason: '',
    pauseCode: '',
    filter: null,
    resolved: true,
    reminder: '',
    createdAt: 0,
    ...over,
  };
}

type Answer = { err: number; dat?: unknown; desc?: string };
function fakeServer(answer: (action: string, q: URLSearchParams) => Answer) {
  const calls: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      calls.push(q);
      const a = answer(q.get('action') ?? '', q);
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}
const of = (calls: URLSearchParams[], action: string) => calls.filter((q) => q.get('action') === action);

const strategies = (rows: StrategyRow[], total = rows.length): Answer => ({
  err: 0,
  dat: { total, page: 0, pagesize: 12, strategy: rows },
});
const firmwares: Answer = {
  err: 0,
  dat: {
    total: 2,
    page: 0,
    pagesize: 100,
    firmware: [
      { firmware: 'aaaaaaaaaaaaaaaa', name: 'Logger', version: '3.0.0', type: 0, baudRate: 9600, signed: true },
      { firmware: 'bbbbbbbbbbbbbbbb', name: 'Control', version: '7.1', type: 2, baudRate: 9600, signed: true },
    ],
  },
};
function candidates(q: URLSearchParams): Answer {
  const type = Number(q.get('type') ?? 0);
  const dat: StrategyCandidatesDat =
    type >= 2
      ? {
          total: 2,
          page: 0,
          pagesize: 50,
          target: 1,
          collector: [],
          device: [
            {
              pn: 'SWDL0000000001',
              sn: 'INV0001',
              devcode: 512,
              devaddr: 1,
              alias: 'East',
              model: 'SUN-5K',
              status: 0,
              firmware: 'CTL-1.0',
            },
            {
              pn: 'SWDL0000000001',
              sn: 'INV0002',
              devcode: 512,
              devaddr: 2,
              alias: 'West',
              model: 'SUN-5K',
              status: 0,
              firmware: 'CTL-1.0',
            },
          ],
        }
      : {
          total: q.get('model') === 'X1' ? 4321 : 1,
          page: 0,
          pagesize: 50,
          target: 0,
          collector: [{ pn: 'SWDL0000000001', alias: 'Roof', status: 0, firmware: '2.0' }],
          device: [],
        };
  return { err: 0, dat };
}

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter>
        <StrategyPage />
      </MemoryRouter>
    </Providers>,
  );
}

/** Opens an antd Select inside `container` and clicks the option whose text is `text`. */
async function choose(container: HTMLElement, text: string | RegExp) {
  const combo =
    container.getAttribute('role') === 'combobox'
      ? container
      : ((container.querySelector('[role="combobox"]') as HTMLElement | null) ??
        (container.closest('.ant-select')?.querySelector('[role="combobox"]') as HTMLElement));
  fireEvent.mouseDown(combo);
  const options = await screen.findAllByText(
    text,
    { selector: '.ant-select-item-option-content' },
    { timeout: 10_000 },
  );
  fireEvent.click(options[options.length - 1]!);
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  saveLogin(authDat({ role: 1 }), { remember: false });
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('StrategyPage', () => {
  it('lists the strategies of one server page with status, the pause reason as the server sent it, a by-filter row, and pages on the server', async () => {
    const calls = fakeServer((action, q) => {
      if (action === 'queryUpgradeStrategies') {
        if (q.get('page') === '1') return strategies([strategy('ST20261201-0013')], 13);
        return strategies(
          [
            strategy('ST20261201-0001', {
              paused: true,
              pauseReason: 'Étape canari : 1 mises à jour sur 2 ont échoué',
              pauseCode: 'stageFailed',
            }),
            strategy('ST20261201-0002', {
              status: 0,
              filter: { model: 'X1', version: '2.0' },
              resolved: false,
              deviceCount: 0,
            }),
          ],
          13,
        );
      }
      return { err: 9 };
    });
    renderPage();
    const rows = await screen.findAllByTestId('strategy-row', {}, { timeout: 20_000 });
    expect(rows.map((r) => r.getAttribute('data-code'))).toEqual(['ST20261201-0001', 'ST20261201-0002']);
    expect(within(rows[0]!).getByTestId('strategy-row-status').textContent).toBe('In effect');
    expect(within(rows[0]!).getByTestId('strategy-paused').textContent).toContain(
      'Étape canari : 1 mises à jour sur 2 ont échoué',
    );
    expect(within(rows[0]!).getByTestId('strategy-resume')).toBeTruthy();
    expect(within(rows[0]!).getByTestId('strategy-row-counts').textContent).toBe(
      '20 devices · 2 upgraded · 1 succeeded · 1 failed',
    );
    // The by-filter strategy says what it targets and that its population is resolved at the start.
    const filter = within(rows[1]!).getByTestId('strategy-row-filter');
    expect(filter.textContent).toContain('Datalogger model: X1 · Current firmware version: 2.0');
    expect(filter.textContent).toContain('Resolved at the effective time');
    expect(within(rows[1]!).getByTestId('strategy-edit')).toBeTruthy();
    expect(within(rows[0]!).queryByTestId('strategy-edit')).toBeNull();
    // Server paging and the status filter are parameters of the call.
    expect(of(calls, 'queryUpgradeStrategies')[0]!.get('pagesize')).toBe('12');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(screen.getAllByTestId('strategy-row').map((r) => r.getAttribute('data-code'))).toEqual([
        'ST20261201-0013',
      ]),
    );
    expect(of(calls, 'queryUpgradeStrategies').at(-1)!.get('page')).toBe('1');
    await choose(screen.getByTestId('strategy-status-filter'), 'Cancelled');
    await waitFor(() => expect(of(calls, 'queryUpgradeStrategies').at(-1)!.get('status')).toBe('3'));
    expect(of(calls, 'queryUpgradeStrategies').at(-1)!.get('page')).toBe('0');
  }, 120_000);

  it('editor: checks the fields before calling the server, picks devices (PN:SN) for device firmware and sends them', async () => {
    const calls = fakeServer((action, q) => {
      if (action === 'queryUpgradeStrategies') return strategies([]);
      if (action === 'queryFirmwares') return firmwares;
      if (action === 'queryUpgradeStrategyCandidates') return candidates(q);
      if (action === 'addUpgradeStrategy') return { err: 0, dat: { id: 9, code: 'ST20261201-0009' } };
      return { err: 9 };
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('strategy-add', {}, { timeout: 20_000 }));
    const form = await screen.findByTestId('strategy-form', {}, { timeout: 20_000 });
    // Nothing filled: the rules speak, the server is not called.
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await within(form).findByText('2 to 64 characters', {}, { timeout: 10_000 });
    expect(within(form).getAllByText('Required').length).toBeGreaterThanOrEqual(2);
    expect(within(form).getByText('Choose at least one datalogger')).toBeTruthy();
    expect(of(calls, 'addUpgradeStrategy')).toHaveLength(0);

    fireEvent.change(within(form).getByTestId('strategy-name'), { target: { value: 'Inverter control 7.1' } });
    fireEvent.change(within(form).getByTestId('strategy-description'), { target: { value: 'Control board firmware' } });
    // Device firmware: the picker lists the devices behind the dataloggers, no "use the API" hint.
    await choose(within(form).getByTestId('strategy-type').closest('.ant-form-item') as HTMLElement, 'Control 1');
    await waitFor(() =>
      expect(of(calls, 'queryUpgradeStrategyCandidates').some((q) => q.get('type') === '2')).toBe(true),
    );
    expect(screen.queryByText(/through the API/)).toBeNull();
    await choose(within(form).getByTestId('strategy-firmware').closest('.ant-form-item') as HTMLElement, 'Control 7.1');
    const devicesItem = within(form).getByTestId('strategy-devices').closest('.ant-form-item') as HTMLElement;
    expect(within(devicesItem).getByText('Associated devices')).toBeTruthy();
    await choose(devicesItem, /^SWDL0000000001:INV0002 · devcode 512, address 2, SUN-5K/);
    // Narrowing by devcode is a server parameter.
    fireEvent.change(within(form).getByTestId('strategy-pick-devcode'), { target: { value: '512' } });
    await waitFor(() =>
      expect(
        of(calls, 'queryUpgradeStrategyCandidates').some((q) => q.get('devcode') === '512' && q.get('type') === '2'),
      ).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(of(calls, 'addUpgradeStrategy')).toHaveLength(1), { timeout: 10_000 });
    const add = of(calls, 'addUpgradeStrategy')[0]!;
    expect([add.get('name'), add.get('type'), add.get('firmware'), add.get('devices'), add.get('filter')]).toEqual([
      'Inverter control 7.1',
      '2',
      'bbbbbbbbbbbbbbbb',
      'SWDL0000000001:INV0002',
      null,
    ]);
  }, 120_000);

  it('editor by filter: device firmware needs a devcode, the preview counts the matches, the filter is sent as JSON', async () => {
    const calls = fakeServer((action, q) => {
      if (action === 'queryUpgradeStrategies') return strategies([]);
      if (action === 'queryFirmwares') return firmwares;
      if (action === 'queryUpgradeStrategyCandidates') return candidates(q);
      if (action === 'addUpgradeStrategy') return { err: 0, dat: { id: 10, code: 'ST20261201-0010' } };
      return { err: 9 };
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('strategy-add', {}, { timeout: 20_000 }));
    const form = await screen.findByTestId('strategy-form', {}, { timeout: 20_000 });
    fireEvent.change(within(form).getByTestId('strategy-name'), { target: { value: 'Whole fleet' } });
    fireEvent.change(within(form).getByTestId('strategy-description'), { target: { value: 'Every X1' } });
    fireEvent.click(within(form).getByLabelText('By filter (fleet-wide)'));
    const filter = await within(form).findByTestId('strategy-filter');
    // Device firmware without a devcode: refused by the form.
    await choose(within(form).getByTestId('strategy-type').closest('.ant-form-item') as HTMLElement, 'Control 1');
    await choose(within(form).getByTestId('strategy-firmware').closest('.ant-form-item') as HTMLElement, 'Control 7.1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await within(form).findByText('Device firmware needs a devcode', {}, { timeout: 10_000 });
    expect(of(calls, 'addUpgradeStrategy')).toHaveLength(0);
    // Datalogger firmware by model: the preview shows the current size of the population.
    await choose(within(form).getByTestId('strategy-type').closest('.ant-form-item') as HTMLElement, 'General');
    await choose(
      within(form).getByTestId('strategy-firmware').closest('.ant-form-item') as HTMLElement,
      'Logger 3.0.0',
    );
    fireEvent.change(within(filter).getByTestId('strategy-filter-model'), { target: { value: 'X1' } });
    await waitFor(
      () => expect(within(form).getByTestId('strategy-filter-preview').textContent).toBe('4321 targets match now'),
      { timeout: 10_000 },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(of(calls, 'addUpgradeStrategy')).toHaveLength(1), { timeout: 10_000 });
    const add = of(calls, 'addUpgradeStrategy')[0]!;
    expect([add.get('type'), add.get('devices'), JSON.parse(add.get('filter')!)]).toEqual(['0', null, { model: 'X1' }]);
  }, 120_000);

  it('devices drawer: per-device results paged on the server; a by-filter strategy not yet resolved says so', async () => {
    const device = (sn: string, result: number, over: Partial<StrategyDeviceRow> = {}): StrategyDeviceRow => ({
      pn: 'SWDL0000000001',
      sn,
      target: 1,
      devcode: 512,
      devaddr: 1,
      stage: 0,
      result,
      key: '',
      progress: 0,
      error: '',
      updatedAt: 0,
      ...over,
    });
    const calls = fakeServer((action, q) => {
      if (action === 'queryUpgradeStrategies')
        return strategies([
          strategy('ST20261201-0001', { type: 2 }),
          strategy('ST20261201-0002', { filter: {}, resolved: false, status: 0 }),
        ]);
      if (action === 'queryUpgradeStrategyDevices') {
        if (q.get('code') === 'ST20261201-0002')
          return { err: 0, dat: { total: 0, page: 0, pagesize: 20, device: [] } };
        return q.get('page') === '1'
          ? { err: 0, dat: { total: 21, page: 1, pagesize: 20, device: [device('INV0021', 2, { stage: 1 })] } }
          : {
              err: 0,
              dat: {
                total: 21,
                page: 0,
                pagesize: 20,
                device: [
                  device('INV0001', 3, { error: 'Flashing failed on the datalogger' }),
                  device('INV0002', 1, { progress: 455, key: 'k2' }),
                ],
              },
            };
      }
      return { err: 9 };
    });
    renderPage();
    const rows = await screen.findAllByTestId('strategy-row', {}, { timeout: 20_000 });
    fireEvent.click(within(rows[0]!).getByTestId('strategy-results'));
    const drawer = await screen.findByTestId('strategy-devices-drawer', {}, { timeout: 20_000 });
    const items = await within(document.body).findAllByTestId('strategy-device-row', {}, { timeout: 20_000 });
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('INV0001');
    expect(within(items[0]!).getByTestId('strategy-device-result').textContent).toBe('Failed');
    expect(items[0]!.textContent).toContain('Flashing failed on the datalogger');
    expect(within(items[1]!).getByTestId('strategy-device-result').textContent).toBe('Upgrading');
    expect(items[1]!.textContent).toContain('45.5%');
    expect(of(calls, 'queryUpgradeStrategyDevices')[0]!.get('code')).toBe('ST20261201-0001');
    expect(screen.queryByTestId('strategy-devices-pending')).toBeNull();
    fireEvent.click(within(document.body).getByTitle('2'));
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('strategy-device-row')
          .map((r) => r.textContent)
          .join(),
      ).toContain('INV0021'),
    );
    expect(of(calls, 'queryUpgradeStrategyDevices').at(-1)!.get('page')).toBe('1');
    void drawer;

    // The unresolved by-filter strategy.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(within(rows[1]!).getByTestId('strategy-results'));
    expect((await screen.findByTestId('strategy-devices-pending', {}, { timeout: 20_000 })).textContent).toContain(
      "The filter's targets are listed once the strategy takes effect",
    );
  }, 120_000);
});
