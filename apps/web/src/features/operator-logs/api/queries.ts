/**
 * Calls of the operator's log pages (issue 14; protocol actions/operator-logs.ts,
 * docs/operator/logs.md). The retention write refreshes the retention query; it is not retried.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { operatorLogKeys } from './keys';

export type CollectorLogsParams = ParamsOf<Catalogue['queryCollectorLogs']>;
export type ActionLogParams = ParamsOf<Catalogue['queryActionLog']>;

export function useCollectorLogs(params: CollectorLogsParams, enabled = true) {
  return usePagedQuery(operatorLogKeys.collector(params), () => api.call('queryCollectorLogs', params), enabled);
}

export function useActionLog(params: ActionLogParams) {
  return usePagedQuery(operatorLogKeys.actions(params), () => api.call('queryActionLog', params));
}

export function useLogRetention() {
  return useQuery({ queryKey: operatorLogKeys.retention, queryFn: () => api.call('queryLogRetention', {}) });
}

export function useSetLogRetention() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: { actionLogDays?: number; collectorLogDays?: number; sampleDays?: number }) => api.call('setLogRetention', p),
    onSuccess: (r) => qc.setQueryData(operatorLogKeys.retention, r),
  });
}
