import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLE, type UpgradeTaskRow, type UpgradeableRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, paged, renderWithApp, resetAppTest, type FakeAnswer } from '../../../test/fake-api';
import DataloggerUpgradePanel from './DataloggerUpgradePanel';

/** Issue 13: the datalogger drawer's "Upgrade" tab. */

const PN = 'SWNORTH0000001';
const FW = { code: 'aaaabbbbccccdddd', name: 'SW-DL1 main', version: '1.4.2', type: 0, baudRate: null };

function task(status: number, progress: number, key = 'K-DL-1'): UpgradeTaskRow {
  return {
    key,
    pn: PN,
    target: 0,
    devcode: null,
    devaddr: null,
    sn: null,
    alias: '',
    firmware: { code: FW.code, name: FW.name, version: FW.version, type: FW.type },
    fromVersion: '1.4.0',
    toVersion: FW.version,
    status,
    phase: 'transfer',
    progress,
    baudRate: null,
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

function dlRow(over: Partial<UpgradeableRow> = {}): UpgradeableRow {
  return {
    pn: PN,
    target: 0,
    devcode: null,
    devaddr: null,
    sn: PN,
    alias: 'Anna hybrid',
    model: 'SW-DL1',
    online: true,
    version: '1.4.0',
    offer: null,
    task: null,
    ...over,
  };
}

async function confirmOk(name: string) {
  const buttons = await screen.findAllByRole('button', { name });
  fireEvent.click(buttons[buttons.length - 1]!);
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('DataloggerUpgradePanel', () => {
  it('an administrator starts an upgrade with a firmware id, follows the progress and cancels it', async () => {
    let state: 'idle' | 'running' | 'cancelled' = 'idle';
    const api = installFakeApi({
      queryFirmwareUpgrades: () =>
        state === 'idle' ? tasks([]) : state === 'running' ? tasks([task(0, 371)]) : tasks([task(4, 371)]),
      firmwareUpgradeCollector: () => {
        state = 'running';
        return ok({ ret: 0, key: 'K-DL-1' });
      },
      cancelCollectorFirmwareUpgrade: () => {
        state = 'cancelled';
        return ok({ ret: 0, status: 4 });
      },
    });
    renderWithApp(<DataloggerUpgradePanel pn={PN} version="1.4.0" />, { role: ROLE.MANUFACTURER });
    expect(screen.getByTestId('upg-dl-version').textContent).toBe('1.4.0');
    const submit = (await screen.findByTestId('upg-dl-submit')) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    // a datalogger firmware: types 0–1, no baud rate
    expect(within(screen.getByTestId('upg-dl-panel')).getAllByRole('combobox')).toHaveLength(1);
    fireEvent.change(screen.getByTestId('upg-firmware'), { target: { value: `${FW.code} ` } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await screen.findByText(`Datalogger ${PN} will be upgraded; it restarts once at the end.`);
    expect(api.count('firmwareUpgradeCollector')).toBe(0);
    await confirmOk('Upgrade');
    await screen.findByText('Upgrade started', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeCollector')!;
    expect([p.get('pn'), p.get('firmware')]).toEqual([PN, FW.code]);

    // the datalogger's own upgrades (target 0), live
    const history = screen.getByTestId('upg-dl-history');
    await waitFor(
      () => expect(within(history).getByTestId(`upg-progress-${PN}`).getAttribute('data-progress')).toBe('37.1'),
      {
        timeout: 10_000,
      },
    );
    expect(within(history).getByTestId(`upg-status-${PN}`).textContent).toBe('Upgrading');
    const q = api.last('queryFirmwareUpgrades')!;
    expect([q.get('pn'), q.get('target')]).toEqual([PN, '0']);

    // cancel, confirmed
    fireEvent.click(within(history).getByTestId('upg-cancel-K-DL-1'));
    await screen.findByText(`The upgrade of ${PN} stops; the datalogger may be upgraded again once it reconnects.`);
    expect(api.count('cancelCollectorFirmwareUpgrade')).toBe(0);
    await confirmOk('Cancel the upgrade');
    await screen.findByText('Upgrade cancelled', {}, { timeout: 10_000 });
    const c = api.last('cancelCollectorFirmwareUpgrade')!;
    expect([c.get('pn'), c.get('key')]).toEqual([PN, 'K-DL-1']);
    await waitFor(
      () => expect(within(history).getByTestId(`upg-status-${PN}`).textContent).toBe('Manually cancelled'),
      {
        timeout: 10_000,
      },
    );
    expect(within(history).queryByTestId('upg-cancel-K-DL-1')).toBeNull();
  }, 120_000);

  it('says "already upgrading" when the datalogger already runs one', async () => {
    installFakeApi({ queryFirmwareUpgrades: tasks([]), firmwareUpgradeCollector: ok({ ret: 3 }) });
    renderWithApp(<DataloggerUpgradePanel pn={PN} version="1.4.0" />, { role: ROLE.DISTRIBUTOR });
    fireEvent.change(await screen.findByTestId('upg-firmware'), { target: { value: FW.code } });
    fireEvent.click(screen.getByTestId('upg-dl-submit'));
    await confirmOk('Upgrade');
    await screen.findByText('Already upgrading', {}, { timeout: 10_000 });
  }, 60_000);

  it('an owner gets only the offer of this datalogger and takes it; no free firmware form', async () => {
    let started = false;
    const offer: UpgradeableRow['offer'] = {
      firmware: FW,
      from: 'strategy',
      strategy: 'ST20261128-0002',
      reminder: 'Faster reconnect after an outage',
      note: '',
    };
    const api = installFakeApi({
      queryUpgradeableFirmware: () =>
        ok({
          total: 2,
          page: 0,
          pagesize: 50,
          item: [
            dlRow({ pn: 'SWOTHER0000001', sn: 'SWOTHER0000001', offer: { ...offer, reminder: 'not this one' } }),
            dlRow({ offer, task: started ? { key: 'K-DL-1', status: 0, progress: 10 } : null }),
          ],
        }),
      queryFirmwareUpgrades: () => (started ? tasks([task(0, 10)]) : tasks([])),
      firmwareUpgradeCollector: () => {
        started = true;
        return ok({ ret: 0, key: 'K-DL-1' });
      },
    });
    renderWithApp(<DataloggerUpgradePanel pn={PN} version="1.4.0" />, { role: ROLE.OWNER });
    await screen.findByText('Faster reconnect after an outage', {}, { timeout: 20_000 });
    expect(screen.queryByText('not this one')).toBeNull();
    expect(screen.queryByTestId('upg-dl-submit')).toBeNull();
    expect(screen.queryByTestId('upg-firmware')).toBeNull();
    fireEvent.click(screen.getByTestId(`upg-offer-${PN}`));
    await screen.findByText('Anna hybrid goes from 1.4.0 to 1.4.2. It keeps working; it restarts once at the end.');
    await confirmOk('Upgrade');
    await screen.findByText('Upgrade started', {}, { timeout: 10_000 });
    const p = api.last('firmwareUpgradeCollector')!;
    expect([p.get('pn'), p.get('firmware')]).toEqual([PN, FW.code]);
    await waitFor(() => expect((screen.getByTestId(`upg-offer-${PN}`) as HTMLButtonElement).disabled).toBe(true), {
      timeout: 10_000,
    });
  }, 60_000);

  it('an owner without an offer is told so', async () => {
    installFakeApi({
      queryUpgradeableFirmware: paged('item', [dlRow()]),
      queryFirmwareUpgrades: tasks([]),
    });
    renderWithApp(<DataloggerUpgradePanel pn={PN} version="1.4.0" />, { role: ROLE.OWNER });
    await screen.findByText('No upgrade available', {}, { timeout: 20_000 });
    expect(screen.queryByTestId(`upg-offer-${PN}`)).toBeNull();
  }, 60_000);
});
