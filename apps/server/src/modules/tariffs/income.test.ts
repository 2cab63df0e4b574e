import { describe, expect, it } from 'vitest';
import { HourBuckets, spreadReadings, type TariffRec } from './income.js';

const P0 = { unitProfit: 0.1, soldProfit: 0, selfProfit: 0, purchProfit: 0, consProfit: 0, feedProfit: 0 };
const H = 3_600_000;

describe('income arithmetic', () => {
  it('spreads an interval over local hours, prices each hour with its period, cuts at a tariff start', () => {
    const tz = 3600;
    // Local 2026-06-17 (Wednesday) 16:30 → 18:30 = UTC 15:30 → 17:30; peak 17–18 h at 0.5.
    const a: TariffRec = {
      id: 1,
      from: 0,
      currency: 'EUR',
      prices: P0,
      periods: [{ kind: 'peak', name: '', weekdays: [3], from: 17, to: 18, prices: { unitProfit: 0.5 } }],
    };
    // A new tariff (no periods, 1.0) starts at local 18:15.
    const b: TariffRec = {
      id: 2,
      from: Date.UTC(2026, 5, 17, 17, 15),
      currency: 'EUR',
      prices: { ...P0, unitProfit: 1 },
      periods: [],
    };
    const buckets = new HourBuckets([a, b], tz);
    spreadReadings(buckets, 'generated', [
      { ts: Date.UTC(2026, 5, 17, 15, 30), v: 10 },
      { ts: Date.UTC(2026, 5, 17, 17, 30), v: 18 },
    ]);
    // 8 kWh over 2 h: 16:30–17 2 kWh × 0.1, 17–18 4 kWh × 0.5, 18–18:15 1 kWh × 0.1, 18:15–18:30 1 kWh × 1.
    const day = buckets.byDay().get(20260617)!.get('EUR')!;
    expect(day.generated).toBeCloseTo(8, 9);
    expect(day.genIncome).toBeCloseTo(0.2 + 2 + 0.1 + 1, 9);
  });

  it('a counter that goes back adds nothing for that step and counts on from its new value', () => {
    const t: TariffRec = { id: 1, from: 0, currency: 'USD', prices: P0, periods: [] };
    const buckets = new HourBuckets([t], 0);
    const d0 = Date.UTC(2026, 0, 5, 10);
    spreadReadings(buckets, 'generated', [
      { ts: d0, v: 100 },
      { ts: d0 + H, v: 103 },
      { ts: d0 + 2 * H, v: 1 },
      { ts: d0 + 3 * H, v: 3 },
    ]);
    expect(buckets.byDay().get(20260105)!.get('USD')!.generated).toBeCloseTo(5, 9);
  });
});
