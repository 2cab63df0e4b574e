import { Button, Dropdown, Select, Space, Typography } from 'antd';
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

export function HeaderBar({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const skin = useSkin();
  const other = area.otherEdition ? areaById(area.otherEdition) : undefined;

  const logout = useSignOut();

  return (
    <Space size="middle" wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
      <Space size={4}>
        <UserOutlined />
        <Typography.Text data-testid="header-user">{session?.usr}</Typography.Text>
      </Space>
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
      {other && (
        <Button icon={<SwapOutlined />} onClick={() => void navigate(editionSwitchFor(window.location.pathname, session) ?? other.base)}>
          {t(other.edition === 'new' ? 'common:header.toNew' : 'common:header.toOld')}
        </Button>
      )}
      <Button icon={<LogoutOutlined />} onClick={() => void logout()}>
        {t('common:actions.logout')}
      </Button>
    </Space>
  );
}
