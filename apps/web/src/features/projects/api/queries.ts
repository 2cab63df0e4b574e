import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';

export interface PlantListParams {
  page: number;
  pagesize: number;
  plantName?: string;
  statusFilter?: number;
}

export function usePlantList(params: PlantListParams, enabled = true) {
  return useQuery({
    queryKey: ['projects', 'list', params],
    queryFn: () => api.call('webQueryPlants', { ...params }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePlantsMap(params: { plantName?: string; status?: number }, enabled = true) {
  return useQuery({
    queryKey: ['projects', 'map', params],
    queryFn: () => api.call('webQueryPlantsMap', { ...params }),
    enabled,
  });
}
