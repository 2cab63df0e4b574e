/**
 * The device-control password of the manufacturer's domain (spec §3: one per custom domain):
 * whether one is set and when it changed (queryDeviceCtrlPwd), set or clear it
 * (setDeviceCtrlPwd, an empty `pwd` clears). The password itself never comes back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { accountKeys } from './keys';

export const ctrlPwdKey = [...accountKeys.all, 'deviceCtrlPwd'] as const;

export function useDeviceCtrlPwd(enabled: boolean) {
  return useQuery({ queryKey: ctrlPwdKey, queryFn: () => api.call('queryDeviceCtrlPwd', {}), enabled });
}

export function useSetDeviceCtrlPwd() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (pwd: string) => api.call('setDeviceCtrlPwd', { pwd }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ctrlPwdKey }),
  });
}
