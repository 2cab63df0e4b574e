import { describe, expect, it } from 'vitest';
import type { KeyParameterTotal } from '@sunwatch/protocol';
import type { YearTotals } from '../api/queries';
import { yearlyTable } from './yearly-table';

describe('yearlyTable', () => {
  it('keeps the counters the device has, newest year first, with the sum of all years last', () => {
    const answers = new Map<KeyParameterTotal, YearTotals>([
      ['BATTERY_ENERGY_TOTAL_CHARGE', 'none'],
      ['LOAD_ENERGY_TOTAL', [{ val: '10.5000', gts: '2025' }, { val: '2.2500', gts: '2026' }]],
      ['PV_ENERGY_TOTAL', [{ val: '1234.5678', gts: '2025' }, { val: '0.0000', gts: '2026' }]],
    ]);
    const t = yearlyTable(answers);
    expect(t.parameters).toEqual(['PV_ENERGY_TOTAL', 'LOAD_ENERGY_TOTAL']);
    expect(t.rows).toEqual([
      { year: '2026', values: { PV_ENERGY_TOTAL: '0.0000', LOAD_ENERGY_TOTAL: '2.2500' } },
      { year: '2025', values: { PV_ENERGY_TOTAL: '1234.5678', LOAD_ENERGY_TOTAL: '10.5000' } },
      { year: '', values: { PV_ENERGY_TOTAL: '1234.5678', LOAD_ENERGY_TOTAL: '12.7500' } },
    ]);
    expect(t.empty).toBe(false);
  });

  it('has no rows when no counter has data, and says whether data is only missing', () => {
    expect(yearlyTable(new Map([['PV_ENERGY_TOTAL', 'empty']]))).toEqual({ parameters: [], rows: [], empty: true });
    expect(yearlyTable(new Map([['PV_ENERGY_TOTAL', 'none']]))).toEqual({ parameters: [], rows: [], empty: false });
  });
});
