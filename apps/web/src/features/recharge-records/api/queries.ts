/**
 * Calls of the rechargeRecord page (issue 15; protocol actions/recharge-records.ts,
 * docs/money/recharge-records.md): the caller's orders (server-paged), one order, the export.
 */
import { useQuery } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { recordKeys, type RecordListParams } from './keys';

export type RecordExportParams = ParamsOf<Catalogue['exportMyRechargeOrders']>;

export function useRechargeRecords(params: RecordListParams) {
  return usePagedQuery(recordKeys.list(params), () => api.call('queryMyRechargeOrders', params));
}

export function useRechargeRecord(id: number | undefined) {
  return useQuery({
    queryKey: recordKeys.detail(id ?? 0),
    queryFn: () => api.call('queryMyRechargeOrder', { id: id! }),
    enabled: id !== undefined,
  });
}

/** The xlsx of the filtered records (at most RECHARGE_EXPORT_MAX_ROWS), as the server built it. */
export function exportRechargeRecords(params: RecordExportParams) {
  return api.call('exportMyRechargeOrders', params);
}
