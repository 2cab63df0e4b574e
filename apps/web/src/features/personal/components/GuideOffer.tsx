import { useState } from 'react';
import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accessFor } from '../../../app/access';
import type { AreaDef } from '../../../app/routes';
import { useSession } from '../../../app/use-session';
import { guideSeen, markGuideSeen, nodePath } from '../nav';

/**
 * The new-user guide offered on an account's first sign-in (in this browser), in the areas that
 * have the guide page: a banner above the page, not a modal, so nothing is blocked. Opening the
 * guide or dismissing the banner is remembered (per account, per browser).
 */
export function GuideOffer({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const usr = session?.usr;
  const [seen, setSeen] = useState(() => !usr || guideSeen(usr));
  const path = nodePath(area, 'generalintro', accessFor(session));
  if (seen || !usr || !path || window.location.pathname === path) return null;
  const close = () => {
    markGuideSeen(usr);
    setSeen(true);
  };
  return (
    <Alert
      type="info"
      showIcon
      closable={{ onClose: close, 'aria-label': t('personal:guide.later') }}
      style={{ marginBottom: 16 }}
      data-testid="guide-offer"
      title={t('personal:guide.welcome')}
      description={t('personal:guide.offer')}
      action={
        <Space orientation="vertical" size={4}>
          <Button
            size="small"
            type="primary"
            data-testid="guide-offer-open"
            onClick={() => {
              close();
              void navigate(path);
            }}
          >
            {t('personal:guide.open')}
          </Button>
          <Button size="small" data-testid="guide-offer-later" onClick={close}>
            {t('personal:guide.later')}
          </Button>
        </Space>
      }
    />
  );
}
