/** Query and mutation hooks of the alarm screens. err 264 (no device alarm) is an empty list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlarmListDat, Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { alarmKeys } from './keys';
import type { AlarmListParams } from './list-params';

/** err 264 ERR_NOT_FOUND_DEVICE_WARNING: nothing matches (wire-protocol.md §6). */
export const NO_ALARM = 264;

export async function orEmpty(call: () => Promise<AlarmListDat>, pagesize: number): Promise<AlarmListDat> {
  try {
    return await call();
  } catch (e) {
    if ((e as { err?: number }).err === NO_ALARM) return { total: 0, page: 0, pagesize, warning: [] };
    throw e;
  }
}

export function useAlarmList(params: AlarmListParams, enabled = true) {
  return usePagedQuery(
    alarmKeys.list(params),
    () => orEmpty(() => api.call('webQueryPlantsWarning', params), Number(params.pagesize ?? 10)),
    enabled,
  );
}

export type AlarmStatsParams = ParamsOf<Catalogue['webQueryWarningStatistic']>;

/** Alarms of the last 7 days per type (one plant, or every plant the account sees). */
export function useAlarmStats(params: AlarmStatsParams, enabled = true) {
  return useQuery({ queryKey: alarmKeys.stats(params), queryFn: () => api.call('webQueryWarningStatistic', params), enabled });
}

export type RuleListParams = ParamsOf<Catalogue['webQueryWarningRules']>;

export function useAlarmRules(params: RuleListParams) {
  return usePagedQuery(alarmKeys.rules(params), () => api.call('webQueryWarningRules', params));
}

/** The account's plants for the plant pickers (first 50, by name). */
export function usePlantChoices(plantName: string, enabled = true) {
  const params = { page: 0, pagesize: 50, plantName: plantName.trim() || undefined };
  return useQuery({
    queryKey: alarmKeys.plants(params),
    queryFn: () => api.call('webQueryPlants', params),
    enabled,
    staleTime: 60_000,
  });
}

/** Every alarm query is refetched after a change. */
function useInvalidateAlarms() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: alarmKeys.all });
}

/**
 * Marks alarms processed: one through ignorePlantWarning (the vendor action), many through
 * handlePlantWarnings (all or nothing). Answers how many were newly processed.
 */
export function useHandleAlarms() {
  const invalidate = useInvalidateAlarms();
  return useMutation<number, Error, number[]>({
    mutationFn: async (ids) => {
      if (ids.length === 1) {
        await api.call('ignorePlantWarning', { id: ids[0]! });
        return 1;
      }
      return (await api.call('handlePlantWarnings', { id: ids.join(',') })).count;
    },
    onSettled: invalidate,
  });
}

export type RuleFields = ParamsOf<Catalogue['addWarningRule']>;

/** Adds a rule, or edits one when `id` is given. */
export function useSaveRule() {
  const invalidate = useInvalidateAlarms();
  return useMutation<unknown, Error, { id?: number; fields: RuleFields }>({
    mutationFn: ({ id, fields }) => (id ? api.call('editWarningRule', { ...fields, id }) : api.call('addWarningRule', fields)),
    onSettled: invalidate,
  });
}

export function useDeleteRule() {
  const invalidate = useInvalidateAlarms();
  return useMutation<unknown, Error, number>({
    mutationFn: (id) => api.call('delWarningRule', { id }),
    onSettled: invalidate,
  });
}
