/**
 * Tabs and panels of the device detail that other features provide (issue 10: control, send
 * command, report export, yearly key figures, operation history; issue 11: alarms; the
 * device-management panel of the info tab). The devices feature may not import another feature
 * (features/boundaries.test.ts), so the app
 * names them here, each loaded only when it is opened.
 */
import type { ComponentType } from 'react';
import { ROLE } from '@sunwatch/protocol';
import { accessFor, type Access } from './access';
import type { Session } from './session';
import type { DeviceTupleLike } from '../features/shared/devices/paths';
import { useOwnerUpgradeTab } from '../features/upgrades/tabs/upgrade-tab-rule';

export interface DeviceTabProps {
  device: DeviceTupleLike;
}

export interface DeviceTabDef {
  key: string;
  /** i18n key of the tab's title. */
  titleKey: string;
  /**
   * Whether the account sees the tab at all (the server still checks every call); `ctx`: what
   * the server says about this device (useDeviceTabContext), absent = no further condition.
   */
  visible: (access: Access, ctx?: DeviceTabContext) => boolean;
  load: () => Promise<{ default: ComponentType<DeviceTabProps> }>;
}

/** Conditions of tabs learned from the server for one device, beyond the account's rights. */
export interface DeviceTabContext {
  /** Issue 13: an owner sees the upgrade tab only when the device has an offer (or a running upgrade). */
  upgradeOffered: boolean;
}

const writes = (a: Access) => !a.readOnly && a.hasModule('device_manag');

/** After the built-in tabs of the device detail, in this order. */
export const DEVICE_EXTRA_TABS: readonly DeviceTabDef[] = [
  {
    key: 'control',
    titleKey: 'deviceOps:tabs.control',
    visible: (a) => writes(a) && a.hasPage('device_control'),
    load: () => import('../features/device-ops/tabs/ControlTab'),
  },
  {
    key: 'command',
    titleKey: 'deviceOps:tabs.command',
    visible: (a) => writes(a) && a.hasButton('device_control_write'),
    load: () => import('../features/device-ops/tabs/CommandTab'),
  },
  {
    key: 'report',
    titleKey: 'deviceOps:tabs.report',
    visible: (a) => !a.readOnly && a.hasButton('device_export'),
    load: () => import('../features/device-ops/tabs/ReportTab'),
  },
  {
    key: 'yearly',
    titleKey: 'deviceOps:tabs.yearly',
    visible: (a) => a.hasModule('device_manag'),
    load: () => import('../features/device-ops/tabs/YearlyTab'),
  },
  {
    key: 'history',
    titleKey: 'deviceOps:tabs.history',
    visible: (a) => a.hasModule('device_manag'),
    load: () => import('../features/device-ops/tabs/HistoryTab'),
  },
  {
    key: 'alarms',
    titleKey: 'alarms:device.tab',
    visible: (a) => a.hasModule('device_manag'),
    load: () => import('../features/alarms/tabs/DeviceAlarmsTab'),
  },
  {
    // issue 13: versions, upgrade (administrators; owners: what is offered), progress, history
    key: 'upgrade',
    titleKey: 'upgrades:device.tab',
    visible: (a, ctx) => a.hasModule('device_manag') && (ctx?.upgradeOffered ?? true),
    load: () => import('../features/upgrades/tabs/DeviceUpgradeTab'),
  },
];

/** Shown under the device info (edit alias, remove from plant) to accounts that may change devices. */
export const DEVICE_INFO_PANEL: DeviceTabDef = {
  key: 'manage',
  titleKey: 'deviceOps:edit.title',
  visible: writes,
  load: () => import('../features/device-ops/components/DeviceManagePanel'),
};

/**
 * The device detail's extra tabs for this account and device: `visible` with what the server
 * says about the device (an owner's upgrade offer; administrators need no request).
 */
export function useDeviceTabs(device: DeviceTupleLike, session: Session | undefined): DeviceTabDef[] {
  const access = accessFor(session);
  const owner = session?.role === ROLE.OWNER && access.hasModule('device_manag');
  const upgradeOffered = useOwnerUpgradeTab(device, owner);
  return DEVICE_EXTRA_TABS.filter((d) => d.visible(access, { upgradeOffered }));
}
