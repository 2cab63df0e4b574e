/**
 * Tabs and panels of the device detail that other features provide (issue 10: control, send
 * command, report export, yearly key figures, operation history; issue 11: alarms; the
 * device-management panel of the info tab). The devices feature may not import another feature
 * (features/boundaries.test.ts), so the app
 * names them here, each loaded only when it is opened.
 */
import type { ComponentType } from 'react';
import type { Access } from './access';
import type { DeviceTupleLike } from '../features/shared/devices/paths';

export interface DeviceTabProps {
  device: DeviceTupleLike;
}

export interface DeviceTabDef {
  key: string;
  /** i18n key of the tab's title. */
  titleKey: string;
  /** Whether the account sees the tab at all (the server still checks every call). */
  visible: (access: Access) => boolean;
  load: () => Promise<{ default: ComponentType<DeviceTabProps> }>;
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
    visible: (a) => a.hasModule('device_manag'),
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
