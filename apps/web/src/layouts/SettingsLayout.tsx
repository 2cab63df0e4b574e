import { useMemo } from 'react';
import { Layout, Menu, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { accessFor } from '../app/access';
import type { RouteNode } from '../app/routes';
import { useSession } from '../app/use-session';
import { selectedKey, settingsMenuItems } from './menu-items';

/** Nested settings layout: a left menu of the node's children by menu group (spec §2). */
export function SettingsLayout({ node, basePath }: { node: RouteNode; basePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const { token } = theme.useToken();
  const items = useMemo(
    () => settingsMenuItems(node.children ?? [], basePath, accessFor(session), t),
    [node, basePath, session, t],
  );
  const keys = (node.children ?? []).map((c) => `${basePath}/${c.path}`);

  return (
    <Layout style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG }}>
      <Layout.Sider width={260} theme="light" style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={selectedKey(pathname, keys)}
          onClick={({ key }) => void navigate(key)}
          style={{ borderInlineEnd: 0 }}
        />
      </Layout.Sider>
      <Layout.Content style={{ padding: 16, minHeight: 400 }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
