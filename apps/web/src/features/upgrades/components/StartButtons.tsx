/**
 * Starting one upgrade (a datalogger or one device) and telling the answer in the user's words
 * (spec §8 "Other messages": started, failed to start, offline, already upgrading).
 */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UpgradeableRow, UpgradeStartDat } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useUpgradeDatalogger, useUpgradeDevice } from '../api/queries';
import { isRunning, retKey } from '../model/status';

/** Shows the answer of a start request; true when accepted. */
export function reportStart(t: (k: string) => string, r: UpgradeStartDat): boolean {
  const key = retKey(r.ret);
  if (key === 'accepted') void notice().success(t('ret.accepted'));
  else if (key === 'alreadyUpgrading') void notice().warning(t('ret.alreadyUpgrading'));
  else void notice().error(t(`ret.${key}`));
  return key === 'accepted';
}

/** The "Upgrade" of an offer (owners' firmware page, the device tab): the offered firmware, confirmed. */
export function OfferUpgradeButton({ row, disabled }: { row: UpgradeableRow; disabled?: boolean }) {
  const { t } = useTranslation('upgrades');
  const confirm = useConfirm();
  const dl = useUpgradeDatalogger();
  const dev = useUpgradeDevice();
  const offer = row.offer;
  if (!offer) return null;
  const running = !!row.task && isRunning(row.task.status);
  const id = row.target === 1 ? `${row.pn}-${row.sn}` : row.pn;
  return (
    <Button
      type="primary"
      size="small"
      disabled={disabled || running}
      loading={dl.isPending || dev.isPending}
      data-testid={`upg-offer-${id}`}
      onClick={() =>
        confirm({
          title: t('offer.confirmTitle'),
          content: t('offer.confirm', {
            name: row.alias || row.sn || row.pn,
            from: row.version || '--',
            to: offer.firmware.version,
          }),
          okText: t('offer.upgrade'),
          onOk: async () => {
            try {
              const f = offer.firmware;
              const r =
                row.target === 1
                  ? await dev.mutateAsync({
                      pn: row.pn,
                      devcode: row.devcode ?? 0,
                      devaddr: row.devaddr ?? 0,
                      sn: row.sn,
                      firmware: f.code,
                      type: f.type,
                      ...(f.baudRate ? { baudRate: f.baudRate } : {}),
                    })
                  : await dl.mutateAsync({ pn: row.pn, firmware: f.code });
              reportStart(t, r);
            } catch (e) {
              showApiError(e);
            }
          },
        })
      }
    >
      {t('offer.upgrade')}
    </Button>
  );
}
