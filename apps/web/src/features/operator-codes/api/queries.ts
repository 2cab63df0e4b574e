/**
 * Calls of the operator's factoryCode page (issue 14; protocol actions/manufacturer-codes.ts,
 * docs/operator/manufacturer-codes.md). Every write invalidates the list; none is retried.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';

export type CodeListParams = ParsedParamsOf<Catalogue['queryManufacturerCodes']>;
export type AddCodeParams = ParamsOf<Catalogue['addManufacturerCode']>;

export const codeQueryKeys = {
  all: ['manufacturerCodes'] as const,
  list: (p: CodeListParams) => ['manufacturerCodes', 'list', p] as const,
  makers: ['manufacturerCodes', 'makers'] as const,
};

export function useManufacturerCodes(params: CodeListParams) {
  return useQuery({
    queryKey: codeQueryKeys.list(params),
    queryFn: () => api.call('queryManufacturerCodes', params),
    placeholderData: keepPreviousData,
  });
}

/** The manufacturer accounts (role 1) the operator may give a rule to (first 50 by name). */
export function useManufacturers() {
  return useQuery({
    queryKey: codeQueryKeys.makers,
    queryFn: () => api.call('webQueryUsrEs', { role: 1, pagesize: 50, orderBy: 'ascUsr' }),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: codeQueryKeys.all });
}

export function useAddManufacturerCode() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (p: AddCodeParams) => api.call('addManufacturerCode', p), onSettled: invalidate });
}

export function useSetManufacturerCodeEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number; enabled: boolean }) => api.call('setManufacturerCodeEnabled', p),
    onSettled: invalidate,
  });
}

export type EditCodeParams = ParamsOf<Catalogue['editManufacturerCode']>;

export function useEditManufacturerCode() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (p: EditCodeParams) => api.call('editManufacturerCode', p), onSettled: invalidate });
}

export function useDeleteManufacturerCode() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number }) => api.call('deleteManufacturerCode', p),
    onSettled: invalidate,
  });
}
