/**
 * Key figures of a device (protocol devices/figures.ts), as the server sends them in list rows
 * and statistics: their labels and their formatting. One function formats a figure wherever
 * it is shown (card, list, detail), so the same figure reads the same.
 */
import type { DeviceFigureWire } from '@sunwatch/protocol';
import { formatEnergy, formatPercent, formatPower } from '../charts/format';

/** The figure's identity in the page (`data-figure`): key, plus the panel number of panel powers. */
export function figureId(f: Pick<DeviceFigureWire, 'key' | 'panel'>): string {
  return f.panel !== undefined ? `${f.key}${f.panel}` : f.key;
}

/** Translation key and options of a figure's label. */
export function figureLabel(f: Pick<DeviceFigureWire, 'key' | 'panel'>): [string, Record<string, unknown>] {
  return [`devices:figures.${f.key}`, f.panel !== undefined ? { n: f.panel } : {}];
}

/** "1.25 kW", "5.9 MWh", "64 %"; "--" when not measured. */
export function formatFigure(f: Pick<DeviceFigureWire, 'unit' | 'val'>, locale: string): string {
  switch (f.unit) {
    case 'kW':
      return formatPower(f.val, locale);
    case 'kWh':
      return formatEnergy(f.val, locale);
    case '%':
      return formatPercent(f.val, locale);
  }
}

/** Whether the device generates (its figures are power / today / total): income applies. */
export function generates(figures: readonly Pick<DeviceFigureWire, 'key'>[]): boolean {
  return figures.some((f) => f.key === 'energyToday');
}
