import { describe, expect, it } from 'vitest';
import { dayLabel, fleetCurrency, statusSlices } from './FleetFigures';

describe('fleet figures', () => {
  it('makes donut slices of the statuses present, coloured by status', () => {
    const slices = statusSlices({ total: 5, byStatus: [3, 0, 1, 0, 1, 0, 0] }, (s) => `s${s}`);
    expect(slices.map((x) => [x.name, x.value])).toEqual([
      ['s0', 3],
      ['s2', 1],
      ['s4', 1],
    ]);
    expect(slices[0]!.color).toBe('#52c41a');
  });
  it("shows the overview's currency, else any income's", () => {
    const today = '0.0000';
    expect(fleetCurrency({ currency: 'EUR', incomes: [{ currency: 'EUR', today, total: today }] })).toBe('EUR');
    expect(fleetCurrency({ currency: '', incomes: [{ currency: 'ZAR', today, total: today }] })).toBe('ZAR');
    expect(fleetCurrency({ currency: '', incomes: [] })).toBe('');
    expect(fleetCurrency(undefined)).toBe('');
  });
  it('labels alarm days by locale', () => {
    expect(dayLabel('2026-11-17', 'en_US')).toBe('11/17');
    expect(dayLabel('2026-11-17', 'de_DE')).toBe('17.11.');
    expect(dayLabel('bad', 'en_US')).toBe('bad');
  });
});
