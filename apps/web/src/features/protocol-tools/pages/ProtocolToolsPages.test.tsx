import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ProtocolDefinitionRow, RawDeviceRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import DeviceFunctionPage from './DeviceFunctionPage';
import ProtocolInstructionPage from './ProtocolInstructionPage';
import RawDataParsingPage from './RawDataParsingPage';

type Answer = { err: number; dat?: unknown; msg?: string };
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

const DEF: ProtocolDefinitionRow = {
  devcode: 2341,
  name: 'Hybrid inverter',
  vendor: 'Ref',
  kind: 'inverter',
  category: 'hybrid-inverter',
  devtype: 2304,
  deviceType: 1,
  origin: 'reference',
  ratedPower: 6200,
  fields: 83,
  controls: 20,
  faults: 40,
  registerMin: 256,
  registerMax: 400,
  notes: '',
};

function device(over: Partial<RawDeviceRow> = {}): RawDeviceRow {
  return {
    devcode: 2341,
    devaddr: 1,
    sn: '-',
    name: 'Hybrid inverter',
    accepted: true,
    reason: '',
    detail: '',
    errors: [],
    registers: [{ start: 258, hex: '08FC' }],
    fields: [
      {
        id: 'gd_ac_input_voltage',
        title: 'AC-Eingangsspannung',
        unit: 'V',
        value: 230,
        display: '230.0',
        address: 258,
        hex: '08FC',
        group: 'gd_',
        internal: false,
      },
    ],
    ...over,
  };
}

function renderAt(node: React.ReactNode, path = '/') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
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

beforeEach(() => saveLogin(authDat({ role: 15 }), { remember: false }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('rawDataParsing page', () => {
  it('sends the pasted frame, devcode and first register, and shows the decoded values with units and the verdict', async () => {
    await i18n.changeLanguage('de_DE');
    let answer = device();
    const calls = fakeServer((action) => {
      if (action === 'webQueryProtocolDefinitions') return { err: 0, dat: { total: 1, rows: [DEF] } };
      if (action === 'parseRawData') return { err: 0, dat: { format: 'hex', frameError: '', devices: [answer] } };
      return { err: 9 };
    });
    renderAt(<RawDataParsingPage />);
    await waitFor(() => expect(calls.some((c) => c.get('action') === 'webQueryProtocolDefinitions')).toBe(true));
    fireEvent.mouseDown(document.querySelector('#raw-devcode')!);
    fireEvent.click(await screen.findByText('2341 Hybrid inverter', {}, { timeout: 10_000 }));
    fireEvent.change(document.querySelector('#raw-start')!, { target: { value: '258' } });
    fireEvent.change(document.querySelector('#raw-frame')!, { target: { value: ' 08FC ' } });
    fireEvent.click(screen.getByTestId('raw-parse'));
    const result = await screen.findByTestId('raw-result', {}, { timeout: 10_000 });
    const q = calls.find((c) => c.get('action') === 'parseRawData')!;
    expect([q.get('devcode'), q.get('start'), q.get('frame')]).toEqual(['2341', '258', '08FC']);
    expect(within(result).getByTestId('decoded-value').textContent).toBe('230.0 V');
    expect(within(result).getByText('AC-Eingangsspannung')).toBeTruthy();
    expect(within(result).getByText('Die Datenannahme speichert ihn')).toBeTruthy();

    answer = device({ accepted: false, reason: 'decode', detail: 'device: gd_x out of range', fields: [] });
    fireEvent.click(screen.getByTestId('raw-parse'));
    await waitFor(() => expect(screen.getByText('Die Datenannahme lehnt ihn ab: Dekodierfehler')).toBeTruthy());
    expect(screen.getByText('device: gd_x out of range')).toBeTruthy();
  });

  it('asks for a devcode and a frame before calling the server', async () => {
    await i18n.changeLanguage('en_US');
    const calls = fakeServer((action) =>
      action === 'webQueryProtocolDefinitions' ? { err: 0, dat: { total: 1, rows: [DEF] } } : { err: 9 },
    );
    renderAt(<RawDataParsingPage />);
    fireEvent.click(screen.getByTestId('raw-parse'));
    expect(await screen.findByText('Pick a devcode')).toBeTruthy();
    expect(screen.getByText('Paste a frame')).toBeTruthy();
    expect(calls.some((c) => c.get('action') === 'parseRawData')).toBe(false);
  });
});

describe('protocolInstruction page', () => {
  it('pages the definitions on the server and opens a devcode from the address bar', async () => {
    await i18n.changeLanguage('en_US');
    const calls = fakeServer((action) => {
      if (action === 'webQueryProtocolDefinitions') return { err: 0, dat: { total: 1, rows: [DEF] } };
      if (action === 'webQueryProtocolFields')
        return {
          err: 0,
          dat: {
            total: 1,
            rows: [
              {
                id: 'gd_ac_input_voltage',
                title: 'AC Input Voltage',
                unit: 'V',
                group: 'gd_',
                address: 258,
                words: 1,
                signed: false,
                scale: 0.1,
                decimals: 1,
                min: null,
                max: null,
                internal: false,
                states: [],
                chart: true,
              },
            ],
          },
        };
      return { err: 9 };
    });
    renderAt(<ProtocolInstructionPage />, '/?page=2&size=20');
    await screen.findByTestId('definition-2341', {}, { timeout: 10_000 });
    const list = calls.find((c) => c.get('action') === 'webQueryProtocolDefinitions' && c.get('pagesize') === '20')!;
    expect(list.get('page')).toBe('1');
    fireEvent.click(screen.getByTestId('definition-2341'));
    await screen.findByText('AC Input Voltage', {}, { timeout: 10_000 });
    const fields = calls.find((c) => c.get('action') === 'webQueryProtocolFields')!;
    expect([fields.get('devcode'), fields.get('page')]).toEqual(['2341', '0']);
  });
});

describe('deviceFunction page', () => {
  it('shows what each devcode offers', async () => {
    await i18n.changeLanguage('en_US');
    fakeServer((action) =>
      action === 'webQueryDeviceFunctions'
        ? {
            err: 0,
            dat: {
              total: 1,
              rows: [
                {
                  devcode: 2341,
                  name: 'Hybrid inverter',
                  kind: 'inverter',
                  devices: 4,
                  controls: { count: 2, readback: 1, ids: ['a', 'b'] },
                  upgrade: { firmwareTypes: ['bms'], baudRates: [9600] },
                  debug: { commands: ['read'] },
                  acceleration: { parameters: 70, energyFlow: true, detail: true },
                  monitoring: { flowNodes: [], keyParameters: 6, faults: 40, energyCounters: ['generated'] },
                },
              ],
            },
          }
        : { err: 9 },
    );
    renderAt(<DeviceFunctionPage />);
    expect(await screen.findByText('2 fields, 1 read back', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Register read')).toBeTruthy();
    expect(screen.getByText('70 parameters')).toBeTruthy();
  });
});
