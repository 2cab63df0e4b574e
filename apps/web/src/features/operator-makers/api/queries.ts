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

function useMakerMutation<
  N extends 'addManufacturer' | 'editManufacturer' | 'setManufacturerEnabled' | 'adjustManufacturerEcoin',
>(name: N) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: ParamsOf<Catalogue[N]>) => api.call(name, p),
    onSettled: () => qc.invalidateQueries({ queryKey: makerQueryKeys.all }),
  });
}

export const useAddManufacturer = () => useMakerMutation('addManufacturer');
export const useEditManufacturer = () => useMakerMutation('editManufacturer');
export const useSetManufacturerEnabled = () => useMakerMutation('setManufacturerEnabled');
export const useAdjustEcoin = () => useMakerMutation('adjustManufacturerEcoin');
