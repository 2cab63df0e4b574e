/**
 * Calls of the operator's factoryAccount page (issue 14; protocol actions/manufacturers.ts,
 * docs/operator/manufacturers.md). Every write invalidates the list; none is retried.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';

export type MakerListParams = ParsedParamsOf<Catalogue['queryManufacturers']>;

export const makerQueryKeys = {
  all: ['manufacturers'] as const,
  list: (p: MakerListParams) => ['manufacturers', 'list', p] as const,
  ecoin: (uid: number, page: number) => ['manufacturers', 'ecoin', uid, page] as const,
};

export function useManufacturerList(params: MakerListParams) {
  return useQuery({
    queryKey: makerQueryKeys.list(params),
    queryFn: () => api.call('queryManufacturers', params),
    placeholderData: keepPreviousData,
  });
}

export function useEcoinLog(uid: number, page: number) {
  return useQuery({
    queryKey: makerQueryKeys.ecoin(uid, page),
    queryFn: () => api.call('queryManufacturerEcoinLog', { uid, page, pagesize: 5 }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: makerQueryKeys.all });
}

export function useAddManufacturer() {
  const onSettled = useInvalidate();
  return useMutation({
    mutationFn: (p: ParamsOf<Catalogue['addManufacturer']>) => api.call('addManufacturer', p),
    onSettled,
  });
}

export function useEditManufacturer() {
  const onSettled = useInvalidate();
  return useMutation({
    mutationFn: (p: ParamsOf<Catalogue['editManufacturer']>) => api.call('editManufacturer', p),
    onSettled,
  });
}

export function useSetManufacturerEnabled() {
  const onSettled = useInvalidate();
  return useMutation({
    mutationFn: (p: ParamsOf<Catalogue['setManufacturerEnabled']>) => api.call('setManufacturerEnabled', p),
    onSettled,
  });
}

export function useAdjustEcoin() {
  const onSettled = useInvalidate();
  return useMutation({
    mutationFn: (p: ParamsOf<Catalogue['adjustManufacturerEcoin']>) => api.call('adjustManufacturerEcoin', p),
    onSettled,
  });
}
