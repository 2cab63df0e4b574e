/**
 * Calls of the operator's protocol pages (issue 14; protocol actions/protocol-admin.ts,
 * docs/operator/protocol-admin.md). Lists are paged on the server; every write refreshes the
 * page's lists; none is retried.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { protocolAdminKeys } from './keys';

type Params<N extends keyof Catalogue> = ParamsOf<Catalogue[N]>;
type Paging = { search?: string; page: number; pagesize: number };

export function useTypeCodes(p: Paging) {
  return usePagedQuery(protocolAdminKeys.typeCodes(p), () => api.call('queryCollectorTypeCodes', p));
}

/** Every type code (a few dozen letters at most), for the binding form. */
export function useAllTypeCodes() {
  const p = { page: 0, pagesize: 100 };
  return useQuery({
    queryKey: protocolAdminKeys.typeCodes(p),
    queryFn: () => api.call('queryCollectorTypeCodes', p),
  });
}

export function useBindings(p: Paging & { devcode?: number }) {
  return usePagedQuery(protocolAdminKeys.bindings(p), () => api.call('queryProtocolBindings', p));
}

export function useChanges(p: Paging) {
  return usePagedQuery(protocolAdminKeys.changes(p), () => api.call('queryProtocolChanges', p));
}

export function useProtocolDevices(p: Params<'queryProtocolDevices'> | undefined) {
  return useQuery({
    queryKey: protocolAdminKeys.devices(p ?? {}),
    queryFn: () => api.call('queryProtocolDevices', p!),
    enabled: p !== undefined,
  });
}

/** A write; `call` names its action literally (the route-permission scan reads it). */
function useWrite<P>(call: (p: P) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => qc.invalidateQueries({ queryKey: ['protocolAdmin'] }),
  });
}

export const useAddTypeCode = () => useWrite((p: Params<'addCollectorTypeCode'>) => api.call('addCollectorTypeCode', p));
export const useEditTypeCode = () => useWrite((p: Params<'editCollectorTypeCode'>) => api.call('editCollectorTypeCode', p));
export const useAddBinding = () => useWrite((p: Params<'addProtocolBinding'>) => api.call('addProtocolBinding', p));
export const useSetBindingEnabled = () => useWrite((p: Params<'setProtocolBindingEnabled'>) => api.call('setProtocolBindingEnabled', p));
export const useDeleteBinding = () => useWrite((p: Params<'deleteProtocolBinding'>) => api.call('deleteProtocolBinding', p));
export const useChangeDevcode = () => useWrite((p: Params<'changeDeviceProtocol'>) => api.call('changeDeviceProtocol', p));

/** Every devcode with a definition (eight today; one page holds them), for the pickers. */
export function useDevcodes() {
  const p = { pagesize: 50 };
  return useQuery({
    queryKey: ['protocolAdmin', 'devcodes'],
    queryFn: () => api.call('webQueryProtocolDefinitions', p),
    staleTime: Infinity,
  });
}
