/**
 * Plant writes (issue 10 "Plants"): addPlant, editPlant, editPlantEnergyOffset, delPlant and the
 * picture upload. Each success refetches every plants query (lists, map, the plant page).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Catalogue, type ParamsOf } from '@sunwatch/protocol';
import { accessFor } from '../../../app/access';
import { api } from '../../../app/api';
import { uploadAction } from '../../../app/upload';
import { useSession } from '../../../app/use-session';
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

/** Owners offered per search in the plant form's owner picker (searched on the server, not a full list). */
export const OWNER_PICKER_PAGE = 20;

/**
 * Owners an administrator may create a plant for, searched by account name: the owners in its
 * reach (queryPlantOwners: its tree, owners without any plant too), first page of the search.
 * `listsOwners` is false for a sub-administrator without account management (queryPlantOwners is
 * that module's; the page never sends it then): it gets the owners of the plants it sees
 * (queryPlantsInfo, the project pages' own permission) instead.
 */
export async function fetchPlantOwnerChoices(
  search: string,
  listsOwners = true,
): Promise<{ owners: Array<{ uid: number; usr: string }>; more: boolean }> {
  const usr = search.trim();
  if (listsOwners) {
    const r = await api.call('queryPlantOwners', { usr: usr || undefined, page: 0, pagesize: OWNER_PICKER_PAGE });
    return { owners: r.plantOwner.map((o) => ({ uid: o.uid, usr: o.usr })), more: r.total > r.plantOwner.length };
  }
  const { info } = await api.call('queryPlantsInfo', {});
  const byUid = new Map<number, string>();
  const needle = usr.toLowerCase();
  for (const p of info) if (p.uid > 0 && !byUid.has(p.uid) && p.usr.toLowerCase().includes(needle)) byUid.set(p.uid, p.usr);
  const owners = [...byUid].map(([uid, name]) => ({ uid, usr: name })).sort((a, b) => a.usr.localeCompare(b.usr));
  return { owners: owners.slice(0, OWNER_PICKER_PAGE), more: owners.length > OWNER_PICKER_PAGE };
}

export function usePlantOwnerChoices(search: string, enabled: boolean) {
  const listsOwners = accessFor(useSession()).hasModule('account_manag');
  return useQuery({
    queryKey: [...plantKeys.all, 'owners', listsOwners, search.trim()],
    queryFn: () => fetchPlantOwnerChoices(search, listsOwners),
    placeholderData: (previous) => previous,
    enabled,
  });
}
