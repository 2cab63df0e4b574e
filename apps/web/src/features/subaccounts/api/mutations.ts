/**
 * Writes of the sub-accounts page. Passwords are encrypted with the signed-in session's login
 * secret (vendor-actions.md §4); every write refreshes the viewer list. Only the form (loaded on
 * demand) uses these; the page's own delete lives in delete-mutation.ts, so that the page's first
 * load carries neither the form nor the rules.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { getSession } from '../../../app/session';
import { addViewerParams, editViewerParams, type ViewerFormValues } from '../viewer-form';
import { subaccountKeys } from './keys';

const secret = () => getSession()?.secret ?? '';

function useRefreshList() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: subaccountKeys.all });
}

export function useAddViewer() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (v: ViewerFormValues) => api.call('addPlantBrowser', addViewerParams(v, secret())),
    onSuccess: refresh,
  });
}

export function useEditViewer() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: ({ uid, values }: { uid: number; values: ViewerFormValues }) =>
      api.call('editPlantBrowser', editViewerParams(uid, values, secret())),
    onSuccess: refresh,
  });
}
