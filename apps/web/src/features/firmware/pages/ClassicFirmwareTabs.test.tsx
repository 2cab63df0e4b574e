/**
 * Issue 13, classic edition: /admin/setting/firmware is a tabbed page (routes.ts `layout: 'tabs'`)
 * holding the library, the upgrade-management firmware, the default firmware and the new
 * edition's strategy and cloud-upgrade pages, each tab at its own address. The whole app is
 * rendered (router, guard, area and settings layouts) against a fake server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FirmwareRow, StrategyRow, UpgradeTaskRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { saveLogin, setNewEdition, setPermissions } from '../../../app/session';
import { authDat, resetBrowserState } from '../../../test/session-fixtures';
import { renderAppAt } from '../../../test/render-app';

const FIRMWARE: FirmwareRow = {
  firmware: '0123456789abcdef',
  name: 'DL4G main',
  version: '2.1.0',
  type: 1,
  baudRate: null,
  desc: '',
  upgradeMode: 0,
  note: '',
  notes: {},
  origin: 0,
  fileName: 'dl4g-2.1.0.bin',
  size: 131072,
  sha256: 'ab'.repeat(32),
  signed: true,
  keyFingerprint: 'SHA256:demo',
  keyRevoked: false,
  vendor: 'sunmaker',
  uploadTime: '2026-11-25 10:00:00',
  defaultFor: ['SW-DL4G'],
};

const STRATEGY: StrategyRow = {
  id: 1,
  code: 'ST20261128-0001',
  name: 'Autumn rollout',
  description: '',
  firmware: { code: FIRMWARE.firmware, name: FIRMWARE.name, version: FIRMWARE.version },
  type: 1,
  baudRate: 9600,
  method: 0 as StrategyRow['method'],
  timezone: 0,
  startTime: '2026-11-28 00:00:00',
  endTime: '2026-12-28 00:00:00',
  startsAt: 0,
  endsAt: 0,
  status: 1 as StrategyRow['status'],
  deviceCount: 4,
  upgraded: 2,
  success: 1,
  failed: 0,
  stage: 1,
  canaryPercent: 0,
  failureThresholdPercent: 20,
  paused: false,
  pauseReason: '',
  pauseCode: '',
  filter: null,
  resolved: true,
  reminder: '',
  createdAt: 0,
};

const TASK: UpgradeTaskRow = {
  key: 'K-1',
  pn: 'SWNORTH0000001',
  target: 0,
  devcode: null,
  devaddr: null,
  sn: null,
  alias: '',
  firmware: { code: FIRMWARE.firmware, name: FIRMWARE.name, version: FIRMWARE.version, type: 1 },
  fromVersion: '2.0.0',
  toVersion: '2.1.0',
  status: 0,
  phase: 'transfer',
  progress: 425,
  baudRate: null,
  error: '',
  usr: 'sunmaker',
  batch: 5,
  strategy: null,
  ts: '2026-11-28 10:00:00',
  uts: '2026-11-28 10:00:00',
  ets: null,
};

function fakeServer() {
  const actions: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      actions.push(q);
      const action = q.get('action') ?? '';
      const dat: unknown =
        action === 'queryFirmwares'
          ? { total: 1, page: 0, pagesize: 10, firmware: [FIRMWARE] }
          : action === 'queryDefaultFirmwares'
            ? { types: [{ dataloggerType: 'SW-DL4G', dataloggers: 3, firmware: FIRMWARE }] }
            : action === 'queryFirmwareKeys'
              ? { keys: [] }
              : action === 'queryUpgradeStrategies'
                ? { total: 1, page: 0, pagesize: 12, strategy: [STRATEGY] }
                : action === 'queryFirmwareUpgrades'
                  ? { total: 1, page: 0, pagesize: 10, task: [TASK], count: { 0: 1 } }
                  : action === 'webQueryCollectorsEs'
                    ? { total: 0, page: 0, pagesize: 10, collector: [] }
                    : undefined;
      return new Response(
        JSON.stringify(dat === undefined ? { err: 9, desc: 'ERR' } : { err: 0, desc: 'ERR_NONE', dat }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    }),
  );
  return actions;
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  resetBrowserState();
  setNewEdition(false);
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tabLabels = () => screen.getAllByRole('tab').map((t) => t.textContent?.trim());

describe('classic admin firmware page (tabs)', () => {
  // One step per test (each loads other page modules; a loaded machine gets a timeout per step).
  const asManufacturer = (path: string) => {
    saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
    const calls = fakeServer();
    return { calls, router: renderAppAt(path) };
  };

  it('opens on the library (origin 0) with five tabs; the settings menu keeps Firmware selected', async () => {
    const { calls, router } = asManufacturer('/admin/setting/firmware');
    expect(await screen.findByTestId('fw-library-page', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(await screen.findByTestId('fw-row', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(calls.find((c) => c.get('action') === 'queryFirmwares')!.get('origin')).toBe('0');
    expect(tabLabels()).toEqual([
      'Firmware library',
      'Upgrade firmware',
      'Default firmware',
      'Upgrade strategies',
      'Cloud upgrade',
    ]);
    expect(router.state.location.pathname).toBe('/admin/setting/firmware');
    const selected = document.querySelector('[data-testid=settings-menu] .ant-menu-item-selected');
    expect(selected?.textContent).toBe('Firmware');

    fireEvent.click(screen.getByTestId('route-tab-default'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/setting/firmware/default'));
    const defaults = await screen.findByTestId('fw-defaults', undefined, { timeout: 60_000 });
    expect(await within(defaults).findByText('SW-DL4G', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(screen.queryByTestId('fw-library-page')).toBeNull();
  }, 240_000);

  it('the strategies tab lists the strategies and opens the editor', async () => {
    const { router } = asManufacturer('/admin/setting/firmware');
    fireEvent.click(await screen.findByTestId('route-tab-strategy', undefined, { timeout: 60_000 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/setting/firmware/strategy'));
    const strategy = await screen.findByTestId('strategy-row', undefined, { timeout: 60_000 });
    expect(within(strategy).getByTestId('strategy-row-name').textContent).toBe('Autumn rollout');
    fireEvent.click(screen.getByTestId('strategy-add'));
    expect(await screen.findByTestId('strategy-form', undefined, { timeout: 60_000 })).toBeTruthy();
    const selected = document.querySelector('[data-testid=settings-menu] .ant-menu-item-selected');
    expect(selected?.textContent).toBe('Firmware');
  }, 240_000);

  it('the cloud-upgrade tab (deep link) shows the task list with its progress; the first tab leads back', async () => {
    const { router } = asManufacturer('/admin/setting/firmware/upgrade');
    expect(await screen.findByTestId('upg-page', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(await screen.findByText('SWNORTH0000001', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42.5');
    expect(screen.getByRole('tab', { selected: true }).textContent?.trim()).toBe('Cloud upgrade');

    fireEvent.click(screen.getByTestId('route-tab-index'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/setting/firmware'));
    expect(await screen.findByTestId('fw-library-page', undefined, { timeout: 60_000 })).toBeTruthy();
  }, 240_000);

  it('a deep link opens its tab; a sub-administrator without device management has no cloud-upgrade tab', async () => {
    saveLogin(authDat({ role: 2, usr: 'dealer_north' }), { remember: false });
    setPermissions({ modules: ['system_settings'], firstPages: [], secondPages: [], buttons: [] });
    fakeServer();
    const router = renderAppAt('/admin/setting/firmware/strategy');
    expect(await screen.findByTestId('strategy-row', undefined, { timeout: 60_000 })).toBeTruthy();
    expect(tabLabels()).toEqual(['Firmware library', 'Upgrade firmware', 'Default firmware', 'Upgrade strategies']);
    expect(screen.getByRole('tab', { selected: true }).textContent?.trim()).toBe('Upgrade strategies');
    expect(router.state.location.pathname).toBe('/admin/setting/firmware/strategy');
    await router.navigate('/admin/setting/firmware/upgrade');
    await waitFor(() => expect(router.state.location.pathname).toBe('/401'));
  }, 240_000);
});
