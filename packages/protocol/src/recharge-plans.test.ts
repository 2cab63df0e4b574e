import { describe, expect, it } from 'vitest';
import {
  addMonths,
  quoteRecharge,
  rechargeDelayDays,
  rechargeEffectiveAt,
  rechargePackage,
  renewedExpiry,
  toRmbMinor,
  DAY_MS,
} from './recharge-plans.js';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h);

describe('spec §9 credit delay', () => {
  it('mid-month: no delay; lapsed card: 7 days', () => {
    expect(rechargeDelayDays(utc(2026, 6, 15, 4), 'international', false)).toBe(0);
    expect(rechargeDelayDays(utc(2026, 6, 6, 0), 'international', false)).toBe(0);
    expect(rechargeDelayDays(utc(2026, 6, 24, 23), 'international', false)).toBe(0);
    expect(rechargeDelayDays(utc(2026, 6, 15, 4), 'international', true)).toBe(7);
  });

  it('between the 25th and the 5th: until the next 6th (1–12 days), never above 14', () => {
    expect(rechargeDelayDays(utc(2026, 6, 25, 0), 'international', false)).toBe(11); // 25 Jun → 6 Jul
    expect(rechargeDelayDays(utc(2026, 1, 25, 12), 'international', false)).toBe(12); // 25 Jan → 6 Feb
    expect(rechargeDelayDays(utc(2026, 2, 28, 12), 'international', false)).toBe(6); // 28 Feb → 6 Mar
    expect(rechargeDelayDays(utc(2026, 12, 31, 12), 'international', false)).toBe(6); // → 6 Jan 2027
    expect(rechargeDelayDays(utc(2026, 7, 1, 0), 'international', false)).toBe(5);
    expect(rechargeDelayDays(utc(2026, 7, 5, 23), 'international', false)).toBe(1);
    expect(rechargeDelayDays(utc(2026, 7, 3, 0), 'international', true)).toBe(7); // the larger
    expect(rechargeDelayDays(utc(2026, 6, 25, 0), 'international', true)).toBe(11);
    for (let t = utc(2026, 1, 1); t < utc(2027, 1, 1); t += DAY_MS / 4) {
      const d = rechargeDelayDays(t, 'mainland', true);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(14);
    }
  });

  it('mainland cards use China time (UTC+8): 24 Jun 20:00 UTC is already the 25th', () => {
    expect(rechargeDelayDays(utc(2026, 6, 24, 20), 'international', false)).toBe(0);
    expect(rechargeDelayDays(utc(2026, 6, 24, 20), 'mainland', false)).toBe(11);
    // Effective at 00:00 China time on 6 July = 5 July 16:00 UTC.
    expect(rechargeEffectiveAt(utc(2026, 6, 24, 20), 'mainland', 11)).toBe(utc(2026, 7, 5, 16));
    expect(rechargeEffectiveAt(utc(2026, 6, 15, 4), 'international', 0)).toBe(utc(2026, 6, 15, 4));
  });

  it('renewal: from the current expiry while valid, else from the effective date; month ends clamp', () => {
    expect(addMonths(utc(2026, 1, 31, 5), 1)).toBe(utc(2026, 2, 28, 5));
    expect(addMonths(utc(2026, 8, 31), 6)).toBe(utc(2027, 2, 28));
    expect(renewedExpiry(utc(2026, 9, 1), utc(2026, 6, 15), 12)).toBe(utc(2027, 9, 1));
    expect(renewedExpiry(utc(2026, 6, 1), utc(2026, 6, 22), 6)).toBe(utc(2026, 12, 22));
    expect(renewedExpiry(null, utc(2026, 6, 22), 1)).toBe(utc(2026, 7, 22));
  });
});

describe('prices', () => {
  it('quotes in exact minor units with the months discount', () => {
    const cn = rechargePackage('CN-30MB')!;
    expect(quoteRecharge(cn, 12, 2)).toMatchObject({ listMinor: 12000, discountMinor: 1200, amountMinor: 10800 });
    expect(quoteRecharge(rechargePackage('INT-50MB')!, 6, 1)).toMatchObject({
      listMinor: 900,
      discountMinor: 45,
      amountMinor: 855,
    });
    expect(quoteRecharge(rechargePackage('INT-100MB')!, 24, 3)).toMatchObject({
      listMinor: 18000,
      discountMinor: 2700,
    });
    expect(quoteRecharge(cn, 1, 1)).toMatchObject({ discountMinor: 0, amountMinor: 500 });
    expect(toRmbMinor(150, 71_000)).toBe(1065);
  });
});
