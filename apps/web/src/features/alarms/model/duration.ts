/**
 * How long an alarm lasted (or has lasted so far), in the interface language: the two largest
 * units, the second only when not zero ("2 d 3 h", "4 h", "12 min 5 s", "0 s"), through
 * `Intl.NumberFormat` unit style, so every language gets its own abbreviations.
 */
import { bcp47 } from '../../shared/charts/format';

const UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

export function formatDuration(ms: number, locale: string): string {
  let rest = Math.max(0, Math.floor(ms / 1000));
  const amounts = UNITS.map(([unit, size]) => {
    const n = Math.floor(rest / size);
    rest -= n * size;
    return { unit, n };
  });
  const first = amounts.findIndex((a) => a.n > 0);
  const shown = first < 0 ? [amounts[3]!] : [amounts[first]!, amounts[first + 1]].filter((a) => a && a.n > 0);
  return shown
    .map((a) => new Intl.NumberFormat(bcp47(locale), { style: 'unit', unit: a!.unit, unitDisplay: 'short' }).format(a!.n))
    .join(' ');
}
