import { describe, expect, it } from 'vitest';
import { alarmDurationMs, wireInstant } from './time';

describe('alarm times', () => {
  it('reads a wire time in the plant timezone', () => {
    expect(wireInstant('2026-11-24 10:00:00', 3600)).toBe(Date.UTC(2026, 10, 24, 9, 0, 0));
    expect(wireInstant('2026-11-24 10:00', -18000)).toBe(Date.UTC(2026, 10, 24, 15, 0, 0));
    expect(wireInstant('', 0)).toBeUndefined();
    expect(wireInstant('yesterday', 0)).toBeUndefined();
  });
  it('measures ended alarms between their times and ongoing ones until now', () => {
    expect(alarmDurationMs({ gts: '2026-11-24 10:00:00', ets: '2026-11-24 12:30:00', timezone: 3600 }, 0)).toBe(2.5 * 3_600_000);
    const now = Date.UTC(2026, 10, 24, 10, 0, 0);
    expect(alarmDurationMs({ gts: '2026-11-24 10:00:00', ets: '', timezone: 3600 }, now)).toBe(3_600_000);
    expect(alarmDurationMs({ gts: '', ets: '', timezone: 0 }, now)).toBeUndefined();
  });
});
