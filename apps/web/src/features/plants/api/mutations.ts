/**
 * Plant writes (issue 10 "Plants"): addPlant, editPlant, editPlantEnergyOffset, delPlant and the
 * picture upload. Each success refetches every plants query (lists, map, the plant page).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { uploadAction } from '../../../app/upload';
import { plantKeys } from '../../shared/plants/api/keys';

export function usePlantWrites() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: plantKeys.all });
  const add = useMutation({
    mutationFn: (p: ParamsOf<Catalogue['addPlant']>) => api.call('addPlant', p),
    onSuccess: done,
  });
  const edit = useMutation({
    mutationFn: (p: ParamsOf<Catalogue['editPlant']>) => api.call('editPlant', p),
    onSuccess: done,
  });
  const offset = useMutation({
    mutationFn: (p: ParamsOf<Catalogue['editPlantEnergyOffset']>) => api.call('editPlantEnergyOffset', p),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (plantid: number) => api.call('delPlant', { plantid }),
    onSuccess: done,
  });
  return { add, edit, offset, remove };
}

/** Uploads a plant picture (jpg/png ≤ 1 MB); the server answers its URL and thumbnail. */
export function uploadPlantPicture(file: File, onProgress: (percent: number) => void) {
  return uploadAction('uploadPlantImage', {}, file, file.name, { onProgress });
}

/**
 * Owners an administrator may create a plant for: the owners of the plants it sees
 * (queryPlantsInfo, the project pages' own permission), distinct, by name.
 */
export function usePlantOwnerChoices(enabled: boolean) {
  return useQuery({
    queryKey: [...plantKeys.all, 'owners'],
    queryFn: async () => {
      const { info } = await api.call('queryPlantsInfo', {});
      const byUid = new Map<number, string>();
      for (const p of info) if (p.uid > 0 && !byUid.has(p.uid)) byUid.set(p.uid, p.usr);
      return [...byUid].map(([uid, usr]) => ({ uid, usr })).sort((a, b) => a.usr.localeCompare(b.usr));
    },
    enabled,
  });
}
