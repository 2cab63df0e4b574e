/**
 * Calls of the upgrade strategies (protocol actions/upgrade-strategies.ts): the server-paged list
 * and per-device results, the target picker (dataloggers or devices, server-paged), and the writes;
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

/**
 * The editor's picker, one server page: dataloggers for datalogger firmware, devices (PN:SN) for
 * device firmware (`type`); the filter fields narrow it, so `total` previews a by-filter strategy.
 */
export function usePickableTargets(params: CandidateParams, enabled: boolean) {
  return usePagedQuery(strategyKeys.pickable(params), () => api.call('queryUpgradeStrategyCandidates', compact(params)), enabled);
}

export type CandidateParams = {
  page: number;
  pagesize: number;
  type: number;
  search?: string | undefined;
  devcode?: number | undefined;
  plantid?: number | undefined;
  loggerType?: string | undefined;
  model?: string | undefined;
  version?: string | undefined;
};

/** Leaves out empty values (an empty string is "missing" on the wire anyway). */
function compact(p: CandidateParams): CandidateParams {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as unknown as CandidateParams;
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
