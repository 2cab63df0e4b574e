/**
 * The device detail's alarm tab query (queryDeviceWarning needs \`device_manag\`, the device pages'
 * module, so it lives apart from the alarm pages' queries, which need \`alarm_manag\`).
 */
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { alarmKeys } from './keys';
import { orEmpty } from './queries';

export type DeviceAlarmParams = ParamsOf<Catalogue['queryDeviceWarning']>;

/** The alarms of one device (its detail page's alarm tab). */
export function useDeviceAlarms(params: DeviceAlarmParams) {
  return usePagedQuery(alarmKeys.device(params), () =>
    orEmpty(() => api.call('queryDeviceWarning', params), Number(params.pagesize ?? 10)),
  );
}

