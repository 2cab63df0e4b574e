import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  CollectorTypeCodeRow,
  ProtocolBindingRow,
  ProtocolChangeRow,
  ProtocolDeviceRow,
} from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import ProtocolBindingPage from './ProtocolBindingPage';
import ProtocolChangePage from './ProtocolChangePage';
import TypeCodePage from './TypeCodePage';

/** Issue 14: the operator's typeCode, protocolBinding and protocolChange pages. */

const OPERATOR = 15;
const DEFS = paged('rows', [
  { devcode: 2341, name: 'Hybrid inverter' },
  { devcode: 5121, name: 'String inverter' },
]);

const TYPE_G: CollectorTypeCodeRow = {
  code: 'G',
  name: 'Cellular datalogger',
  commMethod: '4G',
  description: 'SIM card',
  enabled: true,
  dataloggers: 12,
  updatedBy: 'operator',
  updatedAt: 0,
};

function binding(over: Partial<ProtocolBindingRow>): ProtocolBindingRow {
  return {
    id: 1,
    devcode: 2341,
    devcodeName: 'Hybrid inverter',
    scope: 'type',
    typeCode: 'G',
    pnFrom: '',
    pnTo: '',
    note: '',
    enabled: true,
    dataloggers: 3,
    updatedBy: 'operator',
    updatedAt: 0,
    ...over,
  };
}

const DEVICE: ProtocolDeviceRow = {
  id: 77,
  pn: 'SWNORTH0000001',
  sn: 'SW2341N0000101',
  devaddr: 1,
  devcode: 2341,
  devcodeName: 'Hybrid inverter',
  alias: 'Roof',
  lastSampleAt: 0,
  changes: 0,
};

const CHANGE: ProtocolChangeRow = {
  id: 5,
  deviceId: 77,
  pn: 'SWNORTH0000002',
  sn: 'SW2341N0000202',
  devaddr: 2,
  oldDevcode: 2341,
  newDevcode: 5121,
  reason: 'Board replaced',
  changedBy: 'operator',
  changedAt: Date.UTC(2026, 5, 1),
  fromTs: Date.UTC(2026, 5, 1),
};

/** Opens an antd Select (its combobox) and picks the option with `label`. */
async function pick(combobox: HTMLElement, label: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]!);
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('TypeCodePage', () => {
  it('lists the type codes paged on the server; search goes to the server; a new type code is sent with its communication method; a server refusal stays in the dialog', async () => {
    const api = installFakeApi({
      queryCollectorTypeCodes: (q) => (q.get('search') === 'zzz' ? paged('codes', []) : paged('codes', [TYPE_G])),
      addCollectorTypeCode: (_q, n) => (n === 0 ? fail(14) : ok({ code: 'W' })),
    });
    renderWithApp(<TypeCodePage />, { role: OPERATOR, path: '/adminNewStatr/home/typeCode?page=2' });
    const row = await screen.findByTestId('type-row');
    expect(within(row).getByText('Cellular datalogger')).toBeTruthy();
    expect(within(row).getByText('4G')).toBeTruthy();
    expect(api.last('queryCollectorTypeCodes')?.get('page')).toBe('1');

    fireEvent.change(screen.getByPlaceholderText('Letter, name or communication method'), { target: { value: 'zzz' } });
    fireEvent.keyDown(screen.getByPlaceholderText('Letter, name or communication method'), { key: 'Enter' });
    await screen.findByText('Nothing here yet');
    expect(api.last('queryCollectorTypeCodes')?.get('search')).toBe('zzz');
    expect(api.last('queryCollectorTypeCodes')?.get('page')).toBe('0');

    fireEvent.click(screen.getByTestId('type-add'));
    fireEvent.change(await screen.findByTestId('type-field-code'), { target: { value: 'w' } });
    fireEvent.change(screen.getByTestId('type-field-name'), { target: { value: 'Wi-Fi stick' } });
    await pick(within(screen.getByTestId('type-field-comm')).getByRole('combobox'), 'Wi-Fi');
    fireEvent.click(screen.getByTestId('type-form-ok'));
    expect(await screen.findByTestId('type-form-error')).toBeTruthy();
    expect(api.last('addCollectorTypeCode')?.get('code')).toBe('w');
    expect(api.last('addCollectorTypeCode')?.get('commMethod')).toBe('Wi-Fi');
    expect(api.last('addCollectorTypeCode')?.get('name')).toBe('Wi-Fi stick');
    fireEvent.click(screen.getByTestId('type-form-ok'));
    await waitFor(() => expect(screen.queryByTestId('type-form-error')).toBeNull());
    expect(api.count('addCollectorTypeCode')).toBe(2);
  }, 90_000);

  it('a type code is enabled and disabled from its row', async () => {
    const api = installFakeApi({ queryCollectorTypeCodes: paged('codes', [TYPE_G]), editCollectorTypeCode: ok() });
    renderWithApp(<TypeCodePage />, { role: OPERATOR });
    fireEvent.click(await screen.findByTestId('type-enabled'));
    await waitFor(() => expect(api.count('editCollectorTypeCode')).toBe(1));
    expect(api.last('editCollectorTypeCode')?.get('code')).toBe('G');
    expect(api.last('editCollectorTypeCode')?.get('enabled')).toMatch(/^(0|false)$/);
  }, 90_000);
});

describe('ProtocolBindingPage', () => {
  it('shows what each binding covers; the devcode filter and a new prefix binding go to the server; a binding is disabled and deleted from its row', async () => {
    const api = installFakeApi({
      webQueryProtocolDefinitions: DEFS,
      queryCollectorTypeCodes: paged('codes', [TYPE_G]),
      queryProtocolBindings: paged('bindings', [
        binding({}),
        binding({
          id: 2,
          devcode: 5121,
          devcodeName: 'String inverter',
          scope: 'range',
          typeCode: '',
          pnFrom: 'SWA',
          pnTo: 'SWB',
        }),
      ]),
      addProtocolBinding: ok({ id: 3 }),
      setProtocolBindingEnabled: ok(),
      deleteProtocolBinding: ok(),
    });
    renderWithApp(<ProtocolBindingPage />, { role: OPERATOR });
    const rows = await screen.findAllByTestId('binding-row');
    expect(within(rows[0]!).getByText('Type G')).toBeTruthy();
    expect(within(rows[1]!).getByText('PN SWA – SWB')).toBeTruthy();

    await pick(within(screen.getByTestId('binding-filter-devcode')).getByRole('combobox'), '5121 · String inverter');
    await waitFor(() => expect(api.last('queryProtocolBindings')?.get('devcode')).toBe('5121'));

    fireEvent.click(screen.getByTestId('binding-add'));
    await pick(
      within(await screen.findByTestId('binding-field-devcode')).getByRole('combobox'),
      '2341 · Hybrid inverter',
    );
    fireEvent.click(screen.getByText('PN prefix', { selector: '.ant-segmented-item-label' }));
    fireEvent.change(await screen.findByTestId('binding-field-from'), { target: { value: 'SWN' } });
    fireEvent.click(screen.getByTestId('binding-form-ok'));
    await waitFor(() => expect(api.count('addProtocolBinding')).toBe(1));
    const sent = api.last('addProtocolBinding')!;
    expect([sent.get('devcode'), sent.get('scope'), sent.get('pnFrom'), sent.get('typeCode')]).toEqual([
      '2341',
      'prefix',
      'SWN',
      null,
    ]);

    const first = (await screen.findAllByTestId('binding-row'))[0]!;
    fireEvent.click(within(first).getByTestId('binding-enabled'));
    await waitFor(() => expect(api.count('setProtocolBindingEnabled')).toBe(1));
    expect(api.last('setProtocolBindingEnabled')?.get('id')).toBe('1');
    fireEvent.click(within(first).getByTestId('binding-delete'));
    fireEvent.click((await screen.findAllByRole('button', { name: 'Delete' })).at(-1)!);
    await waitFor(() => expect(api.count('deleteProtocolBinding')).toBe(1));
  }, 90_000);
});

describe('ProtocolChangePage', () => {
  it('finds a device by PN and SN, changes its devcode with a reason, and lists the past changes', async () => {
    const api = installFakeApi({
      webQueryProtocolDefinitions: DEFS,
      queryProtocolChanges: paged('changes', [CHANGE]),
      queryProtocolDevices: ok({ devices: [DEVICE] }),
      changeDeviceProtocol: ok({ id: 6 }),
    });
    renderWithApp(<ProtocolChangePage />, { role: OPERATOR });
    const past = await screen.findByTestId('change-row');
    expect(within(past).getByText('Board replaced')).toBeTruthy();
    expect(within(past).getByText('2341 → 5121')).toBeTruthy();

    fireEvent.change(screen.getByTestId('change-find-pn'), { target: { value: ' SWNORTH0000001 ' } });
    fireEvent.change(screen.getByTestId('change-find-sn'), { target: { value: 'SW2341N0000101' } });
    fireEvent.click(screen.getByTestId('change-find'));
    const device = await screen.findByTestId('change-device');
    expect(api.last('queryProtocolDevices')?.get('pn')).toBe('SWNORTH0000001');
    expect(api.last('queryProtocolDevices')?.get('sn')).toBe('SW2341N0000101');
    expect(api.last('queryProtocolDevices')?.has('devaddr')).toBe(false);

    fireEvent.click(within(device).getByTestId('change-open'));
    // the reason is required
    await pick(
      within(await screen.findByTestId('change-field-devcode')).getByRole('combobox'),
      '5121 · String inverter',
    );
    fireEvent.click(screen.getByTestId('change-form-ok'));
    expect(await screen.findByText('Enter the reason')).toBeTruthy();
    expect(api.count('changeDeviceProtocol')).toBe(0);
    fireEvent.change(screen.getByTestId('change-field-reason'), { target: { value: 'New firmware' } });
    fireEvent.click(screen.getByTestId('change-form-ok'));
    await waitFor(() => expect(api.count('changeDeviceProtocol')).toBe(1));
    const sent = api.last('changeDeviceProtocol')!;
    expect([sent.get('deviceId'), sent.get('devcode'), sent.get('reason')]).toEqual(['77', '5121', 'New firmware']);
  }, 90_000);

  it('an unknown PN shows the server error', async () => {
    installFakeApi({
      webQueryProtocolDefinitions: DEFS,
      queryProtocolChanges: paged('changes', []),
      queryProtocolDevices: fail(257),
    });
    renderWithApp(<ProtocolChangePage />, { role: OPERATOR });
    fireEvent.change(await screen.findByTestId('change-find-pn'), { target: { value: 'NOSUCH00000001' } });
    fireEvent.click(screen.getByTestId('change-find'));
    expect(await screen.findByTestId('change-find-error')).toBeTruthy();
  }, 90_000);
});
