import { describe, expect, it } from 'vitest';
import { figureId, figureLabel, formatFigure, generates } from './figures';

describe('device figures', () => {
  it('formats each unit the same way everywhere, with "--" for unmeasured values', () => {
    expect(formatFigure({ unit: 'kW', val: '1.2500' }, 'en_US')).toBe('1.25 kW');
    expect(formatFigure({ unit: 'kWh', val: '5912.0000' }, 'en_US')).toBe('5.91 MWh');
    expect(formatFigure({ unit: '%', val: '64.0000' }, 'de_DE')).toBe('64 %');
    expect(formatFigure({ unit: 'kWh', val: '2.1000' }, 'de_DE')).toBe('2,1 kWh');
    expect(formatFigure({ unit: '%', val: '--' }, 'en_US')).toBe('--');
  });

  it('names panel figures by their panel number', () => {
    expect(figureId({ key: 'panelPower', panel: 2 })).toBe('panelPower2');
    expect(figureLabel({ key: 'panelPower', panel: 2 })).toEqual(['devices:figures.panelPower', { n: 2 }]);
    expect(figureLabel({ key: 'soc' })).toEqual(['devices:figures.soc', {}]);
  });

  it('income applies to generating devices only', () => {
    expect(generates([{ key: 'power' }, { key: 'energyToday' }])).toBe(true);
    expect(generates([{ key: 'soc' }, { key: 'chargedToday' }])).toBe(false);
  });
});
