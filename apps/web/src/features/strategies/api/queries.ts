/**
 * Calls of the upgrade strategies (protocol actions/upgrade-strategies.ts): the server-paged list
 * and per-device results, the datalogger picker (server-paged search by PN), and the writes;
 * every write refreshes the lists.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ResultOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { strategyKeys } from './keys';

export type StrategyRow = ResultOf<Catalogue['queryUpgradeStrategies']>['strategy'][number];
export type StrategyDeviceRow = ResultOf<Catalogue['queryUpgradeStrategyDevices']>['device'][number];
export type StrategyParams = ParamsOf<Catalogue['addUpgradeStrategy']>;

export function useStrategies(params: { page: number; pagesize: number; search?: string; status?: number }) {
  return usePagedQuery(strategyKeys.list(params), () => api.call('queryUpgradeStrategies', params));
}

export function useStrategyDevices(params: { code: string; page: number; pagesize: number }, enabled: boolean) {
  return usePagedQuery(strategyKeys.devices(params), () => api.call('queryUpgradeStrategyDevices', params), enabled);
}

/** Dataloggers of the caller's scope matching `search` (PN or alias), one server page. */
export function usePickableDataloggers(params: { page: number; pagesize: number; search: string }, enabled: boolean) {
  return usePagedQuery(
    strategyKeys.pickable(params),
    () => api.call('queryUpgradeStrategyCandidates', { page: params.page, pagesize: params.pagesize, ...(params.search ? { search: params.search } : {}) }),
    enabled,
  );
}

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: strategyKeys.all });
}

export function useSaveStrategy() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ code, values }: { code?: string; values: StrategyParams }) =>
      code ? api.call('editUpgradeStrategy', { code, ...values }).then(() => ({ code })) : api.call('addUpgradeStrategy', values),
    onSuccess: refresh,
  });
}

export function useCancelStrategy() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (code: string) => api.call('cancelUpgradeStrategy', { code }), onSuccess: refresh });
}

export function useResumeStrategy() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (code: string) => api.call('resumeUpgradeStrategy', { code }), onSuccess: refresh });
}
