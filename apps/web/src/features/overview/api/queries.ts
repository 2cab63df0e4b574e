import { useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { overviewKeys } from './keys';

/** The browser's offset east of UTC in seconds (alarm-per-day buckets follow the viewer's days). */
export function localTimezoneSeconds(date = new Date()): number {
  return -date.getTimezoneOffset() * 60;
}

export function useFleetOverview() {
  return useQuery({
    queryKey: overviewKeys.fleet(),
    queryFn: () => api.call('webQueryFleetOverview', { timezone: localTimezoneSeconds() }),
    refetchInterval: 60_000,
  });
}
