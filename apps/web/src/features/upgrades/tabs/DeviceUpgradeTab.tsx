/**
 * The device detail's "upgrade" tab (spec §2 Device screens: "upgrade (batch and cloud)"): the
 * firmware the device and its datalogger run; an administrator upgrades the device (firmware,
 * type, baud rate) or its datalogger, an owner takes what is offered to her
 * (queryUpgradeableFirmware); live progress with cancel; the device's upgrade history.
 */
import { useState } from 'react';
import { Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROLE } from '@sunwatch/protocol';
import { accessFor } from '../../../app/access';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { showApiError } from '../../../app/notify';
import { useSession } from '../../../app/use-session';
import { useConfirm } from '../../shared/dialog/use-confirm';
import {
  useDataloggerDetail,
  useUpgradeDatalogger,
  useUpgradeDevice,
  useUpgradeOffers,
  type TaskListParams,
} from '../api/queries';
import { FirmwareFields, type FirmwareChoice } from '../components/FirmwareFields';
import { OfferCell, TaskCell } from '../components/OfferTable';
import { OfferUpgradeButton, reportStart } from '../components/StartButtons';
import { TaskTable } from '../components/TaskTable';
import { isDeviceFirmware } from '../model/status';
import { OFFER_PAGE, deviceOfferRow } from './upgrade-tab-rule';

function AdminUpgrade({ device }: DeviceTabProps) {
  const { t } = useTranslation('upgrades');
  const confirm = useConfirm();
  const dev = useUpgradeDevice();
  const dl = useUpgradeDatalogger();
  const [devFw, setDevFw] = useState<FirmwareChoice>({ firmware: '', type: 2 });
  const [dlFw, setDlFw] = useState<FirmwareChoice>({ firmware: '', type: 0 });
  const devReady = !!devFw.firmware.trim() && isDeviceFirmware(devFw.type) && !!devFw.baudRate;
  const go = (what: 'device' | 'datalogger') =>
    confirm({
      title: t('offer.confirmTitle'),
      content:
        what === 'device'
          ? t('device.confirmDevice', { sn: device.sn })
          : t('device.confirmDatalogger', { pn: device.pn }),
      okText: t('offer.upgrade'),
      onOk: async () => {
        try {
          const r =
            what === 'device'
              ? await dev.mutateAsync({
                  pn: device.pn,
                  devcode: Number(device.devcode),
                  devaddr: Number(device.devaddr),
                  sn: device.sn,
                  firmware: devFw.firmware.trim(),
                  type: devFw.type,
                  baudRate: devFw.baudRate,
                })
              : await dl.mutateAsync({ pn: device.pn, firmware: dlFw.firmware.trim() });
          reportStart(t, r);
        } catch (e) {
          showApiError(e);
        }
      },
    });
  return (
    <Flex wrap gap={12}>
      <Card size="small" title={t('device.upgradeDevice')} style={{ flex: '1 1 280px', minWidth: 0 }}>
        <Flex vertical gap={8}>
          <FirmwareFields value={devFw} onChange={setDevFw} targets="device" />
          <div>
            <Button
              type="primary"
              disabled={!devReady}
              loading={dev.isPending}
              onClick={() => go('device')}
              data-testid="upg-device-submit"
            >
              {t('offer.upgrade')}
            </Button>
          </div>
        </Flex>
      </Card>
      <Card size="small" title={t('device.upgradeDatalogger')} style={{ flex: '1 1 280px', minWidth: 0 }}>
        <Flex vertical gap={8}>
          <FirmwareFields value={dlFw} onChange={setDlFw} targets="datalogger" />
          <div>
            <Button
              type="primary"
              disabled={!dlFw.firmware.trim()}
              loading={dl.isPending}
              onClick={() => go('datalogger')}
              data-testid="upg-dl-submit"
            >
              {t('offer.upgrade')}
            </Button>
          </div>
        </Flex>
      </Card>
    </Flex>
  );
}

/** An owner: what is offered for this device (and its datalogger), with progress. */
function OwnerOffer({ device, canWrite }: DeviceTabProps & { canWrite: boolean }) {
  const { t } = useTranslation('upgrades');
  const devices = useUpgradeOffers(device.pn, OFFER_PAGE.page, OFFER_PAGE.pagesize);
  const row = deviceOfferRow(devices.data?.item, device.sn);
  if (!devices.data) return null;
  if (!row?.offer && !row?.task)
    return (
      <Typography.Text type="secondary" data-testid="upg-no-offer">
        {t('offer.none')}
      </Typography.Text>
    );
  return (
    <Flex vertical gap={8} data-testid="upg-device-offer">
      <OfferCell row={row} />
      <TaskCell row={row} canWrite={canWrite} />
      {canWrite ? (
        <div>
          <OfferUpgradeButton row={row} />
        </div>
      ) : null}
    </Flex>
  );
}

export default function DeviceUpgradeTab({ device }: DeviceTabProps) {
  const { t } = useTranslation('upgrades');
  const session = useSession();
  const access = accessFor(session);
  const owner = session?.role === ROLE.OWNER;
  const canWrite = !access.readOnly && access.hasButton('device_upgrade');
  const dl = useDataloggerDetail(device.pn);
  const offers = useUpgradeOffers(device.pn, OFFER_PAGE.page, OFFER_PAGE.pagesize);
  const mine = deviceOfferRow(offers.data?.item, device.sn);
  const [history, setHistory] = useState<TaskListParams>({ page: 0, pagesize: 10 });
  const params: TaskListParams = { ...history, pn: device.pn, sn: device.sn };
  return (
    <Flex vertical gap={12} data-testid="upg-device-tab">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2 }}
        items={[
          {
            key: 'dev',
            label: t('device.deviceVersion'),
            children: <span data-testid="upg-device-version">{mine?.version || '--'}</span>,
          },
          {
            key: 'dl',
            label: t('device.dataloggerVersion'),
            children: <span data-testid="upg-dl-version">{dl.data?.fireware || '--'}</span>,
          },
        ]}
      />
      {owner ? <OwnerOffer device={device} canWrite={canWrite} /> : canWrite ? <AdminUpgrade device={device} /> : null}
      <Typography.Title level={5}>{t('device.history')}</Typography.Title>
      <TaskTable
        params={params}
        canWrite={canWrite}
        compact
        testId="upg-device-history"
        onPage={(page, pagesize) => setHistory({ page, pagesize })}
      />
    </Flex>
  );
}
