/** Query keys of the alarm screens; every mutation invalidates `all`. */
export const alarmKeys = {
  all: ['alarms'] as const,
  list: (params: object) => [...alarmKeys.all, 'list', params] as const,
  device: (params: object) => [...alarmKeys.all, 'device', params] as const,
  stats: (params: object) => [...alarmKeys.all, 'stats', params] as const,
  rules: (params: object) => [...alarmKeys.all, 'rules', params] as const,
  plants: (params: object) => [...alarmKeys.all, 'plants', params] as const,
};
