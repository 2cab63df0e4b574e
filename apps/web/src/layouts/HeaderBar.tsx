import { useState } from 'react';
import { Button, Drawer, Dropdown, Flex, Select, Space, Typography } from 'antd';
import { BgColorsOutlined, GlobalOutlined, LogoutOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOCALES, LOCALE_NAMES, type Locale } from '@sunwatch/protocol';
import { currentLocale, setLanguage } from '../i18n';
import { areaById, type AreaDef } from '../app/routes';
import { SKINS, setSkin, useSkin, type SkinId } from '../app/theme';
import { useSession } from '../app/use-session';
import { useSignOut } from '../app/use-sign-out';
import { editionSwitchFor } from '../app/edition';

/**
 * The header's controls: user, language, skin, edition switch, log out. On a desktop they sit
 * in a row; on a phone (`phone`) one user button opens them stacked in a drawer, so nothing
 * wraps below the header or floats over the page.
 */
export function HeaderBar({ area, phone = false }: { area: AreaDef; phone?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const skin = useSkin();
  const other = area.otherEdition ? areaById(area.otherEdition) : undefined;
  const [menuOpen, setMenuOpen] = useState(false);

  const logout = useSignOut();

  const user = (
    <Space size={4}>
      <UserOutlined />
      <Typography.Text data-testid="header-user">{session?.usr}</Typography.Text>
    </Space>
  );
  const language = (
    <Select<Locale>
      aria-label={t('common:header.language')}
      data-testid="header-language"
      value={currentLocale()}
      suffixIcon={<GlobalOutlined />}
      style={{ minWidth: 150 }}
      popupMatchSelectWidth={false}
      options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
      onChange={(l) => setLanguage(l)}
    />
  );
  const skinMenu = (
    <Dropdown
      menu={{
        selectable: true,
        selectedKeys: [skin],
        items: SKINS.map((s) => ({
          key: s.id,
          label: (
            <Space>
              <span style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: s.color }} />
              {t(`common:skins.${s.id}`)}
            </Space>
          ),
        })),
        onClick: ({ key }) => setSkin(key as SkinId),
      }}
    >
      <Button icon={<BgColorsOutlined />}>{t('common:header.skin')}</Button>
    </Dropdown>
  );
  const edition = other && (
    <Button icon={<SwapOutlined />} onClick={() => void navigate(editionSwitchFor(window.location.pathname, session) ?? other.base)}>
      {t(other.edition === 'new' ? 'common:header.toNew' : 'common:header.toOld')}
    </Button>
  );
  const logoutButton = (
    <Button icon={<LogoutOutlined />} data-testid="header-logout" onClick={() => void logout()}>
      {t('common:actions.logout')}
    </Button>
  );

  if (!phone) {
    return (
      <Space size="middle" wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
        {user}
        {language}
        {skinMenu}
        {edition}
        {logoutButton}
      </Space>
    );
  }
  return (
    <>
      <Button
        type="text"
        shape="circle"
        icon={<UserOutlined />}
        aria-label={t('common:shell.accountMenu')}
        aria-expanded={menuOpen}
        data-testid="header-menu-button"
        onClick={() => setMenuOpen(true)}
      />
      <Drawer
        placement="right"
        size={300}
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        title={t('common:shell.accountMenu')}
        rootClassName="sw-header-drawer"
      >
        <Flex vertical gap={16} data-testid="header-menu">
          {user}
          {language}
          {skinMenu}
          {edition}
          {logoutButton}
        </Flex>
      </Drawer>
    </>
  );
}
