/** Map mode of the device browser, loaded only when chosen (Leaflet itself loads later still, in LazyMap). */
import { useMemo } from 'react';
import { Alert, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toGeoPoint } from '../../maps/basemap';
import { LazyMap, type MapMarker } from '../../maps/LazyMap';
import { usePlantsMap } from '../../plants/api/queries';
import { statusColor } from '../status';
import type { DeviceRow } from './DeviceBrowser';
import { StatusTag } from './StatusTag';

/** Map mode: one pin per plant of the listed devices, its devices in the popup. */
export default function DeviceMap({
  rows,
  detail,
  total,
  loading,
}: {
  rows: DeviceRow[];
  detail: (d: DeviceRow) => string;
  total: number;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const plants = usePlantsMap({});
  const markers = useMemo<MapMarker[]>(() => {
    const byPlant = new Map<number, DeviceRow[]>();
    for (const d of rows) byPlant.set(d.pid, [...(byPlant.get(d.pid) ?? []), d]);
    const out: MapMarker[] = [];
    for (const p of plants.data?.plant ?? []) {
      const devices = byPlant.get(p.pid);
      const point = toGeoPoint(p.lat, p.lon);
      if (!devices || !point) continue;
      // The worst status of the plant's listed devices colours the pin.
      const worst = devices.map((d) => d.status).sort((a, b) => severity(b) - severity(a))[0] ?? p.status;
      out.push({
        id: String(p.pid),
        ...point,
        color: statusColor(worst),
        popup: (
          <div>
            <Typography.Text strong>{p.name}</Typography.Text>
            <ul style={{ paddingLeft: 16, margin: '4px 0 0' }}>
              {devices.map((d) => (
                <li key={`${d.pn}/${d.devaddr}/${d.sn}`}>
                  <Link to={detail(d)}>{d.devalias || d.sn}</Link> <StatusTag status={d.status} />
                </li>
              ))}
            </ul>
          </div>
        ),
      });
    }
    return out;
  }, [rows, plants.data, detail]);
  const unplaced = rows.length - markers.reduce((n, m) => n + (rows.filter((d) => String(d.pid) === m.id).length || 0), 0);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {!loading && total > rows.length && <Alert type="info" showIcon message={t('devices:map.truncated', { shown: rows.length, total })} />}
      {!loading && unplaced > 0 && <Alert type="warning" showIcon message={t('devices:map.unplaced', { n: unplaced })} />}
      <LazyMap markers={markers} height={520} />
    </Space>
  );
}

/** Fault/error first, then warning, offline, standby, normal. */
function severity(status: number): number {
  return [0, 2, 5, 1, 4, 6, 3][status] ?? 0;
}
