/** Device info: queryDeviceInfo plus what its devcode definition says about it. */
import { lazy, Suspense } from 'react';
import { Descriptions, Card, Space } from 'antd';
import { getDefinition } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { currentLocale } from '../../../i18n';
import { formatPower } from '../../shared/charts/format';
import { useDeviceInfo } from '../api/queries';
import { areaFor, deviceListPath, type DeviceTupleLike } from '../../shared/devices/paths';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { QueryState } from './common';
import { accessFor } from '../../../app/access';
import { DEVICE_INFO_PANEL } from '../../../app/device-tabs';
import { useSession } from '../../../app/use-session';

/** Edit alias / remove from plant (app/device-tabs.ts), for accounts that may change devices. */
const ManagePanel = lazy(DEVICE_INFO_PANEL.load);

/** "UTC+05:30" of a timezone in seconds east of UTC. */
export function utcOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const h = String(Math.floor(abs / 3600)).padStart(2, '0');
  const m = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `UTC${sign}${h}:${m}`;
}

export function InfoTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const q = useDeviceInfo(device);
  const def = getDefinition(Number(device.devcode));
  const locale = currentLocale();
  const { pathname } = useLocation();
  const list = deviceListPath(areaFor(pathname));
  const manage = DEVICE_INFO_PANEL.visible(accessFor(useSession()));
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <QueryState q={q}>
        {(d) => (
          <Card size="small" title={t('devices:info.basic')}>
            <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
              <Descriptions.Item label={t('devices:field.name')}>{d.alias || d.sn}</Descriptions.Item>
              <Descriptions.Item label={t('devices:field.status')}>
                <StatusTag status={d.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('devices:field.sn')}>{d.sn}</Descriptions.Item>
              <Descriptions.Item label={t('devices:field.pn')}>{d.pn}</Descriptions.Item>
              <Descriptions.Item label={t('devices:info.devcode')}>{d.devcode}</Descriptions.Item>
              <Descriptions.Item label={t('devices:info.devaddr')}>{d.devaddr}</Descriptions.Item>
              <Descriptions.Item label={t('devices:info.devtype')}>{t(`devices:devtypes.${d.devtype}`, { defaultValue: String(d.devtype) })}</Descriptions.Item>
              <Descriptions.Item label={t('devices:info.timezone')}>{utcOffset(d.timezone)}</Descriptions.Item>
              <Descriptions.Item label={t('devices:info.plant')}>
                {/* no plant page exists: the plant's name leads to its devices */}
                {d.pname ? (
                  list && d.pid ? (
                    <Link to={`${list}?pid=${d.pid}`} data-testid="info-plant">
                      {d.pname}
                    </Link>
                  ) : (
                    <span data-testid="info-plant">{d.pname}</span>
                  )
                ) : (
                  '--'
                )}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        )}
      </QueryState>
      {def && (
        <Card size="small" title={t('devices:info.definition')}>
          <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('devices:info.model')}>{def.name}</Descriptions.Item>
            <Descriptions.Item label={t('devices:info.vendor')}>{def.vendor}</Descriptions.Item>
            <Descriptions.Item label={t('devices:info.kind')}>{t(`devices:kinds.${def.kind}`)}</Descriptions.Item>
            <Descriptions.Item label={t('devices:info.deviceType')}>
              <span data-testid="info-category">{t(`devices:categories.${def.category}`)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('devices:info.ratedPower')}>{formatPower(def.ratedPower, locale, 'W')}</Descriptions.Item>
            <Descriptions.Item label={t('devices:info.protocol')}>{def.devcode}</Descriptions.Item>
            <Descriptions.Item label={t('devices:info.energyKinds')} span={2}>
              {Object.entries(def.energy)
                .filter(([, v]) => !!v)
                .map(([k]) => t(`devices:energyKinds.${k}`))
                .join(', ') || '--'}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      {manage && (
        <Suspense fallback={null}>
          <ManagePanel device={device} />
        </Suspense>
      )}
    </Space>
  );
}
