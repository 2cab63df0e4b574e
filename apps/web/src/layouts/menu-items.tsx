import { createElement, type ComponentType } from 'react';
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
  GlobalOutlined,
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
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import type { Access } from '../app/access';
import type { RouteNode } from '../app/routes';
import type { MenuIconName } from '../app/menu-icon-names';

/** The component of every menu icon name of the route table. */
export const MENU_ICONS: Record<MenuIconName, ComponentType> = {
  Alert: AlertOutlined,
  Appstore: AppstoreOutlined,
  Audit: AuditOutlined,
  BgColors: BgColorsOutlined,
  CloudServer: CloudServerOutlined,
  CloudUpload: CloudUploadOutlined,
  Cluster: ClusterOutlined,
  Code: CodeOutlined,
  Control: ControlOutlined,
  Dashboard: DashboardOutlined,
  Database: DatabaseOutlined,
  Dollar: DollarOutlined,
  Export: ExportOutlined,
  FileSearch: FileSearchOutlined,
  FileText: FileTextOutlined,
  Global: GlobalOutlined,
  Hdd: HddOutlined,
  History: HistoryOutlined,
  Home: HomeOutlined,
  Key: KeyOutlined,
  Lock: LockOutlined,
  Mail: MailOutlined,
  NodeIndex: NodeIndexOutlined,
  Number: NumberOutlined,
  Project: ProjectOutlined,
  Read: ReadOutlined,
  Rocket: RocketOutlined,
  Setting: SettingOutlined,
  Shop: ShopOutlined,
  Swap: SwapOutlined,
  Tags: TagsOutlined,
  Team: TeamOutlined,
  Thunderbolt: ThunderboltOutlined,
  Tool: ToolOutlined,
  UsergroupAdd: UsergroupAddOutlined,
  User: UserOutlined,
  Wallet: WalletOutlined,
};

type Item = Required<MenuProps>['items'][number];

function leaf(node: RouteNode, basePath: string, t: TFunction): Item {
  return {
    key: `${basePath}/${node.path}`,
    icon: node.icon ? createElement(MENU_ICONS[node.icon]) : undefined,
    label: t(node.titleKey),
  };
}

/** Sider items of an area: its top-level pages the account may open. */
export function areaMenuItems(nodes: readonly RouteNode[], basePath: string, access: Access, t: TFunction): Item[] {
  return nodes.filter((n) => access.canSee(n)).map((n) => leaf(n, basePath, t));
}

/** Settings-layout items: children grouped by their menu group, in table order. */
export function settingsMenuItems(nodes: readonly RouteNode[], basePath: string, access: Access, t: TFunction): Item[] {
  const out: Item[] = [];
  const groups = new Map<string, Item[]>();
  for (const n of nodes.filter((x) => access.canSee(x))) {
    if (!n.group) {
      out.push(leaf(n, basePath, t));
      continue;
    }
    let list = groups.get(n.group);
    if (!list) {
      list = [];
      groups.set(n.group, list);
      out.push({ type: 'group', key: `group:${n.group}`, label: t(`menu:groups.${n.group}`), children: list });
    }
    list.push(leaf(n, basePath, t));
  }
  return out;
}

/** The menu key selected for a location: the longest item key that prefixes the path. */
export function selectedKey(pathname: string, keys: readonly string[]): string[] {
  const hit = keys.filter((k) => pathname === k || pathname.startsWith(`${k}/`)).sort((a, b) => b.length - a.length)[0];
  return hit ? [hit] : [];
}
