/** Query and mutation hooks of the datalogger screens. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActionName, Catalogue, ParamsOf, ResultOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { dataloggerKeys } from './keys';
import type { DataloggerListParams } from './list-params';

/**
 * `api.call` for the generic mutation hook: the action's literal name is at the hook's call site
 * (`useDataloggerMutation('restartCollector')`), where the route-permission scan reads it.
 */
const sendAction = api.call.bind(api);

export function useDataloggerList(params: DataloggerListParams) {
  return usePagedQuery(dataloggerKeys.list(params), () => api.call('webQueryCollectorsEs', params));
}

/** The devices behind one datalogger (err 258 = none: an empty list). */
export function useDataloggerDevices(pn: string | undefined) {
  return useQuery({
    queryKey: dataloggerKeys.devices(pn ?? ''),
    queryFn: async () => {
      try {
        return (await api.call('queryCollectorDevices', { pn: pn! })).dev;
      } catch (e) {
        if ((e as { err?: number }).err === 258) return [];
        throw e;
      }
    },
    enabled: !!pn,
  });
}

/** The caller's plants for the plant pickers (first 50, by name). */
export function usePlantChoices(plantName: string, enabled = true) {
  const params = { page: 0, pagesize: 50, plantName: plantName.trim() || undefined };
  return useQuery({
    queryKey: dataloggerKeys.plants(params),
    queryFn: () => api.call('webQueryPlants', params),
    enabled,
  });
}

/** A mutation of any datalogger action; on success every datalogger query is refetched. */
export function useDataloggerMutation<N extends ActionName>(name: N) {
  const qc = useQueryClient();
  return useMutation<ResultOf<Catalogue[N]>, Error, ParamsOf<Catalogue[N]>>({
    mutationFn: (params) => sendAction(name, params),
    onSettled: () => qc.invalidateQueries({ queryKey: dataloggerKeys.all }),
  });
}
