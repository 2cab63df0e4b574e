/** Query keys of the upgrade-strategies feature. */
export const strategyKeys = {
  all: ['strategies'] as const,
  list: (params: object) => [...strategyKeys.all, 'list', params] as const,
  devices: (params: object) => [...strategyKeys.all, 'devices', params] as const,
  pickable: (params: object) => [...strategyKeys.all, 'pickable', params] as const,
};
