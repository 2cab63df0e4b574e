/**
 * Calls of the rate page (issue 15; protocol actions/tariffs.ts, docs/money/tariffs.md). A write
 * refreshes the plant's tariffs and income, whatever its outcome.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';

export type AddTariffParams = ParamsOf<Catalogue['addPlantTariff']>;
export type EditTariffParams = ParamsOf<Catalogue['editPlantTariff']>;

export const rateKeys = {
  all: ['rates'] as const,
  plants: (name: string) => ['rates', 'plants', name] as const,
  tariffs: (pid: number) => ['rates', 'tariffs', pid] as const,
  income: (pid: number, year: string | undefined) => ['rates', 'income', pid, year ?? ''] as const,
};

/** The plants the caller sees, searched by name on the server (first 50). */
export function useRatePlants(name: string) {
  const params = { page: 0, pagesize: 50, plantName: name.trim() || undefined };
  return useQuery({
    queryKey: rateKeys.plants(name.trim()),
    queryFn: () => api.call('webQueryPlants', params),
    staleTime: 60_000,
  });
}

export function useTariffs(pid: number | undefined) {
  return useQuery({
    queryKey: rateKeys.tariffs(pid ?? 0),
    queryFn: () => api.call('queryPlantTariffs', { plantid: pid!, page: 0, pagesize: 100 }),
    enabled: pid !== undefined,
  });
}

export function useIncome(pid: number | undefined, year: string | undefined) {
  return useQuery({
    queryKey: rateKeys.income(pid ?? 0, year),
    queryFn: () => api.call('queryPlantIncome', { plantid: pid!, ...(year ? { year } : {}) }),
    enabled: pid !== undefined,
  });
}

function useRateMutation<P>(fn: (p: P) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: rateKeys.all }),
  });
}

export const useAddTariff = () => useRateMutation((p: AddTariffParams) => api.call('addPlantTariff', p));
export const useEditTariff = () => useRateMutation((p: EditTariffParams) => api.call('editPlantTariff', p));
export const useDelTariff = () => useRateMutation((id: number) => api.call('delPlantTariff', { id }));
