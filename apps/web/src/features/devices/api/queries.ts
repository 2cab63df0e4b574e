/**
 * Query hooks of the device detail screens (TanStack Query over the typed action client). Every
 * device call names the device by its tuple.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiCallError } from '@sunwatch/protocol';
import dayjs, { type Dayjs } from 'dayjs';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { plantTodayDayjs } from '../../../app/plant-day';
import { deviceKeys } from '../../shared/devices/api/keys';
import { tupleOf } from '../../shared/devices/api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';

/** Live panels refresh every 45 s (spec: 30–60 s; uploads come every few minutes). */
export const LIVE_REFRESH_MS = 45_000;

/** err 12 (no record) is "no data yet": an empty state, never an error notice. */
export function isNoRecord(e: unknown): boolean {
  return e instanceof ApiCallError && e.err === 12;
}

async function orEmpty<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isNoRecord(e)) return null;
    throw e;
  }
}

export function useDeviceInfo(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'info'),
    queryFn: async () => (await api.call('queryDeviceInfo', tupleOf(d))).device[0] ?? null,
  });
}

export function useLastData(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'last'),
    queryFn: () => orEmpty(api.call('querySPDeviceLastData', tupleOf(d))),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useEnergyFlow(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'flow'),
    queryFn: () => orEmpty(api.call('webQueryDeviceEnergyFlowEs', tupleOf(d))),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useDeviceStatistic(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'statistic'),
    queryFn: () => api.call('webQueryDeviceStatistic', tupleOf(d)),
    refetchInterval: LIVE_REFRESH_MS * 2,
  });
}

export type EnergyView = 'day' | 'month' | 'year' | 'total';

/** `date` undefined: the total view (no date); `enabled` false while the plant's today is unknown. */
export function useEnergyChart(d: DeviceTupleLike, view: EnergyView, date: string | undefined, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'energyChart', { view, date }),
    queryFn: () => orEmpty(api.call('webQueryDeviceEnergyChart', { ...tupleOf(d), view, ...(date ? { date } : {}) })),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useChartFields(d: DeviceTupleLike) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'chartFields'),
    queryFn: async () => (await orEmpty(api.call('queryDeviceChartsFieldsEs', tupleOf(d)))) ?? [],
    staleTime: 10 * 60_000,
  });
}

export function useParamCurves(
  d: DeviceTupleLike,
  fields: readonly string[],
  sdate: string,
  edate: string,
  mode: 'display' | 'compare',
  enabled: boolean,
) {
  return useQuery({
    queryKey: deviceKeys.part(d, 'curves', { fields, sdate, edate, mode }),
    queryFn: () =>
      orEmpty(api.call('webQueryDeviceParamCurves', { ...tupleOf(d), fields: fields.join(','), sdate, edate, mode })),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** One day's samples, paged; `date` (the plant's "YYYY-MM-DD") undefined: not yet known, no call. */
export function useDayData(d: DeviceTupleLike, date: string | undefined, page: number, pagesize: number) {
  return usePagedQuery(
    deviceKeys.part(d, 'dayData', { date, page, pagesize }),
    () => orEmpty(api.call('queryDeviceDataOneDayPaging', { ...tupleOf(d), date: date ?? '', page, pagesize })),
    date !== undefined,
  );
}

/**
 * The device's plant's today as a picker value (see app/plant-day.ts), from queryDeviceInfo's
 * `timezone`; undefined until the info has loaded. Re-evaluated on every render, so a page
 * left open across the plant's midnight moves on to the new day.
 */
export function usePlantToday(d: DeviceTupleLike): Dayjs | undefined {
  const info = useDeviceInfo(d);
  if (info.data) return plantTodayDayjs(info.data.timezone);
  // no device answer (error, or not found): no plant timezone is known; the tab's own query
  // (which fails the same way) shows the error
  if (info.isError || info.data === null) return dayjs().startOf('day');
  return undefined;
}
