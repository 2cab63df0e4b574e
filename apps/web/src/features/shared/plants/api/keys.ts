/** Query keys of the plants (projects) data. */
export const plantKeys = {
  all: ['projects'] as const,
  list: (params: object) => [...plantKeys.all, 'list', params] as const,
  map: (params: object) => [...plantKeys.all, 'map', params] as const,
};
