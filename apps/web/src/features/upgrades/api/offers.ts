/**
 * The upgrade screens' query keys and the offers query (queryUpgradeableFirmware), apart from
 * queries.ts so the device detail's tab rule (app/device-tabs.ts) loads only this on every device
 * page (first-load budget).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Catalogue, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { pollInterval } from '../model/running';

/** The task list's parameters, as numbers (the wire accepts them as such). */
export type TaskListParams = ParsedParamsOf<Catalogue['queryFirmwareUpgrades']>;

export const upgradeKeys = {
  all: ['upgrades'] as const,
  tasks: (p: TaskListParams) => ['upgrades', 'tasks', p] as const,
  offers: (pn: string, page: number, pagesize: number) => ['upgrades', 'offers', pn, page, pagesize] as const,
  dataloggers: (p: object) => ['upgrades', 'dataloggers', p] as const,
  detail: (pn: string) => ['upgrades', 'detail', pn] as const,
};

/** What the caller's dataloggers (or, with `pn`, that datalogger's devices) run and may upgrade to. */
export function useUpgradeOffers(pn: string, page: number, pagesize: number, enabled = true) {
  return useQuery({
    queryKey: upgradeKeys.offers(pn, page, pagesize),
    queryFn: () => api.call('queryUpgradeableFirmware', { ...(pn ? { pn } : {}), page, pagesize }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollInterval(q.state.data?.item.map((i) => i.task ?? { status: -1 })),
    enabled,
  });
}
