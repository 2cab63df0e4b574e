/**
 * Calls of the operator's log pages (issue 14; protocol actions/operator-logs.ts,
 * docs/operator/logs.md). The retention write refreshes the retention query; it is not retried.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { operatorLogKeys, webErrorKeys } from './keys';

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

// Issue 16: web error reporting (protocol actions/web-errors.ts).
export type WebErrorGroupsParams = ParamsOf<Catalogue['queryWebErrorGroups']>;

export function useWebErrorGroups(params: WebErrorGroupsParams) {
  return usePagedQuery(webErrorKeys.groups(params), () => api.call('queryWebErrorGroups', params));
}

export function useWebErrorEvents(fingerprint: string | undefined, filters: Omit<WebErrorGroupsParams, 'page' | 'pagesize'>) {
  const params = { ...filters, fingerprint: fingerprint ?? '', pagesize: 20 };
  return useQuery({
    queryKey: webErrorKeys.events(params),
    queryFn: () => api.call('queryWebErrorEvents', params),
    enabled: fingerprint !== undefined,
  });
}

export function useWebErrorEvent(id: number | undefined) {
  return useQuery({
    queryKey: webErrorKeys.event(id ?? 0),
    queryFn: () => api.call('queryWebErrorEvent', { id: id ?? 0 }),
    enabled: id !== undefined,
  });
}
