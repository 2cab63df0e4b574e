import { lazy, Suspense, useState } from 'react';
import { Avatar, Button, Drawer, Dropdown, Flex, Select, Space, Typography } from 'antd';
import {
  BgColorsOutlined,
  BookOutlined,
  CompassOutlined,
  DownOutlined,
  GlobalOutlined,
  IdcardOutlined,
  LogoutOutlined,
  MailOutlined,
  MobileOutlined,
  ShopOutlined,
  SkinOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { avatarThumb } from '@sunwatch/protocol';
import { accessFor } from '../app/access';
import { useAccountInfoQuery } from '../features/account/api/account-info-query';
import { userMenuEntries, type UserMenuEntry } from '../features/personal/components/user-menu';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOCALES, LOCALE_NAMES, type Locale } from '@sunwatch/protocol';
import { currentLocale, setLanguage } from '../i18n';
import { areaById, type AreaDef } from '../app/routes';
import { SKINS, setSkin, useSkin, type SkinId } from '../app/theme';
import { useSession } from '../app/use-session';
import { useSignOut } from '../app/use-sign-out';
import { editionSwitchFor } from '../app/edition';
import { fileUrl } from '../app/node-url';

/** The operating manual: loaded when opened. */
const ManualDialog = lazy(() => import('../features/personal/components/ManualDialog'));

/** The mall link of the header menu (a build-time setting; no entry without it). */
const MALL_URL = (import.meta.env.VITE_MALL_URL as string | undefined) || undefined;

const ENTRY_ICONS: Record<UserMenuEntry['key'], typeof UserOutlined> = {
  personal: IdcardOutlined,
  bindEmail: MailOutlined,
  bindPhone: MobileOutlined,
  customize: SkinOutlined,
  guide: CompassOutlined,
  manual: BookOutlined,
  mall: ShopOutlined,
};

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
  const info = useAccountInfoQuery();
  const [manualOpen, setManualOpen] = useState(false);
  const entries = userMenuEntries(area, accessFor(session), MALL_URL);
  const open = (e: UserMenuEntry) => {
    setMenuOpen(false);
    if (e.key === 'manual') setManualOpen(true);
    else if (e.key === 'mall') window.open(e.href, '_blank', 'noopener,noreferrer');
    else void navigate(e.to);
  };
  const label = (e: UserMenuEntry) => t(`personal:menu.${e.key}`);

  const who = (
    <Space size={6}>
      <Avatar size="small" src={fileUrl(avatarThumb(info.data?.photo))} icon={<UserOutlined />} data-testid="header-avatar" />
      <Typography.Text data-testid="header-user">{session?.usr}</Typography.Text>
    </Space>
  );
  const user = phone ? (
    who
  ) : (
    <Dropdown
      trigger={['click']}
      menu={{
        items: entries.map((e) => {
          const Icon = ENTRY_ICONS[e.key];
          return { key: e.key, icon: <Icon />, label: label(e), 'data-testid': `user-menu-${e.key}` };
        }),
        onClick: ({ key }) => {
          const e = entries.find((x) => x.key === key);
          if (e) open(e);
        },
      }}
    >
      <Button type="text" data-testid="header-user-menu" aria-label={t('common:shell.accountMenu')}>
        {who}
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
  const phoneEntries = (
    <Flex vertical gap={4}>
      {entries.map((e) => {
        const Icon = ENTRY_ICONS[e.key];
        return (
          <Button key={e.key} type="text" icon={<Icon />} style={{ justifyContent: 'flex-start' }} data-testid={`user-menu-${e.key}`} onClick={() => open(e)}>
            {label(e)}
          </Button>
        );
      })}
    </Flex>
  );
  const manual = manualOpen && (
    <Suspense fallback={null}>
      <ManualDialog area={area} open={manualOpen} onClose={() => setManualOpen(false)} />
    </Suspense>
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
      <Button icon={<BgColorsOutlined />} data-testid="header-skin">
        {t('common:header.skin')}
      </Button>
    </Dropdown>
  );
  const edition = other && (
    <Button icon={<SwapOutlined />} data-testid="header-edition" onClick={() => void navigate(editionSwitchFor(window.location.pathname, session) ?? other.base)}>
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
        {manual}
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
          {phoneEntries}
          {language}
          {skinMenu}
          {edition}
          {logoutButton}
        </Flex>
      </Drawer>
      {manual}
    </>
  );
}
