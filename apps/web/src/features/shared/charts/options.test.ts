import { describe, expect, it } from 'vitest';
import { seriesSummary } from './EChart';
import { energyOption, powerCurveOption } from './options';

describe('chart options', () => {
  it('summarises series and points of an option', () => {
    const o = energyOption(['00', '01', '02'], [{ name: 'pv', values: ['0', '1.5', null] }, { name: 'load', values: [2, 0, 3] }], 'line', 'kWh', 'en_US');
    expect(seriesSummary(o)).toEqual({ series: 2, points: 5, nonZero: 3 });
    expect(seriesSummary({})).toEqual({ series: 0, points: 0, nonZero: 0 });
  });

  it('draws a power curve of the samples as they are: time axis, kW, no smoothing, gaps broken', () => {
    const o = powerCurveOption(
      [
        {
          name: 'Battery',
          points: [
            { ts: '2026-11-24 10:00:00', val: '-1.2500' },
            { ts: '2026-11-24 10:05:00', val: '0.8000' },
            // an hour without samples: the line breaks instead of bridging it
            { ts: '2026-11-24 11:05:00', val: '2.0000' },
          ],
        },
      ],
      'en_US',
    ) as {
      xAxis: { type: string };
      yAxis: { name: string };
      series: Array<{ type: string; smooth: boolean; data: Array<[string, number | null]> }>;
    };
    expect(o.xAxis.type).toBe('time');
    expect(o.yAxis.name).toBe('kW');
    expect(o.series[0]!.type).toBe('line');
    expect(o.series[0]!.smooth).toBe(false);
    expect(o.series[0]!.data).toEqual([
      ['2026-11-24T10:00:00', -1.25],
      ['2026-11-24T10:05:00', 0.8],
      ['2026-11-24T11:05:00', null],
      ['2026-11-24T11:05:00', 2],
    ]);
    const e = energyOption(['00'], [{ name: 'pv', values: ['1'] }], 'line', 'kWh', 'en_US') as { series: Array<{ smooth: boolean }> };
    expect(e.series[0]!.smooth).toBe(false);
  });
});
