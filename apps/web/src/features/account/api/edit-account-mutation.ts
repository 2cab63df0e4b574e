import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AvatarDat } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { uploadAction } from '../../../app/upload';
import { accountKeys } from './keys';

export type BasicInfoPatch = {
  qname?: string;
  cname?: string;
  caddr?: string;
  ctel?: string;
  photo?: string;
};

/** editAccount with the changed fields only (omitted = unchanged, empty = cleared); refreshes the account info. */
export function useEditAccountMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: BasicInfoPatch) => api.call('editAccount', patch),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.info() }),
  });
}

/** uploadAvatar then editAccount photo=: the picture becomes the account's avatar. */
export function useAvatarUpload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, onProgress }: { file: File; onProgress?: (p: number) => void }): Promise<AvatarDat> => {
      const dat = await uploadAction('uploadAvatar', {}, file, file.name, { onProgress });
      await api.call('editAccount', { photo: dat.photo });
      return dat;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.info() }),
  });
}
