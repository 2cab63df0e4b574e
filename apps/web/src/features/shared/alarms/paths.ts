/**
 * Where an area's alarm list lives (the `alarm` node of every area but the operator's): the
 * plant page and the device detail link to it with a filter (`pid`, `pn`/`sn`) in the address bar.
 */
import { areaOfPath, type AreaDef } from '../../../app/routes';

export function alarmListPath(area: AreaDef | undefined): string | undefined {
  const node = area?.children.find((n) => n.path === 'alarm');
  return node && area ? `${area.base}/${node.path}` : undefined;
}

/** The alarm list of the area of `pathname`, filtered to one plant (undefined where the area has none). */
export function plantAlarmsPathFrom(pathname: string, pid: number): string | undefined {
  const list = alarmListPath(areaOfPath(pathname));
  return list && pid > 0 ? `${list}?pid=${pid}` : undefined;
}
