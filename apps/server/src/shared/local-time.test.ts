import { describe, expect, it } from 'vitest';
import { addDays, dayOf, dayStartMs, fmtTs, localDay, parseLocal } from './local-time.js';
import { num4 } from './wire-format.js';

describe('telemetry local time', () => {
  const t = Date.UTC(2025, 2, 31, 20, 5, 9); // 2025-03-31 20:05:09 UTC
  it('formats instants in the plant timezone', () => {
    expect(fmtTs(t, 0)).toBe('2025-03-31 20:05:09');
    expect(fmtTs(t, 28800)).toBe('2025-04-01 04:05:09');
    expect(fmtTs(t, 19800)).toBe('2025-04-01 01:35:09');
    expect(fmtTs(t, -36000)).toBe('2025-03-31 10:05:09');
  });
  it('derives local days and their bounds', () => {
    expect(localDay(t, 28800)).toBe(20250401);
    expect(localDay(t, 0)).toBe(20250331);
    expect(dayStartMs(20250401, 28800)).toBe(Date.UTC(2025, 2, 31, 16));
    expect(parseLocal('2025-04-01 04:05:09', 28800)).toBe(t);
    expect(addDays(20250228, 1)).toBe(20250301);
    expect(addDays(20250101, -1)).toBe(20241231);
  });
  it('rejects impossible dates with err 6', () => {
    expect(() => dayOf('2025-02-30')).toThrow(expect.objectContaining({ code: 6 }));
    expect(dayOf('2025-2-3')).toBe(20250203);
  });
  it('writes 4-decimal wire numbers', () => {
    expect(num4(1.23456)).toBe('1.2346');
    expect(num4(-0.00001)).toBe('0.0000');
    expect(num4(undefined)).toBe('0.0000');
  });
});
