import { useMemo, useState } from 'react';
import { Button, Drawer, Layout, Menu, Typography, theme } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { accessFor } from '../app/access';
import { useSessionWatch } from '../app/session-watch';
import type { AreaDef } from '../app/routes';
import { useSession } from '../app/use-session';
import { HeaderBar } from './HeaderBar';
import { ReadOnlyNotice } from './ReadOnlyNotice';
import { DemoBanner } from './DemoBanner';
import { GuideOffer } from '../features/personal/components/GuideOffer';
import { areaMenuItems, selectedKey } from './menu-items';
import { useIsPhone } from '../components/responsive';

/**
 * One layout for every area and edition: menu from the route table, header, page.
 * Desktop and tablet: a collapsible sider. Phone (≤ 767 px): no sider; a menu button in the
 * header opens the same menu in a drawer, and the header's controls fold into one menu.
 */
export function AreaLayout({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  // a disabled or signed-out account leaves within one poll, even on an idle page
  useSessionWatch();
  const phone = useIsPhone();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { token } = theme.useToken();
  const items = useMemo(() => areaMenuItems(area.children, area.base, accessFor(session), t), [area, session, t]);
  const keys = items.map((i) => String(i?.key));

  const menu = (
    <Menu
      data-testid="area-menu"
      mode="inline"
      style={{ borderInlineEnd: 'none' }}
      items={items}
      selectedKeys={selectedKey(pathname, keys)}
      onClick={({ key }) => {
        setDrawerOpen(false);
        void navigate(key);
      }}
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!phone && (
        /* The sider draws the column's border over the full height (not the menu, which ends with its items). */
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
          theme="light"
          data-testid="area-sider"
          className="sw-area-sider"
          style={{ borderInlineEnd: `1px solid ${token.colorSplit}` }}
        >
          <div style={{ padding: '16px', textAlign: 'center' }}>
            <Typography.Text strong style={{ color: token.colorPrimary }}>
              {collapsed ? 'SW' : t('common:appName')}
            </Typography.Text>
          </div>
          {menu}
        </Layout.Sider>
      )}
      {phone && (
        <Drawer
          placement="left"
          size={280}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={<Typography.Text style={{ color: token.colorPrimary }}>{t('common:appName')}</Typography.Text>}
          rootClassName="sw-area-drawer"
          data-testid="area-drawer"
          styles={{ body: { padding: 0 } }}
        >
          {menu}
        </Drawer>
      )}
      {/* min-width 0: a wide child (table, chart) scrolls inside itself instead of widening the page */}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          className="sw-area-header"
          style={{
            background: token.colorBgContainer,
            display: 'flex',
            alignItems: 'center',
            gap: phone ? 8 : 16,
            paddingInline: phone ? 8 : 24,
            ...(phone ? { position: 'sticky', top: 0, zIndex: 10, borderBottom: `1px solid ${token.colorSplit}` } : {}),
          }}
        >
          {phone && (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('common:shell.openMenu')}
              aria-expanded={drawerOpen}
              data-testid="area-menu-button"
              onClick={() => setDrawerOpen(true)}
            />
          )}
          <Typography.Text
            strong
            style={{ whiteSpace: 'nowrap', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', flex: phone ? '1 1 auto' : 'none' }}
          >
            {t(area.titleKey)}
          </Typography.Text>
          <HeaderBar area={area} phone={phone} />
        </Layout.Header>
        <Layout.Content style={{ margin: phone ? 8 : 24, minWidth: 0 }}>
          <DemoBanner />
          <ReadOnlyNotice />
          <GuideOffer area={area} />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
