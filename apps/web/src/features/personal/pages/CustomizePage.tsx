import { Card, Flex, Radio, Tag, Typography, theme } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_SKIN, SKINS, setSkin, useSkin, type SkinId } from '../../../app/theme';

/**
 * Custom setting (`setting/customize` of the old admin edition, spec §2 "Custom setting (skin)"):
 * the five skins with a preview of each; the choice applies at once across the app and is
 * remembered in this browser (the same store as the header's skin menu).
 */
export default function CustomizePage() {
  const { t } = useTranslation();
  const skin = useSkin();
  const { token } = theme.useToken();
  return (
    <Card title={t('personal:customize.title')} data-testid="customize-page">
      <Typography.Paragraph type="secondary">{t('personal:customize.intro')}</Typography.Paragraph>
      <Radio.Group
        value={skin}
        onChange={(e) => setSkin(e.target.value as SkinId)}
        aria-label={t('common:header.skin')}
        style={{ width: '100%' }}
      >
        <Flex wrap gap={16}>
          {SKINS.map((s) => (
            <Radio.Button
              key={s.id}
              value={s.id}
              data-testid={`skin-${s.id}`}
              style={{ height: 'auto', padding: 0, borderRadius: token.borderRadiusLG, overflow: 'hidden', width: 150 }}
            >
              <div aria-hidden style={{ height: 56, background: s.color, position: 'relative' }}>
                <div style={{ position: 'absolute', left: 8, right: 8, bottom: 8, height: 16, background: s.bg, borderRadius: 4 }} />
                {skin === s.id && <CheckOutlined style={{ position: 'absolute', top: 8, right: 8, color: '#fff' }} />}
              </div>
              <Flex justify="space-between" align="center" style={{ padding: '4px 8px' }}>
                <span>{t(`common:skins.${s.id}`)}</span>
                {s.id === DEFAULT_SKIN && <Tag style={{ marginInlineEnd: 0 }}>{t('personal:customize.default')}</Tag>}
              </Flex>
            </Radio.Button>
          ))}
        </Flex>
      </Radio.Group>
    </Card>
  );
}
