/**
 * ECharts option builders of the screens (pure: data + translated labels in, option out),
 * with locale-aware number formatting in axes and tooltips.
 */
import type { EChartsCoreOption } from './echarts';
import { formatNumber, toNumber } from './format';

export const PALETTE = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#13c2c2', '#722ed1', '#faad14', '#f5222d'];

const grid = { left: 8, right: 8, top: 48, bottom: 8, containLabel: true };

export interface NamedSeries {
  name: string;
  values: ReadonlyArray<string | number | null>;
  color?: string;
}

/** Energy per bucket: a line (day view) or bars, one series per energy kind. */
export function energyOption(
  labels: readonly string[],
  series: readonly NamedSeries[],
  kind: 'line' | 'bar',
  unit: string,
  locale: string,
): EChartsCoreOption {
  return {
    color: PALETTE,
    grid,
    legend: { top: 0, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (v === null || v === undefined ? '--' : `${formatNumber(v as number, locale)} ${unit}`),
    },
    xAxis: { type: 'category', data: [...labels], boundaryGap: kind === 'bar' },
    yAxis: { type: 'value', name: unit, axisLabel: { formatter: (v: number) => formatNumber(v, locale) } },
    series: series.map((s) => ({
      name: s.name,
      type: kind,
      data: s.values.map((v) => toNumber(v) ?? null),
      // energies per bucket are drawn as they are: never smoothed (a spline invents values)
      smooth: false,
      showSymbol: false,
      areaStyle: kind === 'line' ? { opacity: 0.12 } : undefined,
      barMaxWidth: 28,
      ...(s.color ? { itemStyle: { color: s.color } } : {}),
    })),
  };
}

export interface PowerSeries {
  name: string;
  points: ReadonlyArray<{ ts: string; val: string }>;
  color?: string;
}

/**
 * A day's power curve (kW): one point per sample at its time, joined by straight lines, no
 * smoothing and no hourly aggregation; a gap of more than `gapMinutes` without samples breaks
 * the line instead of bridging it. Timestamps "YYYY-MM-DD HH:MM:SS" are the plant's wall clock.
 */
export function powerCurveOption(series: readonly PowerSeries[], locale: string, gapMinutes = 20): EChartsCoreOption {
  const toPoints = (points: PowerSeries['points']) => {
    const out: Array<[string, number | null]> = [];
    let last: number | undefined;
    for (const p of points) {
      const iso = p.ts.replace(' ', 'T');
      const t = Date.parse(`${iso}Z`);
      if (last !== undefined && t - last > gapMinutes * 60_000) out.push([iso, null]);
      out.push([iso, toNumber(p.val) ?? null]);
      last = t;
    }
    return out;
  };
  return {
    color: PALETTE,
    grid: { ...grid, bottom: 48 },
    legend: { top: 0, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (v === null || v === undefined ? '--' : `${formatNumber(v as number, locale, 3)} kW`),
    },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: 'kW', axisLabel: { formatter: (v: number) => formatNumber(v, locale) } },
    series: series.map((s) => ({
      name: s.name,
      type: 'line',
      smooth: false,
      showSymbol: false,
      connectNulls: false,
      data: toPoints(s.points),
      ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
    })),
  };
}

export interface CurveSeries {
  name: string;
  unit: string;
  points: ReadonlyArray<{ ts: string; val: string }>;
}

/**
 * Parameter curves on a time axis with one y-axis per unit (at most two: left, right).
 * Timestamps "YYYY-MM-DD HH:MM:SS" are plotted as local wall-clock time of the device.
 */
export function curvesOption(curves: readonly CurveSeries[], locale: string): EChartsCoreOption {
  const units: string[] = [];
  for (const c of curves) if (!units.includes(c.unit)) units.push(c.unit);
  const axes = units.slice(0, 2);
  return {
    color: PALETTE,
    grid: { ...grid, bottom: 48 },
    legend: { top: 0, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (v === null || v === undefined ? '--' : formatNumber(v as number, locale, 3)),
    },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    xAxis: { type: 'time' },
    yAxis: axes.map((u, i) => ({
      type: 'value',
      name: u,
      position: i === 0 ? 'left' : 'right',
      scale: true,
      axisLabel: { formatter: (v: number) => formatNumber(v, locale) },
      splitLine: { show: i === 0 },
    })),
    series: curves.map((c) => ({
      name: c.unit ? `${c.name} (${c.unit})` : c.name,
      type: 'line',
      yAxisIndex: Math.max(0, axes.indexOf(c.unit)),
      showSymbol: false,
      connectNulls: false,
      data: c.points.map((p) => [p.ts.replace(' ', 'T'), toNumber(p.val) ?? null]),
    })),
  };
}
