import { describe, expect, it } from 'vitest';
import { FILTER_ALL, filterToStatus, statusColor, statusFilterOptions, statusKey, statusToFilter } from './status';

describe('device status filter (spec §3: "all" at 0, the rest shifted by one)', () => {
  it('puts all at 0', () => {
    expect(FILTER_ALL).toBe(0);
    expect(filterToStatus(0)).toBeUndefined();
    expect(statusFilterOptions()[0]).toEqual({ value: 0, labelKey: 'devices:filter.all' });
  });
  it('shifts every status by one and back', () => {
    expect(statusFilterOptions().slice(1).map((o) => [o.value, o.status])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
    ]);
    for (const s of [0, 1, 2, 3, 4]) expect(filterToStatus(statusToFilter(s))).toBe(s);
  });
  it('labels and colours statuses, unknown ones as offline', () => {
    expect(statusKey(0)).toBe('normal');
    expect(statusKey(4)).toBe('warning');
    expect(statusKey(99)).toBe('offline');
    expect(statusColor(1)).toBe(statusColor(undefined));
  });
});
