/**
 * Calls of the report exports (protocol actions/reports.ts): start a plant or device report,
 * the caller's report files (export history, polled while one is exporting), the signed
 * download address, delete; and the devices of a plant for the device picker.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { WIRE_MAX_PAGE_SIZE } from '../../../components/list';
import type { PeriodParams } from '../report-period';

export type ReportFile = ResultOf<Catalogue['webQueryReportFiles']>['file'][number];

export const reportKeys = {
  all: ['reports'] as const,
  files: (page: number, pagesize: number) => ['reports', 'files', page, pagesize] as const,
  devices: (pid: number) => ['reports', 'devices', pid] as const,
};

/** Poll interval of the history while a file is still exporting. */
export const EXPORT_POLL_MS = 1000;

export function useReportFiles(page: number, pagesize: number) {
  return useQuery({
    queryKey: reportKeys.files(page, pagesize),
    queryFn: () => api.call('webQueryReportFiles', { page, pagesize }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.file.some((f) => f.status === 0) ? EXPORT_POLL_MS : false),
  });
}

/** A device of a plant, by its tuple. */
export interface DeviceChoice {
  key: string;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  label: string;
}

export function usePlantDevices(pid: number | undefined) {
  return useQuery({
    queryKey: reportKeys.devices(pid ?? 0),
    enabled: !!pid,
    queryFn: async (): Promise<DeviceChoice[]> => {
      const r = await api.call('webQueryDeviceEs', { pid, page: 0, pagesize: WIRE_MAX_PAGE_SIZE });
      return r.device.map((d) => ({
        key: `${d.pn}|${d.devcode}|${d.devaddr}|${d.sn}`,
        pn: d.pn,
        devcode: d.devcode,
        devaddr: d.devaddr,
        sn: d.sn,
        label: d.devalias ? `${d.devalias} (${d.sn})` : d.sn,
      }));
    },
    staleTime: 60_000,
  });
}

export type ExportTarget = { scope: 'plant'; plantid: number } | { scope: 'device'; device: DeviceChoice };

export function useStartExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ target, period }: { target: ExportTarget; period: PeriodParams }) =>
      target.scope === 'plant'
        ? api.call('exportPlantReport', { plantid: target.plantid, ...period })
        : api.call('exportDeviceEnergyReport', {
            pn: target.device.pn,
            devcode: target.device.devcode,
            devaddr: target.device.devaddr,
            sn: target.device.sn,
            ...period,
          }),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

/** A history row is named by (origin, id): a device export (`export`) and a report file may share an id. */
export type FileRef = Pick<ReportFile, 'id' | 'origin'>;

export function useDeleteReportFile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (f: FileRef) => api.call('delReportFile', { id: f.id, origin: f.origin }),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

export function reportFileUrl(f: FileRef) {
  return api.call('queryReportFileUrl', { id: f.id, origin: f.origin });
}
