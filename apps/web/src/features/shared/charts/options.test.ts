import { describe, expect, it } from 'vitest';
import { seriesSummary } from './EChart';
import { DONUT_CENTER, donutOption, energyOption } from './options';

describe('chart options', () => {
  it('puts the donut total on the ring centre (same y, middle-aligned, no padding offset)', () => {
    const o = donutOption([{ name: 'a', value: 1, color: '#000' }], '12', 'en_US') as {
      title: { top: string; textVerticalAlign: string; padding: number; left: string };
      series: Array<{ center: string[] }>;
    };
    expect(o.series[0]!.center).toEqual([...DONUT_CENTER]);
    expect(o.title.top).toBe(DONUT_CENTER[1]);
    expect(o.title.left).toBe('center');
    expect(o.title.textVerticalAlign).toBe('middle');
    expect(o.title.padding).toBe(0);
  });

  it('summarises series and points of an option', () => {
    const o = energyOption(['00', '01', '02'], [{ name: 'pv', values: ['0', '1.5', null] }, { name: 'load', values: [2, 0, 3] }], 'line', 'kWh', 'en_US');
    expect(seriesSummary(o)).toEqual({ series: 2, points: 5, nonZero: 3 });
    expect(seriesSummary({})).toEqual({ series: 0, points: 0, nonZero: 0 });
  });
});
