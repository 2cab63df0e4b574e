/**
 * Calls of the upgrade screens (issue 13; protocol actions/upgrades.ts). Starting and
 * cancelling go to the datalogger, so none is retried; the lists poll every 2 s while one of
 * their tasks runs and stop once none does.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { pollInterval } from '../model/running';
import { upgradeKeys, type TaskListParams } from './offers';

export { upgradeKeys, useUpgradeOffers, type TaskListParams } from './offers';

export type BatchParams = ParamsOf<Catalogue['firmwareUpgradeBatch']>;
export type DeviceUpgradeParams = ParamsOf<Catalogue['firmwareUpgradeDevice']>;

/** The task list (server-paged), polled while any task of the page runs. */
export function useUpgradeTasks(params: TaskListParams, enabled = true) {
  return useQuery({
    queryKey: upgradeKeys.tasks(params),
    queryFn: () => api.call('queryFirmwareUpgrades', params),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => pollInterval(q.state.data?.task),
    enabled,
  });
}

/** Dataloggers the caller sees, for the selection and the count a filter covers. */
export function useTargetDataloggers(params: ParamsOf<Catalogue['webQueryCollectorsEs']>, enabled = true) {
  return useQuery({
    queryKey: upgradeKeys.dataloggers(params),
    queryFn: () => api.call('webQueryCollectorsEs', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A datalogger's identity and firmware version. */
export function useDataloggerDetail(pn: string) {
  return useQuery({ queryKey: upgradeKeys.detail(pn), queryFn: () => api.call('queryCollectorDetail', { pn }) });
}

function useInvalidateUpgrades() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: upgradeKeys.all });
}

export function useStartBatch() {
  const invalidate = useInvalidateUpgrades();
  return useMutation({ mutationFn: (p: BatchParams) => api.call('firmwareUpgradeBatch', p), onSettled: invalidate });
}

export function useUpgradeDatalogger() {
  const invalidate = useInvalidateUpgrades();
  return useMutation({
    mutationFn: (p: { pn: string; firmware: string }) => api.call('firmwareUpgradeCollector', p),
    onSettled: invalidate,
  });
}

export function useUpgradeDevice() {
  const invalidate = useInvalidateUpgrades();
  return useMutation({
    mutationFn: (p: DeviceUpgradeParams) => api.call('firmwareUpgradeDevice', p),
    onSettled: invalidate,
  });
}

export function useCancelUpgrade() {
  const invalidate = useInvalidateUpgrades();
  return useMutation({
    mutationFn: (p: { pn: string; key: string }) => api.call('cancelCollectorFirmwareUpgrade', p),
    onSettled: invalidate,
  });
}

/** The firmware library the caller may use (queryFirmwares of the library part), for the cloud upgrade's picker. */
export function useFirmwareChoices(search: string) {
  const params = { page: 0, pagesize: 50, ...(search.trim() ? { search: search.trim() } : {}) };
  return useQuery({
    queryKey: ['upgrades', 'firmwares', params],
    queryFn: () => api.call('queryFirmwares', params),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
