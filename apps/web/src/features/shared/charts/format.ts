/**
 * Locale-aware number, energy and power formatting (portal-screens.md §13): values arrive
 * as strings with 4 decimals; show 1–2 decimals, auto-scale W→kW→MW and kWh→MWh→GWh,
 * and "--" for missing values.
 */
import type { Locale } from '@sunwatch/protocol';

export const NO_VALUE = '--';

/** BCP-47 tag of an interface locale (`zh_CN` → `zh-CN`; Uzbek in Latin script). */
export function bcp47(locale: string): string {
  if (locale === 'uz_UZ') return 'uz-Latn-UZ';
  return locale.replace('_', '-');
}

/** A wire value as a number; undefined for "--", empty or non-numeric text. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (!s || s === NO_VALUE) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export function formatNumber(v: unknown, locale: Locale | string, maxDigits = 2, minDigits = 0): string {
  const n = toNumber(v);
  if (n === undefined) return typeof v === 'string' && v.trim() ? v : NO_VALUE;
  return new Intl.NumberFormat(bcp47(locale), {
    maximumFractionDigits: maxDigits,
    minimumFractionDigits: Math.min(minDigits, maxDigits),
  }).format(n);
}

export interface Scaled {
  value: number;
  unit: string;
}

const ENERGY_UNITS = ['Wh', 'kWh', 'MWh', 'GWh', 'TWh'];
const POWER_UNITS = ['W', 'kW', 'MW', 'GW'];

function scale(n: number, unit: string, ladder: readonly string[]): Scaled {
  let i = ladder.indexOf(unit);
  if (i < 0) return { value: n, unit };
  let value = n;
  while (Math.abs(value) >= 1000 && i < ladder.length - 1) {
    value /= 1000;
    i++;
  }
  return { value, unit: ladder[i]! };
}

/** kWh (or the given unit) scaled up while ≥ 1000. */
export function scaleEnergy(v: number, unit = 'kWh'): Scaled {
  return scale(v, unit, ENERGY_UNITS);
}

/** kW (or the given unit) scaled up while ≥ 1000. */
export function scalePower(v: number, unit = 'kW'): Scaled {
  return scale(v, unit, POWER_UNITS);
}

/** "12.5 MWh"; "--" without a value. */
export function formatEnergy(v: unknown, locale: Locale | string, unit = 'kWh'): string {
  const n = toNumber(v);
  if (n === undefined) return NO_VALUE;
  const s = scaleEnergy(n, unit);
  return `${formatNumber(s.value, locale)} ${s.unit}`;
}

export function formatPower(v: unknown, locale: Locale | string, unit = 'kW'): string {
  const n = toNumber(v);
  if (n === undefined) return NO_VALUE;
  const s = scalePower(n, unit);
  return `${formatNumber(s.value, locale)} ${s.unit}`;
}

/** "64 %" (0 decimals by default); "--" without a value. */
export function formatPercent(v: unknown, locale: Locale | string, maxDigits = 0): string {
  const n = toNumber(v);
  if (n === undefined) return NO_VALUE;
  return `${formatNumber(n, locale, maxDigits)} %`;
}

/** Money with its currency symbol or code as the server gives it. */
export function formatMoney(v: unknown, locale: Locale | string, currency?: string): string {
  const n = toNumber(v);
  if (n === undefined) return NO_VALUE;
  const text = formatNumber(n, locale, 2, 2);
  return currency ? `${currency} ${text}` : text;
}
