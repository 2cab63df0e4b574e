import { useMutation } from '@tanstack/react-query';
import { rc4EncryptHex, sha1Hex } from '@sunwatch/protocol';
import { api } from '../../../app/api';

/** Wire form of updatePassword: newpwd = hex(RC4(key sha1(old), sha1(new))). */
export function encodeNewPassword(oldPassword: string, newPassword: string): string {
  return rc4EncryptHex(sha1Hex(oldPassword), sha1Hex(newPassword));
}

export function useUpdatePasswordMutation() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      api.call('updatePassword', { newpwd: encodeNewPassword(oldPassword, newPassword) }),
  });
}
