import { describe, expect, it } from 'vitest';
import { formatEnergy, formatNumber, formatPower, scaleEnergy, toNumber } from './format';

describe('chart formatting', () => {
  it('reads wire strings and keeps "--" for missing values', () => {
    expect(toNumber('230.7000')).toBe(230.7);
    expect(toNumber('--')).toBeUndefined();
    expect(formatNumber('--', 'en_US')).toBe('--');
    expect(formatEnergy(undefined, 'en_US')).toBe('--');
  });
  it('formats numbers by locale', () => {
    expect(formatNumber('1234.5678', 'en_US')).toBe('1,234.57');
    expect(formatNumber('1234.5678', 'de_DE')).toBe('1.234,57');
  });
  it('scales energy and power units', () => {
    expect(scaleEnergy(12500)).toEqual({ value: 12.5, unit: 'MWh' });
    expect(formatEnergy('0.5', 'en_US')).toBe('0.5 kWh');
    expect(formatPower('2500', 'en_US', 'W')).toBe('2.5 kW');
  });
});
