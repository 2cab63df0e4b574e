/**
 * Function permissions of role-2 sub-administrators (spec §3 Session): modules, their
 * first-level pages, second-level pages and buttons. The server checks them per action;
 * the web derives the new-edition menus from them.
 */
export interface PermissionNode {
  action: string;
  first: Array<{ action: string; second?: string[] }>;
  buttons: string[];
}

export const PERMISSION_TREE: readonly PermissionNode[] = [
  { action: 'overview', first: [{ action: 'overview_home' }], buttons: [] },
  {
    action: 'device_manag',
    first: [
      { action: 'device_list', second: ['device_detail', 'device_control', 'device_upgrade'] },
      { action: 'datalogger_list', second: ['datalogger_detail', 'datalogger_debug'] },
      { action: 'project_list' },
    ],
    buttons: [
      'device_export',
      'device_control_write',
      'datalogger_add',
      'datalogger_edit',
      'datalogger_delete',
      // plant writes (issue 10): addPlant; editPlant and editPlantEnergyOffset; delPlant
      'project_add',
      'project_edit',
      'project_delete',
    ],
  },
  {
    action: 'account_manag',
    first: [{ action: 'account_list', second: ['account_detail'] }, { action: 'group_list' }, { action: 'role_list' }],
    buttons: ['account_add', 'account_edit', 'account_delete', 'account_enable', 'account_reset_password', 'datalogger_distribute'],
  },
  {
    action: 'alarm_manag',
    first: [{ action: 'alarm_list' }, { action: 'alarm_rules' }, { action: 'alarm_export' }],
    buttons: ['alarm_handle', 'alarm_export_file'],
  },
  {
    action: 'system_settings',
    first: [
      { action: 'setting_personal' },
      { action: 'setting_alarm' },
      { action: 'setting_recharge', second: ['recharge_pay', 'recharge_record', 'frequency_record'] },
      { action: 'setting_strategy', second: ['firmware', 'strategy', 'upgrade'] },
      { action: 'setting_rate' },
    ],
    buttons: ['firmware_upload', 'strategy_add', 'recharge_pay_button'],
  },
];

export const PERMISSION_MODULES = PERMISSION_TREE.map((m) => m.action);
export type PermissionModule = 'overview' | 'device_manag' | 'account_manag' | 'alarm_manag' | 'system_settings';

/** What queryAccountInfo returns in `permission[]` for role 2. */
export interface PermissionEntry {
  action: string;
  isCheck: boolean;
  buttons: Array<{ action: string; isCheck: boolean }>;
  first_menus: Array<{ action: string; isCheck: boolean }>;
  second_menus: Array<{ action: string; isCheck: boolean }>;
}

/** The four flat lists the web keeps (spec §3). */
export interface PermissionLists {
  modules: string[];
  firstPages: string[];
  secondPages: string[];
  buttons: string[];
}

/** Every permission name, for a full grant. */
export function allPermissionNames(): string[] {
  return PERMISSION_TREE.flatMap((m) => [
    m.action,
    ...m.first.flatMap((f) => [f.action, ...(f.second ?? [])]),
    ...m.buttons,
  ]);
}

/** Builds the wire `permission[]` from the set of granted names. */
export function permissionEntries(granted: ReadonlySet<string>): PermissionEntry[] {
  return PERMISSION_TREE.map((m) => ({
    action: m.action,
    isCheck: granted.has(m.action),
    buttons: m.buttons.map((b) => ({ action: b, isCheck: granted.has(b) })),
    first_menus: m.first.map((f) => ({ action: f.action, isCheck: granted.has(f.action) })),
    second_menus: m.first.flatMap((f) => (f.second ?? []).map((s) => ({ action: s, isCheck: granted.has(s) }))),
  }));
}

/** Flattens the wire `permission[]` into the four lists of checked names. */
export function permissionLists(entries: readonly PermissionEntry[]): PermissionLists {
  const lists: PermissionLists = { modules: [], firstPages: [], secondPages: [], buttons: [] };
  for (const e of entries) {
    if (!e.isCheck) continue;
    lists.modules.push(e.action);
    lists.firstPages.push(...e.first_menus.filter((x) => x.isCheck).map((x) => x.action));
    lists.secondPages.push(...e.second_menus.filter((x) => x.isCheck).map((x) => x.action));
    lists.buttons.push(...e.buttons.filter((x) => x.isCheck).map((x) => x.action));
  }
  return lists;
}

/** Spec §2: where a role-2 account lands on the new edition, by module permission. */
export function subAdminLandingPath(modules: readonly string[]): string {
  if (modules.includes('overview')) return '/home';
  if (modules.includes('device_manag')) return '/adminNew/device';
  if (modules.includes('account_manag')) return '/adminNew/account';
  if (modules.includes('alarm_manag')) return '/adminNew/alarm';
  if (modules.includes('system_settings')) return '/adminNew/setting';
  return '/home';
}
