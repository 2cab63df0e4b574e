import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLE, type UpgradeableRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, renderWithApp, resetAppTest, type FakeAnswer } from '../../../test/fake-api';
import OwnerFirmwarePage from './OwnerFirmwarePage';

/** Issue 13: the owner's setting/firmware page (her dataloggers, their devices, the offers). */

const ANNA = 'SWNORTH0000001';
const SPARE = 'SWNORTH0000009';
const INV = { pn: ANNA, devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const DL_FW = { code: 'aaaabbbbccccdddd', name: 'SW-DL4G main', version: '2.1.0', type: 0, baudRate: null };
const INV_FW = { code: '0123456789abcdef', name: 'Inverter control board', version: '5.0.3', type: 2, baudRate: 9600 };

function row(over: Partial<UpgradeableRow>): UpgradeableRow {
  return {
    pn: ANNA,
    target: 0,
    devcode: null,
    devaddr: null,
    sn: ANNA,
    alias: '',
    model: 'SW-DL4G',
    online: true,
    version: '2.0.0',
    offer: null,
    task: null,
    ...over,
  };
}

const page = (item: UpgradeableRow[], total = item.length): FakeAnswer => ok({ total, page: 0, pagesize: 10, item });

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('OwnerFirmwarePage', () => {
  it('lists the dataloggers with their offers; a datalogger opens to its devices; the owner takes a device’s suggested strategy and watches it complete', async () => {
    let started = false;
    let devicePolls = 0;
    const dataloggers = [
      row({
        alias: 'Anna hybrid',
        offer: { firmware: DL_FW, from: 'default', note: 'Resumable uploads' },
      }),
      row({ pn: SPARE, sn: SPARE, alias: 'Spare stick', model: 'SW-DL1', online: false, version: '1.4.2' }),
    ];
    const strategyOffer: UpgradeableRow['offer'] = {
      firmware: INV_FW,
      from: 'strategy',
      strategy: 'ST20261128-0001',
      reminder: 'Better MPPT tracking in the morning',
      note: '',
    };
    const inverter = (over: Partial<UpgradeableRow> = {}) =>
      row({
        ...INV,
        target: 1,
        alias: 'Hybrid inverter',
        model: 'SW-5K',
        version: '5.0.1',
        offer: strategyOffer,
        ...over,
      });
    const api = installFakeApi({
      queryUpgradeableFirmware: (q) => {
        if (!q.get('pn')) return page(dataloggers, 2);
        if (!started) return page([inverter()]);
        devicePolls += 1;
        return devicePolls < 3
          ? page([inverter({ task: { key: 'K-INV', status: 0, progress: 250 } })])
          : page([inverter({ version: '5.0.3', offer: null, task: { key: 'K-INV', status: 3, progress: 1000 } })]);
      },
      firmwareUpgradeDevice: () => {
        started = true;
        return ok({ ret: 0, key: 'K-INV' });
      },
    });
    renderWithApp(<OwnerFirmwarePage />, { role: ROLE.OWNER });
    const list = await screen.findByTestId('upg-offers', {}, { timeout: 20_000 });
    await within(list).findByText('Anna hybrid', {}, { timeout: 20_000 });
    expect(screen.getByText('Firmware of my dataloggers')).toBeTruthy();
    // her dataloggers: version, online state, the offer (default firmware with its note) or none
    const annaRow = within(list).getByText('Anna hybrid').closest('tr')!;
    expect(within(annaRow).getByText('SW-DL4G main 2.1.0')).toBeTruthy();
    expect(within(annaRow).getByText('Default firmware')).toBeTruthy();
    expect(within(annaRow).getByText('Resumable uploads')).toBeTruthy();
    expect(within(annaRow).getByText('Online')).toBeTruthy();
    const spareRow = within(list).getByText('Spare stick').closest('tr')!;
    expect(within(spareRow).getByText('No upgrade available')).toBeTruthy();
    expect(within(spareRow).getByText('Offline')).toBeTruthy();
    expect(within(spareRow).queryByTestId(`upg-offer-${SPARE}`)).toBeNull();
    const first = api.callsOf('queryUpgradeableFirmware')[0]!;
    expect([first.get('pn'), first.get('page'), first.get('pagesize')]).toEqual([null, '0', '10']);

    // open Anna's datalogger: its devices, with the suggested strategy and its reminder
    fireEvent.click(within(annaRow).getByRole('button', { name: /expand/i }));
    const devices = await screen.findByTestId(`upg-offers-${ANNA}`, {}, { timeout: 10_000 });
    await within(devices).findByText('Better MPPT tracking in the morning', {}, { timeout: 10_000 });
    expect(within(devices).getByText('Suggested upgrade')).toBeTruthy();
    expect(api.last('queryUpgradeableFirmware')!.get('pn')).toBe(ANNA);

    // take it
    const id = `${ANNA}-${INV.sn}`;
    fireEvent.click(within(devices).getByTestId(`upg-offer-${id}`));
    await screen.findByText('Hybrid inverter goes from 5.0.1 to 5.0.3. It keeps working; it restarts once at the end.');
    const buttons = await screen.findAllByRole('button', { name: 'Upgrade' });
    fireEvent.click(buttons[buttons.length - 1]!);
    await screen.findByText('Upgrade started', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeDevice')!;
    expect([
      p.get('pn'),
      p.get('devcode'),
      p.get('devaddr'),
      p.get('sn'),
      p.get('firmware'),
      p.get('type'),
      p.get('baudRate'),
    ]).toEqual([ANNA, '2341', '1', INV.sn, INV_FW.code, '2', '9600']);
    expect(api.count('firmwareUpgradeCollector')).toBe(0);

    // live progress until completed; the new version replaces the old, the offer is gone
    await waitFor(
      () => expect(within(devices).getByTestId(`upg-progress-${id}`).getAttribute('data-progress')).toBe('25.0'),
      {
        timeout: 10_000,
      },
    );
    expect(within(devices).getByTestId(`upg-cancel-K-INV`)).toBeTruthy();
    await waitFor(
      () => expect(within(devices).getByTestId(`upg-status-${id}`).getAttribute('data-outcome')).toBe('success'),
      {
        timeout: 10_000,
      },
    );
    expect(within(devices).getByTestId(`upg-progress-${id}`).getAttribute('data-progress')).toBe('100.0');
    expect(within(devices).getByText('5.0.3')).toBeTruthy();
    expect(within(devices).queryByTestId(`upg-offer-${id}`)).toBeNull();
  }, 120_000);

  it('takes a datalogger’s offer and tells when it is offline', async () => {
    const api = installFakeApi({
      queryUpgradeableFirmware: page([
        row({ alias: 'Anna hybrid', offer: { firmware: DL_FW, from: 'default', note: '' } }),
      ]),
      firmwareUpgradeCollector: ok({ ret: 2 }),
    });
    renderWithApp(<OwnerFirmwarePage />, { role: ROLE.OWNER });
    fireEvent.click(await screen.findByTestId(`upg-offer-${ANNA}`, {}, { timeout: 20_000 }));
    const buttons = await screen.findAllByRole('button', { name: 'Upgrade' });
    fireEvent.click(buttons[buttons.length - 1]!);
    await screen.findByText('The device or datalogger is offline', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeCollector')!;
    expect([p.get('pn'), p.get('firmware')]).toEqual([ANNA, DL_FW.code]);
  }, 60_000);

  it('a viewer sees the offers without any upgrade or cancel button', async () => {
    installFakeApi({
      queryUpgradeableFirmware: page([
        row({
          alias: 'Anna hybrid',
          offer: { firmware: DL_FW, from: 'default', note: '' },
          task: { key: 'K1', status: 0, progress: 100 },
        }),
      ]),
    });
    renderWithApp(<OwnerFirmwarePage />, { role: ROLE.VIEWER });
    await screen.findByText('SW-DL4G main 2.1.0', {}, { timeout: 20_000 });
    expect(screen.getByTestId(`upg-progress-${ANNA}`).getAttribute('data-progress')).toBe('10.0');
    expect(screen.queryByTestId(`upg-offer-${ANNA}`)).toBeNull();
    expect(screen.queryByTestId('upg-cancel-K1')).toBeNull();
  }, 60_000);
});
