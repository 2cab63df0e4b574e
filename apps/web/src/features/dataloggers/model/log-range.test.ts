import { describe, expect, it } from 'vitest';
import { defaultLogRange, logDayDisabled, logRangeError } from './log-range';

describe('datalogger log range', () => {
  it('defaults to the last three days', () => {
    expect(defaultLogRange('2026-03-01')).toEqual(['2026-02-27', '2026-03-01']);
    expect(logRangeError(...defaultLogRange('2026-03-01'), '2026-03-01')).toBeUndefined();
  });

  it('disables future days and days more than three days from the picked start', () => {
    expect(logDayDisabled('2026-03-02', '2026-03-01')).toBe(true);
    expect(logDayDisabled('2026-03-01', '2026-03-01')).toBe(false);
    expect(logDayDisabled('2026-02-20', '2026-03-01', '2026-02-22')).toBe(false);
    expect(logDayDisabled('2026-02-24', '2026-03-01', '2026-02-22')).toBe(false);
    expect(logDayDisabled('2026-02-25', '2026-03-01', '2026-02-22')).toBe(true);
  });

  it('refuses a longer or future range', () => {
    expect(logRangeError('2026-02-25', '2026-02-28', '2026-03-01')).toBe('rules.dateRange.logTooLong');
    expect(logRangeError('2026-03-01', '2026-03-02', '2026-03-01')).toBe('rules.dateRange.future');
  });
});
