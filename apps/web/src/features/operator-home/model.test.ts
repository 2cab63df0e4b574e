import { describe, expect, it } from 'vitest';
import { formatBytes, formatMs, formatRate, hourLabel } from './model';

describe('operator home formats', () => {
  it('bytes in binary units', () => {
    expect(formatBytes(0, 'en_US')).toBe('0 B');
    expect(formatBytes(1536, 'en_US')).toBe('1.5 KB');
    expect(formatBytes(12.5 * 1024 ** 3, 'en_US')).toBe('12.5 GB');
  });
  it('rates and durations', () => {
    expect(formatRate(0.25, 'en_US')).toBe('25%');
    expect(formatRate(0.0123, 'en_US')).toBe('1.23%');
    expect(formatMs(850, 'en_US')).toBe('850 ms');
    expect(formatMs(2400, 'en_US')).toBe('2.4 s');
  });
  it('hour labels on the 24-hour clock', () => {
    const d = new Date(2026, 10, 28, 20, 0, 0).getTime();
    expect(hourLabel(d, 'en_US')).toBe('20:00');
  });
});
