/** Query hooks of the plant page's device tree and environment monitor (issue 10 actions). */
import { useQuery } from '@tanstack/react-query';
import { ApiCallError } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { plantPageKeys } from './keys';
import { PLANT_REFRESH_MS } from './queries';

/** queryPlantDeviceView: dataloggers (status, signal, firmware, last report) → devices, and the alarm count. */
export function usePlantDeviceView(pid: number) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'view'),
    queryFn: () => api.call('queryPlantDeviceView', { plantid: pid }),
    refetchInterval: PLANT_REFRESH_MS,
    enabled: pid > 0,
  });
}

/** The plant's environment monitors; null when it has none (err 265). */
export function usePlantEnvMonitor(pid: number) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'env'),
    queryFn: async () => {
      try {
        return (await api.call('queryPlantEnvMonitor', { plantid: pid })).device;
      } catch (e) {
        if (e instanceof ApiCallError && (e.err === 265 || e.err === 12)) return null;
        throw e;
      }
    },
    refetchInterval: PLANT_REFRESH_MS,
    enabled: pid > 0,
  });
}
