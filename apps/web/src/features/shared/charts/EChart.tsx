import { useEffect, useRef } from 'react';
import { echarts, type EChartsCoreOption } from './echarts';

export interface EChartProps {
  option: EChartsCoreOption;
  height?: number | string;
  /** Replace the whole option instead of merging (series count changes). */
  notMerge?: boolean;
  ariaLabel?: string;
}

/** Series and points of an option (exposed on the chart's element for tests and tools). */
export function seriesSummary(option: EChartsCoreOption): { series: number; points: number; nonZero: number } {
  const list = Array.isArray(option.series) ? (option.series as unknown[]) : option.series ? [option.series] : [];
  let points = 0;
  let nonZero = 0;
  for (const s of list) {
    const data = (s as { data?: unknown }).data;
    if (!Array.isArray(data)) continue;
    for (const item of data as unknown[]) {
      const raw = Array.isArray(item) ? item.at(-1) : item && typeof item === 'object' && 'value' in item ? (item as { value: unknown }).value : item;
      const v = Array.isArray(raw) ? raw.at(-1) : raw;
      if (v === null || v === undefined || v === '' || v === '-') continue;
      const n = Number(v);
      if (!Number.isFinite(n)) continue;
      points += 1;
      if (n !== 0) nonZero += 1;
    }
  }
  return { series: list.length, points, nonZero };
}

/** One ECharts instance bound to a div; resizes with its container (responsive layouts). */
export function EChart({ option, height = 320, notMerge = true, ariaLabel }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const resize = () => instance.resize();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(resize);
    observer?.observe(el);
    window.addEventListener('resize', resize);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', resize);
      instance.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge });
  }, [option, notMerge]);

  const summary = seriesSummary(option);
  return (
    <div
      ref={ref}
      role="img"
      aria-label={ariaLabel}
      data-testid="echart"
      data-series={summary.series}
      data-points={summary.points}
      data-nonzero={summary.nonZero}
      style={{ width: '100%', height }}
    />
  );
}

export default EChart;
