import { useEffect, useRef } from 'react';
import { echarts, type EChartsCoreOption } from './echarts';

export interface EChartProps {
  option: EChartsCoreOption;
  height?: number | string;
  /** Replace the whole option instead of merging (series count changes). */
  notMerge?: boolean;
  ariaLabel?: string;
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

  return <div ref={ref} role="img" aria-label={ariaLabel} style={{ width: '100%', height }} />;
}

export default EChart;
