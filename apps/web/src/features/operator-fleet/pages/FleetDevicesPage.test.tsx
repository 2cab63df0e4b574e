import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLE, type FleetDeviceRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import FleetDevicesPage from './FleetDevicesPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const device = (sn: string, over: Partial<FleetDeviceRow> = {}): FleetDeviceRow => ({
  pn: 'SWSOUTH0000001',
  devcode: 5121,
  devaddr: 1,
  sn,
  devalias: 'Grid-tie inverter',
  status: 0,
  model: '',
  uid: 9,
  usr: 'owner_ben',
  vendorUid: 2,
  vendorUsr: 'sunmaker',
  collalias: 'Ben roof',
  pid: 5,
  pname: 'Ben Garage',
  ...over,
});

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('the operator device page', () => {
  it('lists the platform devices with owner and manufacturer; opens the detail', async () => {
    installFakeApi({
      queryFleetDevices: paged(
        'device',
        [device('SW5121S0000101'), device('OMSN0000000001', { usr: '', vendorUsr: 'othermaker', pname: '' })],
        {
          total: 41,
        },
      ),
      webQueryUsrEs: paged('account', [{ uid: 2, usr: 'sunmaker' }]),
    });
    renderWithApp(<FleetDevicesPage />, { role: ROLE.OPERATOR, path: '/adminNewStatr/home/device' });
    const row = (await screen.findAllByText('SW5121S0000101'))[0]!.closest('tr')!;
    // datalogger and plant are wide-screen columns (hidden in jsdom's narrow window)
    for (const text of ['owner_ben', 'sunmaker', '5121']) expect(within(row).getByText(text)).toBeTruthy();
    expect(within(row).getByText('SW5121S0000101').closest('a')!.getAttribute('href')).toBe(
      '/adminNewStatr/home/device/SWSOUTH0000001/5121/1/SW5121S0000101',
    );
    const other = screen.getByText('OMSN0000000001').closest('tr')!;
    expect(within(other).getByText('othermaker')).toBeTruthy();
    expect(screen.getByText('41 in total')).toBeTruthy();
  });

  it('searches and pages on the server', async () => {
    const api = installFakeApi({
      queryFleetDevices: paged('device', [device('SW5121S0000101')], { total: 60 }),
      webQueryUsrEs: paged('account', []),
    });
    renderWithApp(<FleetDevicesPage />, { role: ROLE.OPERATOR, path: '/adminNewStatr/home/device?page=2' });
    await waitFor(() => expect(api.count('queryFleetDevices')).toBe(1));
    expect(api.last('queryFleetDevices')?.get('page')).toBe('1');
    expect(api.last('queryFleetDevices')?.get('pagesize')).toBe('20');
    const box = screen.getByPlaceholderText('PN, SN, devcode or owner');
    fireEvent.change(box, { target: { value: 'owner_ben' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.last('queryFleetDevices')?.get('search')).toBe('owner_ben'));
    // a new search goes back to the first page
    expect(api.last('queryFleetDevices')?.get('page')).toBe('0');
  });
});
