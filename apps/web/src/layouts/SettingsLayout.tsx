import { useMemo, useState } from 'react';
import { Button, Drawer, Layout, Menu, theme } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { accessFor } from '../app/access';
import type { RouteNode } from '../app/routes';
import { useSession } from '../app/use-session';
import { selectedKey, settingsMenuItems } from './menu-items';
import { useIsPhone } from '../components/responsive';

/**
 * Nested settings layout: a left menu of the node's children by menu group (spec §2).
 * On a phone the menu moves into a drawer opened from a button naming the current page.
 */
export function SettingsLayout({ node, basePath }: { node: RouteNode; basePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const phone = useIsPhone();
  const [open, setOpen] = useState(false);
  const { token } = theme.useToken();
  const items = useMemo(
    () => settingsMenuItems(node.children ?? [], basePath, accessFor(session), t),
    [node, basePath, session, t],
  );
  const keys = (node.children ?? []).map((c) => `${basePath}/${c.path}`);
  const selected = selectedKey(pathname, keys);
  const current = (node.children ?? []).find((c) => selected[0] === `${basePath}/${c.path}`);

  const menu = (
    <Menu
      mode="inline"
      data-testid="settings-menu"
      items={items}
      selectedKeys={selected}
      onClick={({ key }) => {
        setOpen(false);
        void navigate(key);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );

  // One tree for both widths, the page (Outlet) in the same place: a switch between phone and
  // desktop (a tablet turned, a window resized, a browser's full-page capture) must not re-mount
  // the page and lose what the user typed (docs/decisions.md, s28-cleanup).
  return (
    <Layout style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, minWidth: 0 }}>
      {phone ? (
        <div style={{ padding: '8px 8px 0' }}>
          <Button icon={<MenuOutlined />} data-testid="settings-menu-button" aria-expanded={open} onClick={() => setOpen(true)}>
            {t(current?.titleKey ?? node.indexTitleKey ?? node.titleKey)}
          </Button>
          <Drawer
            placement="left"
            size={280}
            open={open}
            onClose={() => setOpen(false)}
            title={t(node.titleKey)}
            rootClassName="sw-settings-drawer"
            styles={{ body: { padding: 0 } }}
          >
            {menu}
          </Drawer>
        </div>
      ) : (
        <Layout.Sider width={260} theme="light" style={{ borderInlineEnd: `1px solid ${token.colorBorderSecondary}` }}>
          {menu}
        </Layout.Sider>
      )}
      <Layout.Content style={{ padding: phone ? 8 : 16, minHeight: 400, minWidth: 0 }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
