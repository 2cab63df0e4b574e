import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counterDayEnergy, dayEnergy, sumByPeriod, type DeviceDayRow } from './rollups.js';

function row(day: number, gen: [number, number] | null, used: [number, number] | null = null): DeviceDayRow {
  return {
    day,
    gen_min: gen?.[0] ?? null,
    gen_max: gen?.[1] ?? null,
    chg_min: null,
    chg_max: null,
    dis_min: null,
    dis_max: null,
    sold_min: null,
    sold_max: null,
    bought_min: null,
    bought_max: null,
    used_min: used?.[0] ?? null,
    used_max: used?.[1] ?? null,
  };
}

describe('day energy', () => {
  it('first day counts max − min, later days max − previous max, resets count from the min', () => {
    const e = dayEnergy([
      row(20250603, [0.5, 3]),
      row(20250601, [100, 110.5], [7, 9]),
      row(20250602, [111, 120], null),
    ]);
    expect(e.map((d) => [d.day, d.generated, d.used])).toEqual([
      [20250601, 10.5, 2],
      [20250602, 9.5, 0],
      [20250603, 2.5, 0],
    ]);
    expect(counterDayEnergy(5, 8, undefined)).toBe(3);
    expect(counterDayEnergy(5, 8, 6)).toBe(2);
    expect(counterDayEnergy(0, 4, 100)).toBe(4);
  });

  it('a day without a counter is skipped: the next day counts from the last day that had it', () => {
    const e = dayEnergy([row(20250601, [1, 2], [0, 1]), row(20250602, null, [1, 2]), row(20250603, [4, 5], [2, 3])]);
    expect(e.map((d) => d.generated)).toEqual([1, 0, 3]);
  });

  it('a monotonic counter: the days sum to its growth, whatever the split into days', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.integer({ min: 0, max: 100000 }),
        (dayIncrements, start) => {
          let c = start;
          const rows: DeviceDayRow[] = dayIncrements.map((incs, i) => {
            const lo = (c += incs[0]!);
            for (const x of incs.slice(1)) c += x;
            return row(20250101 + i, [lo / 10, c / 10]);
          });
          const total = dayEnergy(rows).reduce((s, d) => s + d.generated, 0);
          expect(total).toBeCloseTo((c - start - dayIncrements[0]![0]!) / 10, 6);
        },
      ),
    );
  });

  it('sums per month, year and total', () => {
    const days = dayEnergy([row(20241231, [0, 1]), row(20250101, [1, 3]), row(20250215, [3, 6])]);
    expect(sumByPeriod(days, 'month').map((p) => [p.period, p.generated])).toEqual([
      [202412, 1],
      [202501, 2],
      [202502, 3],
    ]);
    expect(sumByPeriod(days, 'year').map((p) => [p.period, p.generated])).toEqual([
      [2024, 1],
      [2025, 5],
    ]);
    expect(sumByPeriod(days, 'total')[0]!.generated).toBe(6);
  });
});
