import { useMemo, useState } from 'react';
import { Layout, Menu, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { accessFor } from '../app/access';
import type { AreaDef } from '../app/routes';
import { useSession } from '../app/use-session';
import { HeaderBar } from './HeaderBar';
import { ReadOnlyNotice } from './ReadOnlyNotice';
import { areaMenuItems, selectedKey } from './menu-items';

/** One layout for every area and edition: sider menu from the route table, header, page. */
export function AreaLayout({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSession();
  const [collapsed, setCollapsed] = useState(false);
  const { token } = theme.useToken();
  const items = useMemo(() => areaMenuItems(area.children, area.base, accessFor(session), t), [area, session, t]);
  const keys = items.map((i) => String(i?.key));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* The sider draws the column's border over the full height (not the menu, which ends with its items). */}
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
        <Menu
          data-testid="area-menu"
          mode="inline"
          style={{ borderInlineEnd: 'none' }}
          items={items}
          selectedKeys={selectedKey(pathname, keys)}
          onClick={({ key }) => void navigate(key)}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            display: 'flex',
            alignItems: 'center',
            gap: 16,
            paddingInline: 24,
          }}
        >
          <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
            {t(area.titleKey)}
          </Typography.Text>
          <HeaderBar area={area} />
        </Layout.Header>
        <Layout.Content style={{ margin: 24 }}>
          <ReadOnlyNotice />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
