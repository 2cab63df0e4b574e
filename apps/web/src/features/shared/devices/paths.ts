/**
 * Where the device pages of an area live: the route-table node that carries the device
 * detail sub-page (adminNew/admin → device, generalNew → deviceno, classic general → home,
 * operator → home/device).
 */
import { AREAS, DEVICE_DETAIL, areaOfPath, type AreaDef } from '../../../app/routes';

export interface DeviceTupleLike {
  pn: string;
  devcode: number | string;
  devaddr: number | string;
  sn: string;
}

export function deviceListPath(area: AreaDef | undefined): string | undefined {
  if (!area) return undefined;
  const node = area.children.find((n) => n.subPage === DEVICE_DETAIL);
  if (node) return `${area.base}/${node.path}`;
  // the operator's device list sits one level down, in its settings layout (home/device)
  for (const parent of area.children) {
    const child = parent.children?.find((n) => n.subPage === DEVICE_DETAIL);
    if (child) return `${area.base}/${parent.path}/${child.path}`;
  }
  return undefined;
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
