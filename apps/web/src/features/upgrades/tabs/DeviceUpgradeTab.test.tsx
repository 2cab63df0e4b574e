import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ROLE, type UpgradeTaskRow, type UpgradeableRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { useDeviceTabs } from '../../../app/device-tabs';
import { getSession } from '../../../app/session';
import {
  AppFrame,
  installFakeApi,
  ok,
  paged,
  renderWithApp,
  resetAppTest,
  signInAs,
  testQueryClient,
  type FakeAnswer,
} from '../../../test/fake-api';
import DeviceUpgradeTab from './DeviceUpgradeTab';

/** Issue 13: the device detail's upgrade tab, for an administrator and for an owner. */

const DEVICE = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const ID = `${DEVICE.pn}-${DEVICE.sn}`;
const FW = { code: '0123456789abcdef', name: 'Inverter control board', version: '5.0.3', type: 2, baudRate: 9600 };

function offerRow(over: Partial<UpgradeableRow> = {}): UpgradeableRow {
  return {
    pn: DEVICE.pn,
    target: 1,
    devcode: DEVICE.devcode,
    devaddr: DEVICE.devaddr,
    sn: DEVICE.sn,
    alias: 'Hybrid inverter',
    model: 'SW-5K',
    online: true,
    version: '5.0.1',
    offer: null,
    task: null,
    ...over,
  };
}
const STRATEGY_OFFER: UpgradeableRow['offer'] = {
  firmware: FW,
  from: 'strategy',
  strategy: 'ST20261128-0001',
  reminder: 'Better MPPT tracking in the morning',
  note: '',
};

function task(status: number, progress: number): UpgradeTaskRow {
  return {
    key: 'K-DEV-1',
    pn: DEVICE.pn,
    target: 1,
    devcode: DEVICE.devcode,
    devaddr: DEVICE.devaddr,
    sn: DEVICE.sn,
    alias: '',
    firmware: { code: FW.code, name: FW.name, version: FW.version, type: FW.type },
    fromVersion: '5.0.1',
    toVersion: FW.version,
    status,
    phase: 'transfer',
    progress,
    baudRate: 9600,
    error: '',
    usr: 'sunmaker',
    batch: null,
    strategy: null,
    ts: '2026-11-28 10:00:00',
    uts: '2026-11-28 10:00:00',
    ets: status === 0 ? null : '2026-11-28 10:02:00',
  };
}
const tasks = (rows: UpgradeTaskRow[]): FakeAnswer =>
  paged('task', rows, { count: Object.fromEntries(rows.map((r) => [String(r.status), 1])) });
const offers = (rows: UpgradeableRow[]): FakeAnswer => paged('item', rows);
const detail = ok({ pn: DEVICE.pn, fireware: 'DL-1.4.0' });

/** Opens an antd Select (its combobox) and picks the option with `label`. */
async function pick(combobox: HTMLElement, label: string) {
  fireEvent.mouseDown(combobox);
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]!);
}

/** The OK button of the open confirmation. */
async function confirmOk(name: string) {
  const buttons = await screen.findAllByRole('button', { name });
  fireEvent.click(buttons[buttons.length - 1]!);
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('DeviceUpgradeTab, administrator', () => {
  it('needs the firmware, a device type and a baud rate; starts the device upgrade with them and follows it live', async () => {
    let started = false;
    const api = installFakeApi({
      queryCollectorDetail: detail,
      queryUpgradeableFirmware: offers([offerRow()]),
      // before the start: no history; after: running, then completed on the next poll
      queryFirmwareUpgrades: () =>
        !started ? tasks([]) : api.count('queryFirmwareUpgrades') < 4 ? tasks([task(0, 453)]) : tasks([task(3, 1000)]),
      firmwareUpgradeDevice: () => {
        started = true;
        return ok({ ret: 0, key: 'K-DEV-1' });
      },
    });
    renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.MANUFACTURER });

    await screen.findByTestId('upg-device-version', {}, { timeout: 20_000 });
    await waitFor(() => expect(screen.getByTestId('upg-device-version').textContent).toBe('5.0.1'));
    await waitFor(() => expect(screen.getByTestId('upg-dl-version').textContent).toBe('DL-1.4.0'));
    const submit = screen.getByTestId('upg-device-submit') as HTMLButtonElement;
    const card = submit.closest('.ant-card') as HTMLElement;
    expect(submit.disabled).toBe(true);

    // the firmware alone is not enough: a device firmware needs its baud rate
    fireEvent.change(within(card).getByTestId('upg-firmware'), { target: { value: ` ${FW.code} ` } });
    expect(submit.disabled).toBe(true);
    const [typeBox, baudBox] = within(card).getAllByRole('combobox');
    // only device types are offered on the device card
    fireEvent.mouseDown(typeBox!);
    await screen.findAllByText('Control 1', { selector: '.ant-select-item-option-content' });
    expect(screen.queryByText('General', { selector: '.ant-select-item-option-content' })).toBeNull();
    await pick(typeBox!, 'Control 2');
    expect(submit.disabled).toBe(true);
    await pick(baudBox!, '9600');
    await waitFor(() => expect(submit.disabled).toBe(false));
    // and the firmware stays required
    fireEvent.change(within(card).getByTestId('upg-firmware'), { target: { value: '  ' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(within(card).getByTestId('upg-firmware'), { target: { value: FW.code } });
    expect(submit.disabled).toBe(false);

    fireEvent.click(submit);
    await screen.findByText(`Device ${DEVICE.sn} will be upgraded through its datalogger.`);
    expect(api.count('firmwareUpgradeDevice')).toBe(0);
    await confirmOk('Upgrade');
    await screen.findByText('Upgrade started', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeDevice')!;
    expect(
      Object.fromEntries(['pn', 'devcode', 'devaddr', 'sn', 'firmware', 'type', 'baudRate'].map((k) => [k, p.get(k)])),
    ).toEqual({
      pn: DEVICE.pn,
      devcode: '2341',
      devaddr: '1',
      sn: DEVICE.sn,
      firmware: FW.code,
      type: '3',
      baudRate: '9600',
    });
    expect(api.count('firmwareUpgradeCollector')).toBe(0);

    // the history follows the task: running 45.3 %, then completed at 100 % (polled)
    const history = screen.getByTestId('upg-device-history');
    await waitFor(
      () => expect(within(history).getByTestId(`upg-progress-${ID}`).getAttribute('data-progress')).toBe('45.3'),
      {
        timeout: 10_000,
      },
    );
    expect(within(history).getByTestId(`upg-status-${ID}`).textContent).toBe('Upgrading');
    expect(within(history).getByTestId(`upg-cancel-K-DEV-1`)).toBeTruthy();
    await waitFor(() => expect(within(history).getByTestId(`upg-status-${ID}`).textContent).toBe('Completed'), {
      timeout: 10_000,
    });
    expect(within(history).getByTestId(`upg-progress-${ID}`).getAttribute('data-progress')).toBe('100.0');
    expect(within(history).queryByTestId('upg-cancel-K-DEV-1')).toBeNull();
    const h = api.last('queryFirmwareUpgrades')!;
    expect([h.get('pn'), h.get('sn')]).toEqual([DEVICE.pn, DEVICE.sn]);
  }, 120_000);

  it('upgrades the device’s datalogger with only a firmware id, and says when the datalogger is offline', async () => {
    const api = installFakeApi({
      queryCollectorDetail: detail,
      queryUpgradeableFirmware: offers([offerRow()]),
      queryFirmwareUpgrades: tasks([]),
      firmwareUpgradeCollector: ok({ ret: 2 }),
    });
    renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.MANUFACTURER });
    const submit = (await screen.findByTestId('upg-dl-submit', {}, { timeout: 20_000 })) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    const card = submit.closest('.ant-card') as HTMLElement;
    // datalogger types only, no baud rate
    expect(within(card).getAllByRole('combobox')).toHaveLength(1);
    fireEvent.change(within(card).getByTestId('upg-firmware'), { target: { value: 'fedcba9876543210' } });
    fireEvent.click(submit);
    await screen.findByText(`Datalogger ${DEVICE.pn} will be upgraded; it restarts once at the end.`);
    await confirmOk('Upgrade');
    await screen.findByText('The device or datalogger is offline', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeCollector')!;
    expect([p.get('pn'), p.get('firmware')]).toEqual([DEVICE.pn, 'fedcba9876543210']);
    expect(api.count('firmwareUpgradeDevice')).toBe(0);
  }, 60_000);

  it('a viewer sees versions and history but no form and no cancel', async () => {
    installFakeApi({
      queryCollectorDetail: detail,
      queryUpgradeableFirmware: offers([offerRow()]),
      queryFirmwareUpgrades: tasks([task(0, 200)]),
    });
    renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.VIEWER });
    await screen.findByTestId(`upg-progress-${ID}`, {}, { timeout: 20_000 });
    expect(screen.queryByTestId('upg-device-submit')).toBeNull();
    expect(screen.queryByTestId('upg-dl-submit')).toBeNull();
    expect(screen.queryByTestId('upg-cancel-K-DEV-1')).toBeNull();
  }, 60_000);
});

describe('DeviceUpgradeTab, owner', () => {
  it('sees the suggested strategy with its reminder, takes it (the offered firmware, type and baud rate) and watches it complete', async () => {
    await i18n.changeLanguage('de_DE');
    let started = false;
    let polls = 0;
    const api = installFakeApi({
      queryCollectorDetail: detail,
      queryUpgradeableFirmware: () => {
        if (!started) return offers([offerRow({ offer: STRATEGY_OFFER })]);
        polls += 1;
        return polls < 3
          ? offers([offerRow({ offer: STRATEGY_OFFER, task: { key: 'K-DEV-1', status: 0, progress: 620 } })])
          : offers([
              offerRow({ version: FW.version, offer: null, task: { key: 'K-DEV-1', status: 3, progress: 1000 } }),
            ]);
      },
      queryFirmwareUpgrades: tasks([]),
      firmwareUpgradeDevice: () => {
        started = true;
        return ok({ ret: 0, key: 'K-DEV-1' });
      },
    });
    renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.OWNER });
    const box = await screen.findByTestId('upg-device-offer', {}, { timeout: 20_000 });
    expect(within(box).getByText('Better MPPT tracking in the morning')).toBeTruthy();
    expect(within(box).getByText('Empfohlene Aktualisierung')).toBeTruthy();
    expect(within(box).getByText(/Inverter control board 5\.0\.3/)).toBeTruthy();
    // an owner never gets the administrator's free form
    expect(screen.queryByTestId('upg-device-submit')).toBeNull();
    expect(screen.queryByTestId('upg-firmware')).toBeNull();

    fireEvent.click(within(box).getByTestId(`upg-offer-${ID}`));
    await screen.findByText(/Hybrid inverter.*5\.0\.1.*5\.0\.3/);
    const okName = i18n.t('upgrades:offer.upgrade');
    await confirmOk(okName);
    await screen.findByText(i18n.t('upgrades:ret.accepted'), {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeDevice')!;
    expect(
      Object.fromEntries(['pn', 'devcode', 'devaddr', 'sn', 'firmware', 'type', 'baudRate'].map((k) => [k, p.get(k)])),
    ).toEqual({
      pn: DEVICE.pn,
      devcode: '2341',
      devaddr: '1',
      sn: DEVICE.sn,
      firmware: FW.code,
      type: '2',
      baudRate: '9600',
    });

    // live: 62 %, the button disabled while it runs; then completed and the new version
    await waitFor(() => expect(screen.getByTestId(`upg-progress-${ID}`).getAttribute('data-progress')).toBe('62.0'), {
      timeout: 10_000,
    });
    expect((screen.getByTestId(`upg-offer-${ID}`) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId('upg-device-version').textContent).toBe('5.0.3'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId(`upg-progress-${ID}`).getAttribute('data-progress')).toBe('100.0');
    expect(screen.getByTestId(`upg-status-${ID}`).getAttribute('data-outcome')).toBe('success');
    expect(screen.queryByTestId(`upg-offer-${ID}`)).toBeNull();
  }, 120_000);

  it('without an offer: the tab body says so, and the device tabs do not list the tab', async () => {
    const api = installFakeApi({
      queryCollectorDetail: detail,
      queryUpgradeableFirmware: offers([offerRow({ target: 0, sn: DEVICE.pn, offer: STRATEGY_OFFER }), offerRow()]),
      queryFirmwareUpgrades: tasks([]),
    });
    renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.OWNER });
    expect((await screen.findByTestId('upg-no-offer', {}, { timeout: 20_000 })).textContent).toBe(
      'No upgrade available',
    );
    expect(screen.queryByTestId(`upg-offer-${ID}`)).toBeNull();
    expect(screen.queryByTestId('upg-device-submit')).toBeNull();

    // the device detail's rule (app/device-tabs.ts) with the same answer: no upgrade tab
    signInAs(ROLE.OWNER);
    const queryClient = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <AppFrame queryClient={queryClient}>{children}</AppFrame>
    );
    const hook = renderHook(() => useDeviceTabs(DEVICE, getSession()).map((d) => d.key), { wrapper });
    await waitFor(() =>
      expect(queryClient.getQueryCache().findAll({ queryKey: ['upgrades', 'offers'] })[0]?.state.status).toBe(
        'success',
      ),
    );
    expect(hook.result.current).not.toContain('upgrade');
    expect(hook.result.current).toContain('alarms');
    // with the offer the tab appears
    api.on({ queryUpgradeableFirmware: offers([offerRow({ offer: STRATEGY_OFFER })]) });
    await queryClient.invalidateQueries();
    await waitFor(() => expect(hook.result.current).toContain('upgrade'));
  }, 60_000);
});
