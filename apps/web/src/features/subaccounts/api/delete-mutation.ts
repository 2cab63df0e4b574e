/** delPlantBrowser from the viewer list (the row's delete, after its confirmation). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { subaccountKeys } from './keys';

export function useDeleteViewer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (uid: number) => api.call('delPlantBrowser', { uid }),
    onSuccess: () => qc.invalidateQueries({ queryKey: subaccountKeys.all }),
  });
}
