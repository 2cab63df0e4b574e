/** Query keys of one plant's data (the plant page) under the shared plants key. */
import { plantKeys } from '../../shared/plants/api/keys';

export const plantPageKeys = {
  all: plantKeys.all,
  plant: (pid: number) => [...plantKeys.all, 'plant', pid] as const,
  part: (pid: number, part: string, params: object = {}) => [...plantKeys.all, 'plant', pid, part, params] as const,
};
