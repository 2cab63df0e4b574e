import type { KeyParameterTotal } from '@sunwatch/protocol';
import type { YearTotals } from '../api/queries';

/** The order the counters are shown in: production, consumption, grid, battery. */
export const YEARLY_ORDER: readonly KeyParameterTotal[] = [
  'PV_ENERGY_TOTAL',
  'LOAD_ENERGY_TOTAL',
  'ENERGY_TOTAL_TO_GRID',
  'ENERGY_TOTAL_FROM_GRID',
  'BATTERY_ENERGY_TOTAL_CHARGE',
  'BATTERY_ENERGY_TOTAL_DISCHARGE',
];

export interface YearlyRow {
  /** "YYYY", or "" for the sum of all years. */
  year: string;
  /** The counter's energy (kWh text as the server answers it; the sum with 4 decimals). */
  values: Partial<Record<KeyParameterTotal, string>>;
}

/**
 * The answers of querySPDeviceKeyParameterTotalPerYear as one table: the counters the device
 * has (in YEARLY_ORDER), a row per year (newest first, years missing from one counter count 0)
 * and a last row with the sum of all years. `empty`: some counter exists but has no data yet.
 */
export function yearlyTable(answers: ReadonlyMap<KeyParameterTotal, YearTotals>): {
  parameters: KeyParameterTotal[];
  rows: YearlyRow[];
  empty: boolean;
} {
  const parameters = YEARLY_ORDER.filter((p) => Array.isArray(answers.get(p)));
  const empty = [...answers.values()].some((a) => a === 'empty');
  const years = new Set<string>();
  for (const p of parameters) for (const o of answers.get(p) as Array<{ gts: string }>) years.add(o.gts);
  const rows: YearlyRow[] = [...years]
    .sort((a, b) => b.localeCompare(a))
    .map((year) => ({
      year,
      values: Object.fromEntries(parameters.map((p) => [p, (answers.get(p) as Array<{ val: string; gts: string }>).find((o) => o.gts === year)?.val ?? '0'])),
    }));
  if (rows.length > 0) {
    const total: YearlyRow = { year: '', values: {} };
    for (const p of parameters) total.values[p] = rows.reduce((s, r) => s + Number(r.values[p] ?? 0), 0).toFixed(4);
    rows.push(total);
  }
  return { parameters, rows, empty };
}
