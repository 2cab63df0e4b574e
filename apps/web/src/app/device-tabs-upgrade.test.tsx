import { afterEach, describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Role, UpgradeableRow } from '@sunwatch/protocol';
import { accessFor } from './access';
import { DEVICE_EXTRA_TABS, useDeviceTabs } from './device-tabs';
import { getSession } from './session';
import { installFakeApi, ok, resetAppTest, signInAs, testQueryClient } from '../test/fake-api';
import { ownerSeesUpgradeTab } from '../features/upgrades/tabs/upgrade-tab-rule';

/** Issue 13 (G6): an owner sees the device's upgrade tab only when something is offered to it. */

const DEVICE = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };

function row(over: Partial<UpgradeableRow> = {}): UpgradeableRow {
  return {
    pn: DEVICE.pn,
    target: 1,
    devcode: DEVICE.devcode,
    devaddr: DEVICE.devaddr,
    sn: DEVICE.sn,
    alias: '',
    model: 'SW-5K',
    online: true,
    version: '1.0.0',
    offer: null,
    task: null,
    ...over,
  };
}
const OFFER: UpgradeableRow['offer'] = {
  firmware: { code: 'FW1', name: 'Inverter', version: '2.0.0', type: 2, baudRate: 9600 },
  from: 'strategy',
  strategy: 'ST20261128-0001',
  reminder: 'Better MPPT',
  note: '',
};
const datalogger = row({ target: 0, devcode: null, devaddr: null, sn: DEVICE.pn, offer: OFFER });

function tabsFor(role: Role, items: UpgradeableRow[]) {
  signInAs(role);
  const api = installFakeApi({
    queryUpgradeableFirmware: ok({ total: items.length, page: 0, pagesize: 50, item: items }),
  });
  const qc = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useDeviceTabs(DEVICE, getSession()).map((d) => d.key), { wrapper });
  return { hook, api, qc };
}

afterEach(resetAppTest);

describe('the owner rule', () => {
  it('an offer for the device, or a running upgrade of it; not its datalogger’s offer, not an ended task', () => {
    expect(ownerSeesUpgradeTab(undefined, DEVICE.sn)).toBe(false);
    expect(ownerSeesUpgradeTab([datalogger, row()], DEVICE.sn)).toBe(false);
    expect(ownerSeesUpgradeTab([row({ offer: OFFER })], DEVICE.sn)).toBe(true);
    expect(ownerSeesUpgradeTab([row({ task: { key: 'K', status: 0, progress: 300 } })], DEVICE.sn)).toBe(true);
    expect(ownerSeesUpgradeTab([row({ task: { key: 'K', status: 3, progress: 1000 } })], DEVICE.sn)).toBe(false);
    expect(ownerSeesUpgradeTab([row({ offer: OFFER })], 'OTHER')).toBe(false);
  });
  it('the tab definition honours what the server said; without it (no request) only the rights count', () => {
    const upgrade = DEVICE_EXTRA_TABS.find((d) => d.key === 'upgrade')!;
    const owner = accessFor({ role: 0 });
    expect(upgrade.visible(owner, { upgradeOffered: false })).toBe(false);
    expect(upgrade.visible(owner, { upgradeOffered: true })).toBe(true);
    expect(upgrade.visible(owner)).toBe(true);
  });
});

describe('useDeviceTabs', () => {
  it('an owner without an offer for the device: no upgrade tab', async () => {
    const { hook, api, qc } = tabsFor(0, [datalogger, row()]);
    await waitFor(() =>
      expect(qc.getQueryCache().findAll({ queryKey: ['upgrades', 'offers'] })[0]?.state.status).toBe('success'),
    );
    expect(api.actions()).toContain('queryUpgradeableFirmware');
    expect(hook.result.current).not.toContain('upgrade');
    expect(hook.result.current).toContain('alarms');
  });
  it('an owner with an offer (a suggested strategy) for the device: the tab', async () => {
    const { hook } = tabsFor(0, [datalogger, row({ offer: OFFER })]);
    await waitFor(() => expect(hook.result.current).toContain('upgrade'));
    expect(hook.result.current.at(-1)).toBe('upgrade');
  });
  it('an administrator keeps the tab without asking the server', async () => {
    const { hook, api } = tabsFor(1, [row()]);
    expect(hook.result.current).toContain('upgrade');
    await new Promise((r) => setTimeout(r, 20));
    expect(api.actions()).not.toContain('queryUpgradeableFirmware');
  });
});
