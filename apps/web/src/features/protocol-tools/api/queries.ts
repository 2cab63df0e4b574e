/**
 * Calls of the operator's protocol tools (issue 14; protocol actions/protocol-tools.ts). All reads;
 * `parseRawData` is a mutation only in the sense that the operator triggers it (nothing changes).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { protocolToolKeys } from './keys';

type Params<N extends keyof Catalogue> = ParamsOf<Catalogue[N]>;

/** Every devcode (eight today; one page of 50 holds them), for the pickers. */
export function useAllDefinitions() {
  const p = { pagesize: 50 };
  return useQuery({
    queryKey: protocolToolKeys.definitions(p),
    queryFn: () => api.call('webQueryProtocolDefinitions', p),
    staleTime: Infinity,
  });
}

export function useDefinitions(p: { q: string; kind: string; page: number; pagesize: number }) {
  return usePagedQuery(protocolToolKeys.definitions(p), () => api.call('webQueryProtocolDefinitions', p));
}

export function useFields(
  p: { devcode: number; q: string; group: string; page: number; pagesize: number },
  enabled: boolean,
) {
  return usePagedQuery(protocolToolKeys.fields(p), () => api.call('webQueryProtocolFields', p), enabled);
}

export function useControls(p: { devcode: number; q: string; page: number; pagesize: number }, enabled: boolean) {
  return usePagedQuery(protocolToolKeys.controls(p), () => api.call('webQueryProtocolControls', p), enabled);
}

export function useFaults(p: { devcode: number; q: string; page: number; pagesize: number }, enabled: boolean) {
  return usePagedQuery(protocolToolKeys.faults(p), () => api.call('webQueryProtocolFaults', p), enabled);
}

export function useParseRawData() {
  return useMutation({ mutationFn: (p: Params<'parseRawData'>) => api.call('parseRawData', p) });
}

export function useStoredRaw(
  p: {
    pn: string;
    devcode: number;
    devaddr: number;
    sn: string;
    from: number;
    to: number;
    page: number;
    pagesize: number;
  },
  enabled: boolean,
) {
  return usePagedQuery(protocolToolKeys.stored(p), () => api.call('webQueryDeviceRawData', p), enabled);
}

export function useDeviceFunctions(p: { q: string; page: number; pagesize: number }) {
  return usePagedQuery(protocolToolKeys.deviceFunctions(p), () => api.call('webQueryDeviceFunctions', p));
}

export function useTypeFunctions(p: { q: string; page: number; pagesize: number }, enabled: boolean) {
  return usePagedQuery(
    protocolToolKeys.typeFunctions(p),
    () => api.call('webQueryDataloggerTypeFunctions', p),
    enabled,
  );
}
