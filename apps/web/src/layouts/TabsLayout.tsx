import { createElement, useMemo } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { accessFor } from '../app/access';
import type { RouteNode } from '../app/routes';
import { useSession } from '../app/use-session';
import { MENU_ICONS, selectedKey } from './menu-items';

/**
 * A `layout: 'tabs'` node of the route table (the classic admin area's firmware page): a tab bar
 * of the node's own page (the first tab, titled `indexTitleKey`) and of its children the account
 * may open, over the selected tab's page. Each tab is an address of its own (deep links, the
 * browser's back button, the guard's access rules); antd folds the tabs that do not fit a phone
 * into a "more" menu.
 */
export function TabsLayout({ node, basePath }: { node: RouteNode; basePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const items = useMemo(() => {
    const access = accessFor(session);
    const tab = (key: string, n: RouteNode, titleKey: string) => ({
      key,
      icon: n.icon ? createElement(MENU_ICONS[n.icon]) : undefined,
      label: <span data-testid={`route-tab-${n === node ? 'index' : n.path}`}>{t(titleKey)}</span>,
    });
    return [
      tab(basePath, node, node.indexTitleKey ?? node.titleKey),
      ...(node.children ?? []).filter((c) => access.canSee(c)).map((c) => tab(`${basePath}/${c.path}`, c, c.titleKey)),
    ];
  }, [node, basePath, session, t]);
  const active = selectedKey(
    pathname,
    items.map((i) => i.key),
  )[0];

  return (
    <div style={{ minWidth: 0 }} data-testid="route-tabs">
      <Tabs
        activeKey={active ?? basePath}
        items={items}
        onChange={(key) => void navigate(key)}
        style={{ marginBottom: 8 }}
      />
      <Outlet />
    </div>
  );
}
