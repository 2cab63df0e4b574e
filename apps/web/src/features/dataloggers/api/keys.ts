/** Query keys of the datalogger screens; every mutation invalidates `all`. */
export const dataloggerKeys = {
  all: ['dataloggers'] as const,
  list: (params: object) => [...dataloggerKeys.all, 'list', params] as const,
  detail: (pn: string) => [...dataloggerKeys.all, 'detail', pn] as const,
  devices: (pn: string) => [...dataloggerKeys.all, 'devices', pn] as const,
  log: (params: object) => [...dataloggerKeys.all, 'log', params] as const,
  history: (params: object) => [...dataloggerKeys.all, 'history', params] as const,
  plants: (params: object) => [...dataloggerKeys.all, 'plants', params] as const,
};
