import { useMutation } from '@tanstack/react-query';
import { encodePasswordChange } from '@sunwatch/protocol';
import { api } from '../../../app/api';

/**
 * updatePassword: newpwd = hex(RC4(key sha1(old), sha1(new))) as the vendor documents, plus
 * newpwdtext so the server can check the password rules itself (strict policy requires it).
 */
export function useUpdatePasswordMutation() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      api.call('updatePassword', encodePasswordChange(oldPassword, newPassword)),
  });
}
