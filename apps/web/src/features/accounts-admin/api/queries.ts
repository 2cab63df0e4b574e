/** Query and mutation hooks of the account management screens. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActionName, Catalogue, ParamsOf, ResultOf } from '@sunwatch/protocol';
import { usePagedQuery } from '../../../components/list';
import { api } from '../../../app/api';
import { adminAccountKeys } from './keys';

/**
 * `api.call` for the generic mutation hook: the action's literal name is at the hook's call site
 * (`useAdminMutation('addDist')`), where the route-permission scan reads it.
 */
const sendAction = api.call.bind(api);
import type { UsersParams } from './list-params';

export function useUsersList(params: UsersParams) {
  return usePagedQuery(adminAccountKeys.users(params), () => api.call('webQueryUsrEs', params));
}

/** Account search of the "related owner" dialog (adminQueryUsrAccount, fuzzy). */
export function useAccountSearch(usr: string, role?: number) {
  return useQuery({
    queryKey: adminAccountKeys.search({ usr, role }),
    queryFn: () => api.call('adminQueryUsrAccount', { usr, role, page: 0, pagesize: 20 }),
    enabled: usr.trim().length > 0,
  });
}

/** Every group of the caller (for filters and pickers): one page of 50. */
export function useGroups(
  params: { name?: string; page: number; pagesize: number } = { page: 0, pagesize: 50 },
  enabled = true,
) {
  return usePagedQuery(adminAccountKeys.groups(params), () => api.call('queryUsrGroups', params), enabled);
}

export function useRoles(
  params: { name?: string; page: number; pagesize: number } = { page: 0, pagesize: 50 },
  enabled = true,
) {
  return usePagedQuery(adminAccountKeys.roles(params), () => api.call('queryRoles', params), enabled);
}

/** The devcodes the caller's manufacturer lets its area see (issue 14, factoryAccount "visible devcodes"). */
export function useVisibleDevcodes() {
  return useQuery({
    queryKey: [...adminAccountKeys.ctrlFields(0), 'visible'],
    queryFn: () => api.call('queryVisibleDevcodes', {}),
    staleTime: 60_000,
  });
}

export function useCtrlFields(devcode: number | undefined) {
  return useQuery({
    queryKey: adminAccountKeys.ctrlFields(devcode ?? 0),
    queryFn: () => api.call('queryDeviceCtrlFieldForDist', { devcode: devcode ?? 0 }),
    enabled: devcode !== undefined,
  });
}

/** The caller's plants, for the viewer's plant picker. */
export function usePlantChoices(plantName: string, enabled: boolean) {
  const params = { page: 0, pagesize: 50, plantName: plantName || undefined };
  return useQuery({
    queryKey: adminAccountKeys.plants(params),
    queryFn: () => api.call('webQueryPlants', params),
    enabled,
  });
}

/**
 * A mutation of any account-management action; on success every account-management query is
 * refetched (lists, counts, groups and roles all depend on each other).
 */
export function useAdminMutation<N extends ActionName>(name: N) {
  const qc = useQueryClient();
  return useMutation<ResultOf<Catalogue[N]>, Error, ParamsOf<Catalogue[N]>>({
    mutationFn: (params) => sendAction(name, params),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminAccountKeys.all }),
  });
}
