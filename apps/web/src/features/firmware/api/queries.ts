/**
 * Calls of the firmware library pages (issue 13; protocol actions/firmware.ts, docs/firmware/library.md).
 * Every write invalidates the library's queries; none is retried.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { uploadAction } from '../../../app/upload';

export type FirmwareListParams = ParsedParamsOf<Catalogue['queryFirmwares']>;
export type UploadParams = ParamsOf<Catalogue['uploadFirmware']>;
export type EditParams = ParamsOf<Catalogue['editFirmware']>;

export const firmwareKeys = {
  all: ['firmware'] as const,
  list: (p: FirmwareListParams) => ['firmware', 'list', p] as const,
  defaults: ['firmware', 'defaults'] as const,
  keys: ['firmware', 'keys'] as const,
};

/** One page of the library (server-paged and filtered). */
export function useFirmwares(params: FirmwareListParams, enabled = true) {
  return useQuery({
    queryKey: firmwareKeys.list(params),
    queryFn: () => api.call('queryFirmwares', params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useDefaultFirmwares() {
  return useQuery({ queryKey: firmwareKeys.defaults, queryFn: () => api.call('queryDefaultFirmwares', {}) });
}

/** The signing keys; answers 11 for anyone but a manufacturer (the card then stays hidden). */
export function useFirmwareKeys() {
  return useQuery({ queryKey: firmwareKeys.keys, queryFn: () => api.call('queryFirmwareKeys', {}), retry: false });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: firmwareKeys.all });
}

export function useUploadFirmware() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { params: UploadParams; file: File; onProgress: (pct: number) => void }) =>
      uploadAction('uploadFirmware', p.params, p.file, p.file.name, { onProgress: p.onProgress }),
    onSettled: invalidate,
  });
}

export function useEditFirmware() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (p: EditParams) => api.call('editFirmware', p), onSettled: invalidate });
}

export function useDeleteFirmware() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (firmware: string) => api.call('delFirmware', { firmware }),
    onSettled: invalidate,
  });
}

export function useSetDefaultFirmware() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { dataloggerType: string; firmware: string }) => api.call('setDefaultFirmware', p),
    onSettled: invalidate,
  });
}

export function useAddFirmwareKey() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (p: { name: string; publicKey: string }) => api.call('addFirmwareKey', p),
    onSettled: invalidate,
  });
}

export function useRevokeFirmwareKey() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.call('revokeFirmwareKey', { id }), onSettled: invalidate });
}

/** A signed download address, then the browser's own download (like the report exports). */
export function downloadFirmware(firmware: string) {
  return api.call('downloadFirmware', { firmware });
}
