import { describe, expect, it } from 'vitest';
import type { ApiError } from '@sunwatch/protocol';
import { dayRange } from './day-range.js';

const NOW = Date.UTC(2026, 5, 15, 4, 0, 0);

describe('dayRange (reports and helpform tools)', () => {
  it('accepts up to 31 days ending today and gives the local instants', () => {
    const r = dayRange('2026-05-16', '2026-06-15', 3600, NOW);
    expect(r.days).toHaveLength(31);
    expect(r.from).toBe(Date.UTC(2026, 4, 16) - 3600_000);
    expect(r.to).toBe(Date.UTC(2026, 5, 16) - 3600_000);
  });

  it('refuses 32 days, a reversed range, a future day and a bad date with err 6', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ApiError).code;
      }
      return 0;
    };
    expect(code(() => dayRange('2026-05-15', '2026-06-15', 3600, NOW))).toBe(6);
    expect(code(() => dayRange('2026-06-10', '2026-06-09', 3600, NOW))).toBe(6);
    expect(code(() => dayRange('2026-06-10', '2026-06-16', 3600, NOW))).toBe(6);
    expect(code(() => dayRange('2026-02-30', '2026-03-01', 3600, NOW))).toBe(6);
  });
});
