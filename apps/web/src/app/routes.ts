/**
 * THE route table of spec §2. Menus (sider and settings layouts), guards, the router and
 * the tests all read this one list (house style: Ant Design Pro `config/routes.ts`).
 *
 * Paths are segments relative to their parent. A node with `layout: 'settings'` renders
 * the nested settings layout whose left menu lists its children by `group`.
 *
 * Decisions where spec §2 is silent:
 * - Operator area: /adminNewStatr/home IS the settings layout; its pages live under it
 *   (/adminNewStatr/home/account, …) and its index shows the operator home.
 * - Role-2 module rules: home→overview, device and project→device_manag,
 *   account→account_manag, alarm→alarm_manag, setting→system_settings. Personal info
 *   is open to every role of the area. Other admin roles see everything in their area.
 * - General area (spec §6: a viewer has read-only access to the plants shared with her): the
 *   settings pages that configure or pay for the owner's plants and dataloggers (datalogger
 *   management, default firmware, rates, auxiliary functions, sub-accounts, data-plan recharge)
 *   are `writes`; the recharge and acceleration records are the owner's own (`roles: [0]`).
 *   A viewer keeps every monitoring page, personal info, alarm e-mails and reports.
 * - A settings node whose default child the account may not open opens its first child it may.
 * - Classic admin area (spec §2 lists only `setting/firmware` there): the firmware page is a
 *   `layout: 'tabs'` node. Its own page is the first tab (the firmware library); its children are
 *   the other tabs (upgrade firmware, default firmware, upgrade strategies, cloud upgrade), the new
 *   edition's pages under the same access rules, each with its own address for deep links.
 */
import type { ComponentType } from 'react';
import type { MenuIconName } from './menu-icon-names';
import { ROLE, type PermissionModule, type Role } from '@sunwatch/protocol';

export type AreaId = 'operator' | 'adminNew' | 'admin' | 'generalNew' | 'general';

/** Menu groups of the settings layouts (keys under `menu:groups`). */
export type MenuGroup =
  | 'accountManagement'
  | 'manufacturerManagement'
  | 'dataloggerManagement'
  | 'apiInterface'
  | 'protocolTools'
  | 'rechargeManagement'
  | 'deviceManagement'
  | 'datalogger'
  | 'personal'
  | 'alarmSettings'
  | 'recharge'
  | 'strategy'
  | 'auxiliary'
  | 'report';

/**
 * Access rule of a node, on top of its area's roles. The menus hide and the guard refuses
 * (401) a node whose rule, or any ancestor's, the account does not meet (access.ts).
 */
export interface AccessRule {
  /** Role-2 sub-administrators need this module permission. */
  module?: PermissionModule;
  /** Only these roles of the area may open it; absent: every role of the area. */
  roles?: readonly Role[];
  /**
   * The page exists to change things (pay, configure, manage other accounts or dataloggers):
   * a read-only account (spec §6 viewer, `isReadOnlyRole`) can never use it.
   */
  writes?: boolean;
}

/**
 * The page of a route: a loader of its module (a dynamic `import()`, so every page stays in
 * its own chunk). The router turns it into a lazy component; a node without one (none is left
 * since the placeholder page went) answers with the not-found page.
 */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * A page under a node reached by parameters (the device detail under a device list). It is
 * not a menu entry and not one of the spec's paths; it has its parent's access.
 */
export interface SubPage {
  /** Relative pattern, `:name` segments match any one segment. */
  pattern: string;
  titleKey: string;
  page: PageLoader;
}

export interface RouteNode {
  path: string;
  /** i18n key of the menu and page title. */
  titleKey: string;
  /** Menu icon by name (layouts/menu-items.tsx maps it to its component; the route table imports no icons). */
  icon?: MenuIconName;
  group?: MenuGroup;
  access?: AccessRule;
  /**
   * The page shown at this node; absent: the not-found page. A `settings` node without
   * `defaultChild` shows it as its index (titled `indexTitleKey`); a `tabs` node as its first tab.
   */
  page?: PageLoader;
  /** Parameterised page under this node (not in the menu). */
  subPage?: SubPage;
  /**
   * `settings`: the nested settings layout, a left menu of the children by `group`.
   * `tabs`: a tab bar over the node's own page (the first tab, `indexTitleKey`) and its children.
   */
  layout?: 'settings' | 'tabs';
  /** Segment of the child opened when the node itself is opened. */
  defaultChild?: string;
  /** The index page of a settings layout without default child; the first tab of a tabs node. */
  indexTitleKey?: string;
  children?: RouteNode[];
}

export interface AreaDef {
  id: AreaId;
  base: string;
  titleKey: string;
  roles: readonly Role[];
  edition: 'new' | 'old';
  /** The counterpart area of the other edition (edition switch). */
  otherEdition?: AreaId;
  defaultChild: string;
  children: RouteNode[];
}

const t = (k: string) => `menu:items.${k}`;
const item = (path: string, icon: MenuIconName, extra: Partial<RouteNode> = {}): RouteNode => ({
  path,
  titleKey: t(path),
  icon,
  ...extra,
});

const OVERVIEW: AccessRule = { module: 'overview' };
const DEVICES: AccessRule = { module: 'device_manag' };
const ACCOUNTS: AccessRule = { module: 'account_manag' };
const ALARMS: AccessRule = { module: 'alarm_manag' };
const SETTINGS: AccessRule = { module: 'system_settings' };
/** General area: pages that configure or pay for the owner's plants and dataloggers. */
const WRITES: AccessRule = { writes: true };
/** General area: the owner's own business (data-plan payments), not shared with viewers. */
const OWNER_ONLY: AccessRule = { roles: [ROLE.OWNER] };

/*
 * The pages. A new screen is one entry below: its node with `page: () => import(…)`.
 * Loaders used by several nodes are named here once.
 */
const overviewPage: PageLoader = () => import('../features/overview/pages/OverviewPage');
const generalHomePage: PageLoader = () => import('../features/overview/pages/GeneralHomePage');
const personalBasicPage: PageLoader = () => import('../features/account/pages/PersonalBasicPage');
const projectsPage: PageLoader = () => import('../features/plants/pages/ProjectsPage');
/** Issue 15: the flow cards and their recharge, one page in every area and edition. */
const rechargePayPage: PageLoader = () => import('../features/flow-cards/pages/RechargePayPage');
const accountsAdminPage: PageLoader = () => import('../features/accounts-admin/pages/AccountsAdminPage');
const dataloggersPage: PageLoader = () => import('../features/dataloggers/pages/DataloggersPage');
const helpformPage: PageLoader = () => import('../features/device-ops/pages/HelpformPage');
const alarmsPage: PageLoader = () => import('../features/alarms/pages/AlarmsPage');
const ownerFirmwarePage: PageLoader = () => import('../features/upgrades/pages/OwnerFirmwarePage');
const firmwareManagerPage: PageLoader = () => import('../features/firmware/pages/FirmwareManagerPage');
const upgFirmwarePage: PageLoader = () => import('../features/firmware/pages/UpgFirmwarePage');
const strategyPage: PageLoader = () => import('../features/strategies/pages/StrategyPage');
const cloudUpgradePage: PageLoader = () => import('../features/upgrades/pages/CloudUpgradePage');
const rechargeRecordPage: PageLoader = () => import('../features/recharge-records/pages/RechargeRecordPage');
const ratePage: PageLoader = () => import('../features/rates/pages/RatePage');

/** The device detail page under every device list (same access as the list). */
export const DEVICE_DETAIL: SubPage = {
  pattern: ':pn/:devcode/:devaddr/:sn',
  titleKey: 'devices:detail.title',
  page: () => import('../features/devices/pages/DeviceDetailPage'),
};
/** A plant's page under every project list (same access as the list). */
export const PLANT_PAGE: SubPage = {
  pattern: ':pid',
  titleKey: 'plants:page.title',
  page: () => import('../features/plants/pages/PlantPage'),
};
/** Issue 15: the recharge order result under every rechargePay page (…/rechargePay/result?kind=&orderNo=). */
export const RECHARGE_RESULT: SubPage = {
  pattern: 'result',
  titleKey: 'rechargeCheckout:result.title',
  page: () => import('../features/recharge-checkout/pages/RechargeResultPage'),
};
/** Issue 15: rechargePay is the flow-card list (it opens the checkout dialog), with the order result under it. */
const RECHARGE_PAY: Partial<RouteNode> = { page: rechargePayPage, subPage: RECHARGE_RESULT };
/** Issue 15: the acceleration record and, under it, the purchase page with the terms. */
const ACCELERATION_RECORD: Partial<RouteNode> = {
  page: () => import('../features/acceleration/pages/CollectionFrequencyRecordPage'),
  subPage: {
    pattern: 'buy',
    titleKey: 'acceleration:buy.title',
    page: () => import('../features/acceleration/pages/AccelerationBuyPage'),
  },
};
const DEVICE_LIST: Partial<RouteNode> = {
  page: () => import('../features/devices/pages/DeviceListPage'),
  subPage: DEVICE_DETAIL,
};

export const AREAS: readonly AreaDef[] = [
  {
    id: 'operator',
    base: '/adminNewStatr',
    titleKey: 'menu:areas.operator',
    roles: [15],
    edition: 'new',
    defaultChild: 'home',
    children: [
      item('home', 'Home', {
        layout: 'settings',
        indexTitleKey: 'menu:items.operatorHome',
        page: () => import('../features/operator-home/pages/OperatorHomePage'),
        children: [
          item('account', 'Team', { group: 'accountManagement', page: accountsAdminPage }),
          item('device', 'Hdd', {
            group: 'accountManagement',
            page: () => import('../features/operator-fleet/pages/FleetDevicesPage'),
            subPage: DEVICE_DETAIL,
          }),
          item('datalogger', 'Cluster', { group: 'accountManagement', page: dataloggersPage }),
          item('log', 'FileText', {
            group: 'accountManagement',
            page: () => import('../features/operator-logs/pages/CollectorLogsPage'),
          }),
          item('protocolBinding', 'NodeIndex', {
            group: 'accountManagement',
            page: () => import('../features/protocol-admin/pages/ProtocolBindingPage'),
          }),
          item('typeCode', 'Tags', {
            group: 'accountManagement',
            page: () => import('../features/protocol-admin/pages/TypeCodePage'),
          }),
          item('protocolChange', 'Swap', {
            group: 'accountManagement',
            page: () => import('../features/protocol-admin/pages/ProtocolChangePage'),
          }),
          item('actionLog', 'History', {
            group: 'accountManagement',
            page: () => import('../features/operator-logs/pages/ActionLogPage'),
          }),
          item('factoryAccount', 'Shop', {
            group: 'manufacturerManagement',
            page: () => import('../features/operator-makers/pages/ManufacturersPage'),
          }),
          item('factoryCode', 'Number', {
            group: 'manufacturerManagement',
            page: () => import('../features/operator-codes/pages/ManufacturerCodesPage'),
          }),
          item('domains', 'Global', {
            group: 'manufacturerManagement',
            page: () => import('../features/operator-domains/pages/DomainsPage'),
          }),
          item('KEYList', 'Key', {
            group: 'apiInterface',
            page: () => import('../features/operator-keys/pages/KeyListPage'),
          }),
          item('protocolInstruction', 'Code', {
            group: 'protocolTools',
            page: () => import('../features/protocol-tools/pages/ProtocolInstructionPage'),
          }),
          item('rawDataParsing', 'FileSearch', {
            group: 'protocolTools',
            page: () => import('../features/protocol-tools/pages/RawDataParsingPage'),
          }),
          item('rechargeRemedy', 'Wallet', {
            group: 'rechargeManagement',
            page: () => import('../features/operator-recharge/pages/RechargeRemedyPage'),
          }),
          item('deviceFunction', 'Control', {
            group: 'deviceManagement',
            page: () => import('../features/protocol-tools/pages/DeviceFunctionPage'),
          }),
          item('passwordMaintenance', 'Lock', {
            group: 'deviceManagement',
            page: () => import('../features/operator-domains/pages/PasswordMaintenancePage'),
          }),
        ],
      }),
    ],
  },
  {
    id: 'adminNew',
    base: '/adminNew',
    titleKey: 'menu:areas.adminNew',
    roles: [1, 2, 3],
    edition: 'new',
    otherEdition: 'admin',
    defaultChild: 'home',
    children: [
      item('home', 'Dashboard', { titleKey: t('overview'), access: OVERVIEW, page: overviewPage }),
      item('device', 'Hdd', { access: DEVICES, ...DEVICE_LIST }),
      item('account', 'Team', { access: ACCOUNTS, page: accountsAdminPage }),
      item('alarm', 'Alert', { access: ALARMS, page: alarmsPage }),
      item('project', 'Project', { access: DEVICES, page: projectsPage, subPage: PLANT_PAGE }),
      item('personalBasic', 'User', { page: personalBasicPage }),
      item('setting', 'Setting', {
        access: SETTINGS,
        layout: 'settings',
        defaultChild: 'firmware',
        children: [
          item('firmware', 'CloudServer', { titleKey: t('defaultFirmware'), group: 'personal', page: firmwareManagerPage }),
          item('rate', 'Dollar', { group: 'personal', access: { module: 'device_manag' }, page: ratePage }),
          item('datalogger', 'Cluster', { group: 'recharge', access: DEVICES, page: dataloggersPage }),
          item('rechargePay', 'Wallet', { group: 'recharge', access: DEVICES, ...RECHARGE_PAY }),
          item('rechargeRecord', 'History', { group: 'recharge', page: rechargeRecordPage }),
          item('collectionFrequencyRecord', 'Thunderbolt', { group: 'recharge', ...ACCELERATION_RECORD }),
          item('helpform', 'Appstore', { group: 'auxiliary', access: DEVICES, page: helpformPage }),
          item('UpgFirmware', 'CloudUpload', { group: 'strategy', page: upgFirmwarePage }),
          item('strategy', 'Tool', { group: 'strategy', page: strategyPage }),
          item('upgrade', 'Rocket', { group: 'strategy', access: DEVICES, page: cloudUpgradePage }),
        ],
      }),
    ],
  },
  {
    id: 'admin',
    base: '/admin',
    titleKey: 'menu:areas.admin',
    roles: [1, 2, 3],
    edition: 'old',
    otherEdition: 'adminNew',
    defaultChild: 'home',
    children: [
      item('home', 'Home', { access: OVERVIEW, page: overviewPage }),
      item('account', 'Team', { access: ACCOUNTS, page: accountsAdminPage }),
      item('device', 'Hdd', { access: DEVICES, ...DEVICE_LIST }),
      item('alarm', 'Alert', { access: ALARMS, page: alarmsPage }),
      item('setting', 'Setting', {
        layout: 'settings',
        defaultChild: 'personalBasic',
        children: [
          item('personalBasic', 'User', { page: personalBasicPage }),
          item('rechargePay', 'Wallet', { access: DEVICES, ...RECHARGE_PAY }),
          // Spec §2 lists only `firmware` here: its tabs hold what the new edition spreads over
          // firmware, UpgFirmware, strategy and upgrade (issue 13), with the same access rules.
          item('firmware', 'CloudServer', {
            access: SETTINGS,
            layout: 'tabs',
            indexTitleKey: t('firmwareLibrary'),
            page: () => import('../features/firmware/pages/FirmwareLibraryPage'),
            children: [
              item('UpgFirmware', 'CloudUpload', { page: upgFirmwarePage }),
              item('default', 'CloudServer', {
                titleKey: t('defaultFirmware'),
                page: () => import('../features/firmware/pages/DefaultFirmwarePage'),
              }),
              item('strategy', 'Tool', { page: strategyPage }),
              item('upgrade', 'Rocket', { access: DEVICES, page: cloudUpgradePage }),
            ],
          }),
          item('customize', 'BgColors', { access: SETTINGS, page: () => import('../features/personal/pages/CustomizePage') }),
        ],
      }),
    ],
  },
  {
    id: 'generalNew',
    base: '/generalNew',
    titleKey: 'menu:areas.generalNew',
    roles: [0, 5],
    edition: 'new',
    otherEdition: 'general',
    defaultChild: 'home',
    children: [
      item('home', 'Home', { titleKey: t('myDevices'), page: generalHomePage }),
      item('alarm', 'Alert', { page: alarmsPage }),
      item('deviceno', 'Database', DEVICE_LIST),
      item('generalintro', 'Read', { page: () => import('../features/personal/pages/GuidePage') }),
      item('project', 'Project', { page: projectsPage, subPage: PLANT_PAGE }),
      item('personalBasic', 'User', { page: personalBasicPage }),
      item('setting', 'Setting', {
        layout: 'settings',
        defaultChild: 'datalogger',
        children: [
          item('datalogger', 'Cluster', { group: 'datalogger', access: WRITES, page: dataloggersPage }),
          item('firmware', 'CloudServer', { titleKey: t('defaultFirmware'), group: 'personal', access: WRITES, page: ownerFirmwarePage }),
          item('rate', 'Dollar', { group: 'personal', access: WRITES, page: ratePage }),
          item('helpform', 'Appstore', { group: 'personal', access: WRITES, page: helpformPage }),
          item('browseAccount', 'UsergroupAdd', {
            group: 'personal',
            access: WRITES,
            page: () => import('../features/subaccounts/pages/BrowseAccountPage'),
          }),
          item('alarmform', 'Mail', { group: 'alarmSettings', page: () => import('../features/notifications/pages/AlarmFormPage') }),
          item('rechargePay', 'Wallet', { group: 'recharge', access: WRITES, ...RECHARGE_PAY }),
          item('rechargeRecord', 'History', { group: 'recharge', access: OWNER_ONLY, page: rechargeRecordPage }),
          item('collectionFrequencyRecord', 'Thunderbolt', { group: 'recharge', access: OWNER_ONLY, ...ACCELERATION_RECORD }),
          item('reportexport', 'Export', { group: 'report', page: () => import('../features/reports/pages/ReportExportPage') }),
          item('reportsubscribe', 'Audit', { group: 'report', page: () => import('../features/notifications/pages/ReportSubscribePage') }),
        ],
      }),
    ],
  },
  {
    id: 'general',
    base: '/general',
    titleKey: 'menu:areas.general',
    roles: [0, 5],
    edition: 'old',
    otherEdition: 'generalNew',
    defaultChild: 'home',
    children: [
      // The classic general area has no device page: its home lists the devices too.
      item('home', 'Home', { page: generalHomePage, subPage: DEVICE_DETAIL }),
      item('alarm', 'Alert', { page: alarmsPage }),
      item('setting', 'Setting', {
        layout: 'settings',
        defaultChild: 'personalBasic',
        children: [
          item('personalBasic', 'User', { page: personalBasicPage }),
          item('rechargePay', 'Wallet', { access: WRITES, ...RECHARGE_PAY }),
          item('rate', 'Dollar', { access: WRITES, page: ratePage }),
          item('firmware', 'CloudServer', { access: WRITES, page: ownerFirmwarePage }),
        ],
      }),
    ],
  },
];

/** Routes open to everyone (spec §2). */
export const PUBLIC_PATHS = ['/entry', '/401', '/404'] as const;

export function areaById(id: AreaId): AreaDef {
  return AREAS.find((a) => a.id === id)!;
}

/** Strips a trailing slash (but keeps "/"). */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

/** The area a path belongs to, by its first segment (exact, so /admin ≠ /adminNew). */
export function areaOfPath(pathname: string): AreaDef | undefined {
  const first = normalizePath(pathname).split('/')[1] ?? '';
  return AREAS.find((a) => a.base === `/${first}`);
}

export interface RouteMatch {
  area: AreaDef;
  /** The chain of nodes from the area's child down to the matched node; empty for the area root. */
  chain: RouteNode[];
  /** Set when the path is the sub-page of the last node of the chain. */
  subPage?: { page: SubPage; params: Record<string, string> };
}

/** Matches path segments against a sub-page pattern; the parameters or undefined. */
export function matchSubPage(page: SubPage, segs: readonly string[]): Record<string, string> | undefined {
  const parts = page.pattern.split('/');
  if (parts.length !== segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const seg = segs[i]!;
    if (!seg) return undefined;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(seg);
    else if (part !== seg) return undefined;
  }
  return params;
}

/** Matches a path against the table; undefined for paths it does not know. */
export function matchRoute(pathname: string): RouteMatch | undefined {
  const path = normalizePath(pathname);
  const area = areaOfPath(path);
  if (!area) return undefined;
  const segs = path.split('/').slice(2);
  const chain: RouteNode[] = [];
  let level: RouteNode[] | undefined = area.children;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const node: RouteNode | undefined = level?.find((n) => n.path === seg);
    if (!node) {
      const parent = chain[chain.length - 1];
      const params = parent?.subPage ? matchSubPage(parent.subPage, segs.slice(i)) : undefined;
      return params && parent?.subPage ? { area, chain, subPage: { page: parent.subPage, params } } : undefined;
    }
    chain.push(node);
    level = node.children;
  }
  return { area, chain };
}

/** Where opening `pathname` exactly should go instead (default children), if anywhere. */
export function defaultRedirect(match: RouteMatch, pathname: string): string | undefined {
  const path = normalizePath(pathname);
  const last = match.chain[match.chain.length - 1];
  if (match.subPage) return undefined;
  if (!last) return `${match.area.base}/${match.area.defaultChild}`;
  return last.defaultChild ? `${path}/${last.defaultChild}` : undefined;
}

/** Every full path of the table (areas, pages and nested pages). */
export function allPaths(): string[] {
  const out: string[] = [];
  const walk = (prefix: string, nodes: readonly RouteNode[]) => {
    for (const n of nodes) {
      out.push(`${prefix}/${n.path}`);
      if (n.children) walk(`${prefix}/${n.path}`, n.children);
    }
  };
  for (const a of AREAS) {
    out.push(a.base);
    walk(a.base, a.children);
  }
  return out;
}
