/**
 * Calls of the operator's custom-domain and passwordMaintenance pages (issue 14; protocol
 * actions/custom-domains.ts, docs/operator/domains.md). Every write invalidates its list; none is
 * retried.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, CustomDomainImageKind, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { uploadAction } from '../../../app/upload';

export type DomainListParams = ParsedParamsOf<Catalogue['queryCustomDomainList']>;
export type AddDomainParams = ParamsOf<Catalogue['addCustomDomain']>;
export type VendorPwdListParams = ParsedParamsOf<Catalogue['queryVendorCtrlPwdList']>;

export const domainQueryKeys = {
  all: ['customDomains'] as const,
  list: (p: DomainListParams) => ['customDomains', 'list', p] as const,
};
export const vendorPwdQueryKeys = {
  all: ['vendorCtrlPwd'] as const,
  list: (p: VendorPwdListParams) => ['vendorCtrlPwd', 'list', p] as const,
};

/** One page of the custom domains (server-paged, searched and filtered). */
export function useCustomDomains(params: DomainListParams) {
  return useQuery({
    queryKey: domainQueryKeys.list(params),
    queryFn: () => api.call('queryCustomDomainList', params),
    placeholderData: keepPreviousData,
  });
}

/** One page of the manufacturers with their password state (also the domain dialog's picker). */
export function useVendorCtrlPwds(params: VendorPwdListParams, enabled = true) {
  return useQuery({
    queryKey: vendorPwdQueryKeys.list(params),
    queryFn: () => api.call('queryVendorCtrlPwdList', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: domainQueryKeys.all });
    await qc.invalidateQueries({ queryKey: vendorPwdQueryKeys.all });
  };
}

export function useSaveDomain() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (p: { id?: number; params: AddDomainParams }) =>
      p.id === undefined
        ? (await api.call('addCustomDomain', p.params)).id
        : (await api.call('editCustomDomain', { id: p.id, ...p.params }), p.id),
    onSettled: invalidate,
  });
}

export function useUploadDomainImage() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number; kind: CustomDomainImageKind; file: File }) =>
      uploadAction('uploadCustomDomainImage', { id: p.id, kind: p.kind }, p.file, p.file.name),
    onSettled: invalidate,
  });
}

export function useRemoveDomainImage() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number; kind: CustomDomainImageKind }) => api.call('delCustomDomainImage', p),
    onSettled: invalidate,
  });
}

export function useSetDomainEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { id: number; enabled: boolean }) =>
      api.call('setCustomDomainEnabled', { id: p.id, enabled: p.enabled ? '1' : '0' }),
    onSettled: invalidate,
  });
}

export function useDeleteDomain() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.call('delCustomDomain', { id }), onSettled: invalidate });
}

export function useSetVendorCtrlPwd() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { vendor: number; pwd: string; confirmPwd: string }) => api.call('setVendorCtrlPwd', p),
    onSettled: invalidate,
  });
}

export function useClearVendorCtrlPwd() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (vendor: number) => api.call('clearVendorCtrlPwd', { vendor }),
    onSettled: invalidate,
  });
}
