import { describe, expect, it } from 'vitest';
import { gridCell, periodsIssue, periodsOf, tariffParams } from './model';

describe('rate page model', () => {
  it('turns the form into wire parameters, leaving empty prices out', () => {
    const p = tariffParams({
      from: '2026-07-01',
      currency: 'EUR',
      prices: { unitProfit: 0.2, purchProfit: null },
      periods: [
        {
          kind: 'peak',
          name: ' Peak ',
          weekdays: [5, 1],
          from: 17,
          to: 21,
          prices: { unitProfit: 0.3, purchProfit: null },
        },
      ],
    });
    expect(p).toEqual({
      currency: 'EUR',
      from: '2026-07-01',
      unitProfit: 0.2,
      periods: JSON.stringify([
        { kind: 'peak', name: 'Peak', weekdays: [1, 5], from: 17, to: 21, prices: { unitProfit: 0.3 } },
      ]),
    });
  });

  it('finds overlaps and bad hours, and maps the week grid', () => {
    const a = { kind: 'peak' as const, weekdays: [1, 2], from: 17, to: 21 };
    expect(periodsIssue([a, { kind: 'offpeak', weekdays: [2], from: 20, to: 24 }])).toEqual({
      index: 1,
      problem: 'overlap',
      other: 0,
    });
    expect(periodsIssue([{ ...a, from: 21, to: 17 }])?.problem).toBe('hours');
    expect(periodsIssue([{ ...a, weekdays: [] }])?.problem).toBe('weekdays');
    expect(periodsIssue([a])).toBeNull();
    const list = periodsOf([a]);
    expect(gridCell(list, 1, 17)).toBe(0);
    expect(gridCell(list, 1, 21)).toBe(-1);
    expect(gridCell(list, 0, 18)).toBe(-1);
  });
});
