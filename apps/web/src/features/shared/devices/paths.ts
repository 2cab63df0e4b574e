/**
 * Where the device pages of an area live: the route-table node that carries the device
 * detail sub-page (adminNew/admin → device, generalNew → deviceno, classic general → home).
 */
import { AREAS, DEVICE_DETAIL, areaOfPath, type AreaDef } from '../../../app/routes';

export interface DeviceTupleLike {
  pn: string;
  devcode: number | string;
  devaddr: number | string;
  sn: string;
}

export function deviceListPath(area: AreaDef | undefined): string | undefined {
  const node = area?.children.find((n) => n.subPage === DEVICE_DETAIL);
  return node && area ? `${area.base}/${node.path}` : undefined;
}

export function deviceDetailPath(area: AreaDef | undefined, d: DeviceTupleLike): string | undefined {
  const list = deviceListPath(area);
  if (!list) return undefined;
  const seg = (v: string | number) => encodeURIComponent(String(v));
  return `${list}/${seg(d.pn)}/${seg(d.devcode)}/${seg(d.devaddr)}/${seg(d.sn)}`;
}

/** The area of a location (falls back to the first area that lists devices). */
export function areaFor(pathname: string): AreaDef | undefined {
  return areaOfPath(pathname) ?? AREAS.find((a) => deviceListPath(a));
}
