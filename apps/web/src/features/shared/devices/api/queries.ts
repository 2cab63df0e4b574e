/**
 * Query hooks of the device list (shared by the device screens and the general homes): the
 * paged list on the list kit and the follow star. Every device call names the device by its tuple.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../../app/api';
import { showApiError } from '../../../../app/notify';
import { usePagedQuery } from '../../../../components/list';
import type { DeviceTupleLike } from '../paths';
import { deviceKeys } from './keys';
import type { DeviceListParams } from './list-params';

export function tupleOf(d: DeviceTupleLike) {
  return { pn: d.pn, devcode: Number(d.devcode), devaddr: Number(d.devaddr), sn: d.sn };
}

export function useDeviceList(params: DeviceListParams) {
  return usePagedQuery(deviceKeys.list(params), () => api.call('webQueryDeviceEs', { ...params }));
}

export function useFollowMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ device, follow }: { device: DeviceTupleLike; follow: boolean }) =>
      api.call(follow ? 'focusDevice' : 'unfocusDevice', tupleOf(device)),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...deviceKeys.all, 'list'] }),
    onError: (e) => showApiError(e),
  });
}

