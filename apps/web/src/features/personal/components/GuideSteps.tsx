import { createElement } from 'react';
import { Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { accessFor } from '../../../app/access';
import type { AreaDef } from '../../../app/routes';
import { useSession } from '../../../app/use-session';
import { MENU_ICONS } from '../../../layouts/menu-items';
import { guideNodes } from '../nav';

/**
 * The new-user guide's content: the pages of the area the account may open, in menu order, each
 * with what it is for, and how the header's controls work. Used by the generalintro page and
 * the operating-manual dialog of the header menu.
 */
export function GuideSteps({ area, current, onChange }: { area: AreaDef; current?: number; onChange?: (n: number) => void }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const nodes = guideNodes(area, accessFor(session));
  const items = [
    ...nodes.map((n) => ({
      key: n.path,
      title: t(n.titleKey),
      icon: n.icon ? createElement(MENU_ICONS[n.icon]) : undefined,
      description: i18n.exists(`personal:guide.pages.${n.path}`) ? t(`personal:guide.pages.${n.path}`) : undefined,
    })),
    { key: 'header', title: t('personal:guide.headerTitle'), icon: undefined, description: t('personal:guide.header') },
  ];
  return (
    <div data-testid="guide-steps">
      <Typography.Paragraph>{t('personal:guide.intro')}</Typography.Paragraph>
      <Steps direction="vertical" current={current} onChange={onChange} items={items} />
    </div>
  );
}
