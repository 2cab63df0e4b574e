/** Query hooks of the plants (projects), shared by the projects page, the overview and the device map. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../../app/api';
import { usePagedQuery } from '../../../../components/list';
import { plantKeys } from './keys';

export interface PlantListParams {
  page: number;
  pagesize: number;
  plantName?: string;
  statusFilter?: number;
}

export function usePlantList(params: PlantListParams, enabled = true) {
  return usePagedQuery(plantKeys.list(params), () => api.call('webQueryPlants', { ...params }), enabled);
}

export function usePlantsMap(params: { plantName?: string; status?: number }, enabled = true) {
  return useQuery({
    queryKey: plantKeys.map(params),
    queryFn: () => api.call('webQueryPlantsMap', { ...params }),
    enabled,
  });
}
