/** Reads of the sub-accounts page: the viewers (server-paged) and the owner's plants to assign. */
import { useQuery } from '@tanstack/react-query';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { WIRE_MAX_PAGE_SIZE, usePagedQuery } from '../../../components/list';
import { subaccountKeys } from './keys';
import type { ViewerListParams } from './list-params';

export type ViewerRow = ResultOf<Catalogue['queryPlantBrowsers']>['browser'][number];

export function useViewerList(params: ViewerListParams) {
  return usePagedQuery(subaccountKeys.list(params), () => api.call('queryPlantBrowsers', { ...params }));
}

export interface PlantOption {
  pid: number;
  name: string;
}

/** Upper bound of pages read for the plant picker (50 × 40 = 2000 plants). */
const MAX_PLANT_PAGES = 40;

/** Every plant of the caller, page by page (the wire caps a page at 50). */
export async function fetchAllPlants(
  call: (page: number, pagesize: number) => Promise<{ total: number; plant: Array<{ pid: number; name: string }> }>,
): Promise<PlantOption[]> {
  const out: PlantOption[] = [];
  for (let page = 0; page < MAX_PLANT_PAGES; page++) {
    const dat = await call(page, WIRE_MAX_PAGE_SIZE);
    for (const p of dat.plant) out.push({ pid: p.pid, name: p.name });
    if (dat.plant.length < WIRE_MAX_PAGE_SIZE || out.length >= dat.total) break;
  }
  return out;
}

/** The plants the owner may hand to a viewer (all of its own). */
export function useOwnPlants(enabled: boolean) {
  return useQuery({
    queryKey: subaccountKeys.plants(),
    queryFn: () => fetchAllPlants((page, pagesize) => api.call('webQueryPlants', { page, pagesize })),
    enabled,
  });
}
