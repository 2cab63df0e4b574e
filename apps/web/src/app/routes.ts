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
 *   is open to every role of the area. Other roles of an area see everything in it.
 */
import type { ComponentType } from 'react';
import {
  AlertOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BgColorsOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  CodeOutlined,
  ControlOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  ExportOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  HddOutlined,
  HistoryOutlined,
  HomeOutlined,
  KeyOutlined,
  LockOutlined,
  MailOutlined,
  NodeIndexOutlined,
  NumberOutlined,
  ProjectOutlined,
  ReadOutlined,
  RocketOutlined,
  SettingOutlined,
  ShopOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UsergroupAddOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { PermissionModule, Role } from '@sunwatch/protocol';

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

/** Access rule of a node, on top of its area's roles. */
export interface AccessRule {
  /** Role-2 sub-administrators need this module permission. */
  module?: PermissionModule;
}

/** Pages that exist as real features; every other page renders "not available yet". */
export type FeatureId = 'personalBasic' | 'overview' | 'deviceList' | 'deviceDetail' | 'projects';

/**
 * A page under a node reached by parameters (the device detail under a device list). It is
 * not a menu entry and not one of the spec's paths; it has its parent's access.
 */
export interface SubPage {
  /** Relative pattern, `:name` segments match any one segment. */
  pattern: string;
  titleKey: string;
  feature: FeatureId;
}

export interface RouteNode {
  path: string;
  /** i18n key of the menu and page title. */
  titleKey: string;
  icon?: ComponentType;
  group?: MenuGroup;
  access?: AccessRule;
  feature?: FeatureId;
  /** Parameterised page under this node (not in the menu). */
  subPage?: SubPage;
  layout?: 'settings';
  /** Segment of the child opened when the node itself is opened. */
  defaultChild?: string;
  /** The index page of a settings layout without default child. */
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
const page = (path: string, icon: ComponentType, extra: Partial<RouteNode> = {}): RouteNode => ({
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

/** The device detail page under every device list (same access as the list). */
const DEVICE_DETAIL: SubPage = {
  pattern: ':pn/:devcode/:devaddr/:sn',
  titleKey: 'devices:detail.title',
  feature: 'deviceDetail',
};
const DEVICE_LIST: Partial<RouteNode> = { feature: 'deviceList', subPage: DEVICE_DETAIL };

export const AREAS: readonly AreaDef[] = [
  {
    id: 'operator',
    base: '/adminNewStatr',
    titleKey: 'menu:areas.operator',
    roles: [15],
    edition: 'new',
    defaultChild: 'home',
    children: [
      page('home', HomeOutlined, {
        layout: 'settings',
        indexTitleKey: 'menu:items.operatorHome',
        children: [
          page('account', TeamOutlined, { group: 'accountManagement' }),
          page('device', HddOutlined, { group: 'accountManagement' }),
          page('datalogger', ClusterOutlined, { group: 'accountManagement' }),
          page('log', FileTextOutlined, { group: 'accountManagement' }),
          page('protocolBinding', NodeIndexOutlined, { group: 'accountManagement' }),
          page('typeCode', TagsOutlined, { group: 'accountManagement' }),
          page('protocolChange', SwapOutlined, { group: 'accountManagement' }),
          page('actionLog', HistoryOutlined, { group: 'accountManagement' }),
          page('factoryAccount', ShopOutlined, { group: 'manufacturerManagement' }),
          page('factoryCode', NumberOutlined, { group: 'manufacturerManagement' }),
          page('KEYList', KeyOutlined, { group: 'apiInterface' }),
          page('protocolInstruction', CodeOutlined, { group: 'protocolTools' }),
          page('rawDataParsing', FileSearchOutlined, { group: 'protocolTools' }),
          page('rechargeRemedy', WalletOutlined, { group: 'rechargeManagement' }),
          page('deviceFunction', ControlOutlined, { group: 'deviceManagement' }),
          page('passwordMaintenance', LockOutlined, { group: 'deviceManagement' }),
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
      page('home', DashboardOutlined, { titleKey: t('overview'), access: OVERVIEW, feature: 'overview' }),
      page('device', HddOutlined, { access: DEVICES, ...DEVICE_LIST }),
      page('account', TeamOutlined, { access: ACCOUNTS }),
      page('alarm', AlertOutlined, { access: ALARMS }),
      page('project', ProjectOutlined, { access: DEVICES, feature: 'projects' }),
      page('personalBasic', UserOutlined, { feature: 'personalBasic' }),
      page('setting', SettingOutlined, {
        access: SETTINGS,
        layout: 'settings',
        defaultChild: 'firmware',
        children: [
          page('firmware', CloudServerOutlined, { titleKey: t('defaultFirmware'), group: 'personal' }),
          page('rate', DollarOutlined, { group: 'personal' }),
          page('datalogger', ClusterOutlined, { group: 'recharge' }),
          page('rechargePay', WalletOutlined, { group: 'recharge' }),
          page('rechargeRecord', HistoryOutlined, { group: 'recharge' }),
          page('collectionFrequencyRecord', ThunderboltOutlined, { group: 'recharge' }),
          page('helpform', AppstoreOutlined, { group: 'auxiliary' }),
          page('UpgFirmware', CloudUploadOutlined, { group: 'strategy' }),
          page('strategy', ToolOutlined, { group: 'strategy' }),
          page('upgrade', RocketOutlined, { group: 'strategy' }),
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
      page('home', HomeOutlined, { access: OVERVIEW, feature: 'overview' }),
      page('account', TeamOutlined, { access: ACCOUNTS }),
      page('device', HddOutlined, { access: DEVICES, ...DEVICE_LIST }),
      page('alarm', AlertOutlined, { access: ALARMS }),
      page('setting', SettingOutlined, {
        layout: 'settings',
        defaultChild: 'personalBasic',
        children: [
          page('personalBasic', UserOutlined, { feature: 'personalBasic' }),
          page('rechargePay', WalletOutlined, { access: SETTINGS }),
          page('firmware', CloudServerOutlined, { access: SETTINGS }),
          page('customize', BgColorsOutlined, { access: SETTINGS }),
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
      page('home', HomeOutlined, { titleKey: t('myDevices'), feature: 'overview' }),
      page('alarm', AlertOutlined),
      page('deviceno', DatabaseOutlined, DEVICE_LIST),
      page('generalintro', ReadOutlined),
      page('project', ProjectOutlined, { feature: 'projects' }),
      page('personalBasic', UserOutlined, { feature: 'personalBasic' }),
      page('setting', SettingOutlined, {
        layout: 'settings',
        defaultChild: 'datalogger',
        children: [
          page('datalogger', ClusterOutlined, { group: 'datalogger' }),
          page('firmware', CloudServerOutlined, { titleKey: t('defaultFirmware'), group: 'personal' }),
          page('rate', DollarOutlined, { group: 'personal' }),
          page('helpform', AppstoreOutlined, { group: 'personal' }),
          page('browseAccount', UsergroupAddOutlined, { group: 'personal' }),
          page('alarmform', MailOutlined, { group: 'alarmSettings' }),
          page('rechargePay', WalletOutlined, { group: 'recharge' }),
          page('rechargeRecord', HistoryOutlined, { group: 'recharge' }),
          page('collectionFrequencyRecord', ThunderboltOutlined, { group: 'recharge' }),
          page('reportexport', ExportOutlined, { group: 'report' }),
          page('reportsubscribe', AuditOutlined, { group: 'report' }),
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
      page('home', HomeOutlined, { feature: 'overview', subPage: DEVICE_DETAIL }),
      page('alarm', AlertOutlined),
      page('setting', SettingOutlined, {
        layout: 'settings',
        defaultChild: 'personalBasic',
        children: [
          page('personalBasic', UserOutlined, { feature: 'personalBasic' }),
          page('rechargePay', WalletOutlined),
          page('rate', DollarOutlined),
          page('firmware', CloudServerOutlined),
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
