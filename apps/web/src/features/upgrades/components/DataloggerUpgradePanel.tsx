/**
 * The datalogger drawer's "Upgrade" tab (issue 13): an administrator upgrades the datalogger
 * with a firmware of type 0–1, an owner takes what is offered; live progress with cancel and the
 * datalogger's own upgrades (target 0). Rendered by features/dataloggers through
 * app/datalogger-panels.ts.
 */
import { useState } from 'react';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLE } from '@sunwatch/protocol';
import { accessFor } from '../../../app/access';
import type { DataloggerPanelProps } from '../../../app/datalogger-panels';
import { showApiError } from '../../../app/notify';
import { useSession } from '../../../app/use-session';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useUpgradeDatalogger, useUpgradeOffers, type TaskListParams } from '../api/queries';
import { FirmwareFields, type FirmwareChoice } from './FirmwareFields';
import { OfferCell } from './OfferTable';
import { OfferUpgradeButton, reportStart } from './StartButtons';
import { TaskTable } from './TaskTable';

function OwnerOffer({ pn }: { pn: string }) {
  const { t } = useTranslation('upgrades');
  // The owner's dataloggers, this one among them (its devices are on the device tab).
  const q = useUpgradeOffers('', 0, 50);
  const row = q.data?.item.find((r) => r.pn === pn && r.target === 0);
  if (!q.data) return null;
  if (!row?.offer) return <Typography.Text type="secondary">{t('offer.none')}</Typography.Text>;
  return (
    <Flex wrap gap={8} align="center">
      <OfferCell row={row} />
      <OfferUpgradeButton row={row} />
    </Flex>
  );
}

export default function DataloggerUpgradePanel({ pn, version }: DataloggerPanelProps) {
  const { t } = useTranslation('upgrades');
  const session = useSession();
  const access = accessFor(session);
  const canWrite = !access.readOnly && access.hasButton('device_upgrade');
  const confirm = useConfirm();
  const start = useUpgradeDatalogger();
  const [fw, setFw] = useState<FirmwareChoice>({ firmware: '', type: 0 });
  const [page, setPage] = useState({ page: 0, pagesize: 10 });
  const params: TaskListParams = { ...page, pn, target: 0 };
  return (
    <Flex vertical gap={12} data-testid="upg-dl-panel">
      <Typography.Text>
        {t('device.dataloggerVersion')}: <b data-testid="upg-dl-version">{version || '--'}</b>
      </Typography.Text>
      {canWrite && session?.role === ROLE.OWNER ? <OwnerOffer pn={pn} /> : null}
      {canWrite && session?.role !== ROLE.OWNER ? (
        <Flex wrap gap={8} align="end">
          <FirmwareFields value={fw} onChange={setFw} targets="datalogger" />
          <Button
            type="primary"
            disabled={!fw.firmware.trim()}
            loading={start.isPending}
            data-testid="upg-dl-submit"
            onClick={() =>
              confirm({
                title: t('offer.confirmTitle'),
                content: t('device.confirmDatalogger', { pn }),
                okText: t('offer.upgrade'),
                onOk: async () => {
                  try {
                    reportStart(t, await start.mutateAsync({ pn, firmware: fw.firmware.trim() }));
                  } catch (e) {
                    showApiError(e);
                  }
                },
              })
            }
          >
            {t('offer.upgrade')}
          </Button>
        </Flex>
      ) : null}
      <TaskTable
        params={params}
        canWrite={canWrite}
        compact
        testId="upg-dl-history"
        onPage={(p, s) => setPage({ page: p, pagesize: s })}
      />
    </Flex>
  );
}
