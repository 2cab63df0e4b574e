/**
 * Calls of the device operations (issue 10; protocol actions/device-ops.ts): control fields and
 * values, ctrlDevice, sendCmdToDevice, report export files, the device edits, the helpform tools
 * and the operation history. Writes go to the datalogger over MQTT and come back with its
 * answer, so none is retried.
 */
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiCallError, KEY_PARAMETER_TOTALS, type KeyParameterTotal } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { deviceKeys } from '../../shared/devices/api/keys';
import { tupleOf } from '../../shared/devices/api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';

export const opsKeys = {
  exportFiles: (page: number, pagesize: number) => ['deviceOps', 'exportFiles', page, pagesize] as const,
  exportFilesAll: ['deviceOps', 'exportFiles'] as const,
};

/** `quiet`: a helper read (names for the history): no retry, its failure is not shown. */
export function useCtrlFields(d: DeviceTupleLike, opts: { quiet?: boolean } = {}) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'ctrlFields'),
    queryFn: () => api.call('queryDeviceCtrlField', tupleOf(d)),
    staleTime: 5 * 60_000,
    ...(opts.quiet ? { retry: false } : {}),
  });
}

/** One field's current value, read live from the device (one at a time, spec). */
export function readCtrlValue(d: DeviceTupleLike, id: string) {
  return api.call('queryDeviceCtrlValue', { ...tupleOf(d), id });
}

export function ctrlDevice(d: DeviceTupleLike, id: string, val: string, pwd?: string) {
  return api.call('ctrlDevice', { ...tupleOf(d), id, val, ...(pwd ? { pwd } : {}) });
}

export function sendCmdToDevice(d: DeviceTupleLike, cmd: string, pwd?: string) {
  return api.call('sendCmdToDevice', { ...tupleOf(d), cmd, ...(pwd ? { pwd } : {}) });
}

/** The operation history of a device, paged (page is 0-based on the wire). */
export function useOperationLog(d: DeviceTupleLike, page: number, pagesize: number) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'operationLog', { page, pagesize }),
    queryFn: () => api.call('webQueryOperationLog', { ...tupleOf(d), page, pagesize }),
    placeholderData: keepPreviousData,
  });
}

/** The caller's export files; polled every 2 s while one is still exporting. */
export function useExportFiles(page: number, pagesize: number) {
  return useQuery({
    queryKey: opsKeys.exportFiles(page, pagesize),
    queryFn: () => api.call('webQueryExportFiles', { page, pagesize }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.file.some((f) => f.status === 0) ? 2000 : false),
  });
}

export function useExportReport(d: DeviceTupleLike) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (range: { sdate: string; edate: string }) => api.call('exportDeviceReport', { ...tupleOf(d), ...range }),
    onSuccess: () => qc.invalidateQueries({ queryKey: opsKeys.exportFilesAll }),
  });
}

export function useDeleteExportFile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call('delExportFile', { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: opsKeys.exportFilesAll }),
  });
}

/** Builds a failed export file again (same record); the list then polls its progress. */
export function useRetryExportFile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call('retryExportFile', { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: opsKeys.exportFilesAll }),
  });
}

/** The yearly totals of one key parameter; `undefined` when the device has no such counter (err 6). */
export type YearTotals = Array<{ val: string; gts: string }> | 'none' | 'empty';

/**
 * querySPDeviceKeyParameterTotalPerYear for every key parameter at once: a device has only some
 * of the counters (err 6 → 'none'); err 12 (no data yet) → 'empty'. Other errors fail the query.
 */
export function useKeyParameterTotals(d: DeviceTupleLike) {
  return useQueries({
    queries: KEY_PARAMETER_TOTALS.map((parameter) => ({
      queryKey: deviceKeys.part(d, 'keyTotals', { parameter }),
      queryFn: async (): Promise<YearTotals> => {
        try {
          return (await api.call('querySPDeviceKeyParameterTotalPerYear', { ...tupleOf(d), parameter })).option;
        } catch (e) {
          if (e instanceof ApiCallError && e.err === 6) return 'none';
          if (e instanceof ApiCallError && e.err === 12) return 'empty';
          throw e;
        }
      },
      staleTime: 5 * 60_000,
    })),
    combine: (rs) => ({
      pending: rs.some((r) => r.isPending),
      error: rs.find((r) => r.isError)?.error ?? null,
      refetch: () => rs.forEach((r) => void r.refetch()),
      byParameter: new Map<KeyParameterTotal, YearTotals>(
        KEY_PARAMETER_TOTALS.flatMap((p, i) => (rs[i]?.data === undefined ? [] : [[p, rs[i].data] as const])),
      ),
    }),
  });
}

export function exportFileUrl(id: number) {
  return api.call('queryExportFileUrl', { id });
}

/** After a device edit every cached view of the device (and every list naming it) is stale. */
function useDeviceInvalidation() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: deviceKeys.all });
}

export function useEditAlias(d: DeviceTupleLike) {
  const invalidate = useDeviceInvalidation();
  return useMutation({
    mutationFn: (alias: string) => api.call('editDeviceInfo', { ...tupleOf(d), alias }),
    onSuccess: invalidate,
  });
}

export function useRemoveFromPlant(d: DeviceTupleLike) {
  const invalidate = useDeviceInvalidation();
  return useMutation({
    mutationFn: () => api.call('delDeviceFromPlant', tupleOf(d)),
    onSuccess: invalidate,
  });
}

export interface HelpformValues {
  sn: string;
  sn2: string;
  devaddr: number;
  devaddr2: number;
  devcode: number;
  sdate: string;
  edate: string;
}

export function syncDeviceData(v: HelpformValues) {
  return api.call('syncDeviceData', { ...v });
}

export function recalcDeviceData(v: HelpformValues) {
  return api.call('recalcDeviceData', { ...v });
}

/** A device found by its SN alone (helpform: edit alias, remove from plant). */
export function findDeviceBySn(sn: string) {
  return api.call('queryDeviceInfo', { sn });
}

/** The device's record (the same query and cache as the device detail's own). */
export function useDeviceRecord(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'info'),
    queryFn: async () => (await api.call('queryDeviceInfo', tupleOf(d))).device[0] ?? null,
  });
}
