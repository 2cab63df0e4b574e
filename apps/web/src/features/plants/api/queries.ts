/**
 * Query hooks of the plant page (TanStack Query over the typed action client). err 12 (no
 * record) is "no data yet": the hooks answer null, the page shows an empty state.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiCallError, type PlantCurrentKey } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { plantPageKeys } from './keys';

/** Live figures refresh as the device pages do (uploads come every few minutes). */
export const PLANT_REFRESH_MS = 45_000;

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

export function usePlantInfo(pid: number) {
  return useQuery({
    queryKey: plantPageKeys.plant(pid),
    queryFn: () => api.call('queryPlantInfo', { plantid: pid }),
    enabled: pid > 0,
  });
}

/** The tiles of the page, in this order. */
export const PLANT_FIGURE_KEYS = [
  'CURRENT_POWER',
  'ENERGY_TODAY',
  'ENERGY_MONTH',
  'ENERGY_YEAR',
  'ENERGY_TOTAL',
  'ENERGY_PROCEEDS',
  'ENERGY_CO2',
  'ENERGY_COAL',
  'BATTERY_SOC',
  'CURRENT_RADIANT',
  'CURRENT_TEMP',
] as const satisfies readonly PlantCurrentKey[];

export function usePlantFigures(pid: number) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'current'),
    queryFn: async () => {
      const rows = await api.call('queryPlantCurrentData', { plantid: pid, par: PLANT_FIGURE_KEYS.join(',') });
      return Object.fromEntries(rows.map((r) => [r.key, r.val])) as Partial<Record<PlantCurrentKey, string>>;
    },
    refetchInterval: PLANT_REFRESH_MS,
    enabled: pid > 0,
  });
}

/**
 * The plant's row of the web list: consumption and grid exchange (its meters / hybrids), today's
 * income and the device counts. Found by its name, then picked by pid.
 */
export function usePlantRow(pid: number, name: string | undefined) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'row', { name }),
    queryFn: async () => {
      const list = await api.call('webQueryPlants', { page: 0, pagesize: 50, plantName: name ?? '' });
      return list.plant.find((p) => p.pid === pid) ?? null;
    },
    refetchInterval: PLANT_REFRESH_MS,
    enabled: pid > 0 && !!name,
  });
}

export function usePlantPowerDay(pid: number, date: string | undefined) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'powerDay', { date }),
    queryFn: () => orEmpty(api.call('queryPlantActiveOuputPowerOneDay', { plantid: pid, date: date ?? '' })),
    enabled: pid > 0 && !!date,
    refetchInterval: PLANT_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export type PlantEnergyView = 'month' | 'year' | 'total';

/** Energy per day of a month, per month of a year, per year; `{val, ts}` buckets. */
export function usePlantEnergy(pid: number, view: PlantEnergyView, date: string | undefined) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'energy', { view, date }),
    queryFn: async () => {
      if (view === 'month') return (await orEmpty(api.call('queryPlantEnergyMonthPerDay', { plantid: pid, date: date ?? '' })))?.perday ?? null;
      if (view === 'year') return (await orEmpty(api.call('queryPlantEnergyYearPerMonth', { plantid: pid, date: date ?? '' })))?.permonth ?? null;
      return (await orEmpty(api.call('queryPlantEnergyTotalPerYear', { plantid: pid })))?.peryear ?? null;
    },
    enabled: pid > 0 && (view === 'total' || !!date),
    placeholderData: keepPreviousData,
  });
}

export function usePlantDevices(pid: number) {
  return useQuery({
    queryKey: plantPageKeys.part(pid, 'devices'),
    queryFn: () => api.call('queryPlantDeviceStatus', { plantid: pid }),
    refetchInterval: PLANT_REFRESH_MS,
    enabled: pid > 0,
  });
}
