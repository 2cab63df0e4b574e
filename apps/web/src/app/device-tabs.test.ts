import { describe, expect, it } from 'vitest';
import { accessFor } from './access';
import { DEVICE_EXTRA_TABS, DEVICE_INFO_PANEL } from './device-tabs';

const tabsOf = (a: ReturnType<typeof accessFor>) => DEVICE_EXTRA_TABS.filter((d) => d.visible(a)).map((d) => d.key);

describe('device detail tabs of issue 10 per account', () => {
  it('an owner sees control, send command, report export, yearly totals and history, and may manage the device', () => {
    const a = accessFor({ role: 0 });
    expect(tabsOf(a)).toEqual(['control', 'command', 'report', 'yearly', 'history', 'alarms', 'upgrade']);
    expect(DEVICE_INFO_PANEL.visible(a)).toBe(true);
  });
  it('a viewer sees the reads only (yearly totals, history) and cannot manage the device', () => {
    const a = accessFor({ role: 5 });
    expect(tabsOf(a)).toEqual(['yearly', 'history', 'alarms', 'upgrade']);
    expect(DEVICE_INFO_PANEL.visible(a)).toBe(false);
  });
  it('a sub-administrator sees what its role grants: no control page, no write button, no export', () => {
    const a = accessFor({
      role: 2,
      permissions: { modules: ['device_manag'], firstPages: ['device_list'], secondPages: ['device_detail'], buttons: [] },
    });
    expect(tabsOf(a)).toEqual(['yearly', 'history', 'alarms', 'upgrade']);
    const b = accessFor({
      role: 2,
      permissions: { modules: ['device_manag'], firstPages: ['device_list'], secondPages: ['device_control'], buttons: ['device_control_write', 'device_export'] },
    });
    expect(tabsOf(b)).toEqual(['control', 'command', 'report', 'yearly', 'history', 'alarms', 'upgrade']);
    const none = accessFor({ role: 2, permissions: { modules: ['overview'], firstPages: [], secondPages: [], buttons: [] } });
    expect(tabsOf(none)).toEqual([]);
  });
  it('every tab loads its own module', async () => {
    for (const d of [...DEVICE_EXTRA_TABS, DEVICE_INFO_PANEL]) expect(typeof (await d.load()).default).toBe('function');
  }, 60_000); // transforms every tab's module graph (7 s alone, more on a busy machine)
});
