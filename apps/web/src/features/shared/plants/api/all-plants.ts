/**
 * Every plant of the caller (id and name) for the pickers of the settings pages (e-mail
 * subscriptions, report export), read page by page: the wire caps a page at 50.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../app/api';
import { WIRE_MAX_PAGE_SIZE } from '../../../../components/list';
import { plantKeys } from './keys';

export interface PlantChoice {
  pid: number;
  name: string;
  /** Seconds east of UTC: the plant's calendar decides "today" of its reports. */
  timezone: number;
}

/** Upper bound of pages read (50 × 40 = 2000 plants). */
const MAX_PAGES = 40;

export async function readAllPlants(
  call: (page: number, pagesize: number) => Promise<{ total: number; plant: Array<{ pid: number; name: string; address?: { timezone: number } }> }>,
): Promise<PlantChoice[]> {
  const out: PlantChoice[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const dat = await call(page, WIRE_MAX_PAGE_SIZE);
    for (const p of dat.plant) out.push({ pid: p.pid, name: p.name, timezone: p.address?.timezone ?? 0 });
    if (dat.plant.length < WIRE_MAX_PAGE_SIZE || out.length >= dat.total) break;
  }
  return out;
}

/** The caller's plants, all of them (cached one minute). */
export function useAllPlants(enabled = true) {
  return useQuery({
    queryKey: [...plantKeys.all, 'choices'] as const,
    queryFn: () => readAllPlants((page, pagesize) => api.call('webQueryPlants', { page, pagesize })),
    staleTime: 60_000,
    enabled,
  });
}
