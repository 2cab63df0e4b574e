/**
 * Reads of the operation history (issue 10: every write to a datalogger or a device), shared by
 * the device page (history tab) and the datalogger drawer (history tab).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { deviceKeys } from '../devices/api/keys';
import { tupleOf } from '../devices/api/queries';
import type { DeviceTupleLike } from '../devices/paths';

/** What the history is of: one device (its tuple), or a datalogger (its own operations and its devices'). */
export type OperationScope = { device: DeviceTupleLike } | { pn: string; queryKey: readonly unknown[] };

/**
 * The history, newest first, paged (page is 0-based on the wire). A device's rows live under the
 * device's query keys, a datalogger's under the `queryKey` its feature gives (so that the
 * feature's own invalidation after a write refreshes it).
 */
export function useOperationLog(scope: OperationScope, page: number, pagesize: number) {
  const paging = { page, pagesize };
  return useQuery({
    queryKey:
      'device' in scope
        ? deviceKeys.part(scope.device, 'operationLog', paging)
        : [...scope.queryKey, scope.pn, paging],
    queryFn: () =>
      api.call('webQueryOperationLog', { ...('device' in scope ? tupleOf(scope.device) : { pn: scope.pn }), ...paging }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The device's control fields (the same query, key and cache as the control tab's), read quietly:
 * they only name the written fields and their items; without them (no right to see them) the
 * history shows the field ids and raw values.
 */
export function useCtrlFieldNames(device: DeviceTupleLike | undefined) {
  return useQuery({
    queryKey: device ? deviceKeys.part(device, 'ctrlFields') : ['operations', 'noDevice'],
    queryFn: () => api.call('queryDeviceCtrlField', tupleOf(device!)),
    staleTime: 5 * 60_000,
    retry: false,
    enabled: device !== undefined,
  });
}
