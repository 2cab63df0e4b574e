/**
 * Where a plant's page lives: under the `project` node of an area (`/generalNew/project/:pid`,
 * `/adminNew/project/:pid`). Classic areas have no project list, hence no plant page.
 */
import { PLANT_PAGE, areaOfPath, type AreaDef } from '../../../app/routes';

export function projectListPath(area: AreaDef | undefined): string | undefined {
  const node = area?.children.find((n) => n.subPage === PLANT_PAGE);
  return node && area ? `${area.base}/${node.path}` : undefined;
}

export function plantPagePath(area: AreaDef | undefined, pid: number | string): string | undefined {
  const list = projectListPath(area);
  return list && Number(pid) > 0 ? `${list}/${encodeURIComponent(String(pid))}` : undefined;
}

/** The plant page of `pid` in the area of `pathname` (undefined where that area has none). */
export function plantPathFrom(pathname: string, pid: number | string): string | undefined {
  return plantPagePath(areaOfPath(pathname), pid);
}
