/**
 * Calls of the operator's KEYList page (issue 14; protocol actions/company-keys.ts,
 * docs/operator/company-keys.md). Every write invalidates the list; none is retried.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';

export type KeyListParams = ParsedParamsOf<Catalogue['queryCompanyKeyList']>;
export type AddKeyParams = ParamsOf<Catalogue['addCompanyKey']>;
export type EditKeyParams = ParamsOf<Catalogue['editCompanyKey']>;

export const companyKeyQueryKeys = {
  all: ['companyKeys'] as const,
  list: (p: KeyListParams) => ['companyKeys', 'list', p] as const,
};

/** One page of the key list (server-paged, searched and filtered). */
export function useCompanyKeys(params: KeyListParams) {
  return useQuery({
    queryKey: companyKeyQueryKeys.list(params),
    queryFn: () => api.call('queryCompanyKeyList', params),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: companyKeyQueryKeys.all });
}

export function useAddCompanyKey() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (p: AddKeyParams) => api.call('addCompanyKey', p), onSettled: invalidate });
}

export function useEditCompanyKey() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (p: EditKeyParams) => api.call('editCompanyKey', p), onSettled: invalidate });
}

export function useSetCompanyKeyEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number; enabled: boolean }) =>
      api.call('setCompanyKeyEnabled', { id: p.id, enabled: p.enabled ? '1' : '0' }),
    onSettled: invalidate,
  });
}
