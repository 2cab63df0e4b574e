import { useEffect, useState } from 'react';
import { Button, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { areaOfPath } from '../../../app/routes';
import { useSession } from '../../../app/use-session';
import { GuideSteps } from '../components/GuideSteps';
import { guideNodes, markGuideSeen } from '../nav';
import { accessFor } from '../../../app/access';

/** The new-user guide (`generalintro`): a walk through the area's pages; opening it counts as seen. */
export default function GuidePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const area = areaOfPath(pathname);
  const [step, setStep] = useState(0);

  useEffect(() => {
    if (session?.usr) markGuideSeen(session.usr);
  }, [session?.usr]);

  if (!area) return null;
  const nodes = guideNodes(area, accessFor(session));
  const last = nodes.length; // the header step
  return (
    <Card title={t('personal:guide.title')} data-testid="guide-page">
      <GuideSteps area={area} current={step} onChange={setStep} />
      <Space wrap style={{ marginTop: 16 }}>
        <Button disabled={step === 0} onClick={() => setStep((s) => Math.max(0, s - 1))}>
          {t('personal:guide.prev')}
        </Button>
        {step < last ? (
          <Button type="primary" onClick={() => setStep((s) => s + 1)} data-testid="guide-next">
            {t('personal:guide.next')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => void navigate(area.base)} data-testid="guide-done">
            {t('personal:guide.done')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
