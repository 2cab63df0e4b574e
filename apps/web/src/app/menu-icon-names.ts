/**
 * Names of the menu icons the route table refers to. The route table is on every route's path
 * (the guard reads it), so it names icons instead of importing @ant-design/icons; the lazy
 * layouts map each name to its component (`layouts/menu-items.tsx`).
 */
export const MENU_ICON_NAMES = [
  'Alert',
  'Appstore',
  'Audit',
  'BgColors',
  'CloudServer',
  'CloudUpload',
  'Cluster',
  'Code',
  'Control',
  'Dashboard',
  'Database',
  'Dollar',
  'Export',
  'FileSearch',
  'FileText',
  'Global',
  'Hdd',
  'History',
  'Home',
  'Key',
  'Lock',
  'Mail',
  'NodeIndex',
  'Number',
  'Project',
  'Read',
  'Rocket',
  'Setting',
  'Shop',
  'Swap',
  'Tags',
  'Team',
  'Thunderbolt',
  'Tool',
  'UsergroupAdd',
  'User',
  'Wallet',
] as const;

export type MenuIconName = (typeof MENU_ICON_NAMES)[number];
