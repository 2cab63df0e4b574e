/**
 * Device status codes (spec §3, wire-protocol §5) and the list filter of spec §3: the
 * filter puts "all" at 0 and shifts every status by one (filter 1 = normal/0, …).
 */
export const DEVICE_STATUS_KEYS = ['normal', 'offline', 'fault', 'standby', 'warning', 'error', 'protocolError'] as const;
export type DeviceStatusKey = (typeof DEVICE_STATUS_KEYS)[number];

/** The statuses a list can filter by (spec §3: 0 normal … 4 warning). */
export const FILTERABLE_STATUSES = [0, 1, 2, 3, 4] as const;

/** Colours (portal-screens.md §13). */
const COLORS: Record<DeviceStatusKey, string> = {
  normal: '#52c41a',
  offline: '#8c8c8c',
  fault: '#f5222d',
  standby: '#1677ff',
  warning: '#fa8c16',
  error: '#cf1322',
  protocolError: '#722ed1',
};

/** antd Tag/Badge colour names of the same palette. */
const TAGS: Record<DeviceStatusKey, string> = {
  normal: 'success',
  offline: 'default',
  fault: 'error',
  standby: 'processing',
  warning: 'warning',
  error: 'red',
  protocolError: 'purple',
};

export function statusKey(status: number | undefined | null): DeviceStatusKey {
  return DEVICE_STATUS_KEYS[status ?? 1] ?? 'offline';
}

export function statusColor(status: number | undefined | null): string {
  return COLORS[statusKey(status)];
}

export function statusTagColor(status: number | undefined | null): string {
  return TAGS[statusKey(status)];
}

/** i18n key of a status label (`devices` namespace). */
export function statusLabelKey(status: number | undefined | null): string {
  return `devices:status.${statusKey(status)}`;
}

/** Filter value 0 = all. */
export const FILTER_ALL = 0;

/** Filter value of a device status: status + 1. */
export function statusToFilter(status: number): number {
  return status + 1;
}

/** Device status of a filter value; undefined for "all". */
export function filterToStatus(filter: number): number | undefined {
  return filter <= FILTER_ALL ? undefined : filter - 1;
}

/** The filter's options in order: all first, then each status shifted by one. */
export function statusFilterOptions(): Array<{ value: number; labelKey: string; status?: number }> {
  return [
    { value: FILTER_ALL, labelKey: 'devices:filter.all' },
    ...FILTERABLE_STATUSES.map((s) => ({ value: statusToFilter(s), labelKey: statusLabelKey(s), status: s })),
  ];
}
