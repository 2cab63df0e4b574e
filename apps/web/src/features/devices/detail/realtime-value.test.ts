import { describe, expect, it } from 'vitest';
import { displayValue } from './RealtimeTab';

describe('real-time values', () => {
  it('formats measurements by locale and keeps their decimals', () => {
    expect(displayValue('6200', 'en_US', 'VA')).toBe('6,200');
    expect(displayValue('228.40', 'de_DE', 'V')).toBe('228,40');
  });
  it('leaves unit-less numbers (versions, codes), text and missing values alone', () => {
    expect(displayValue('7214', 'en_US')).toBe('7214');
    expect(displayValue('7214', 'en_US', '')).toBe('7214');
    expect(displayValue('Invert Mode', 'en_US', undefined)).toBe('Invert Mode');
    expect(displayValue('', 'en_US', 'V')).toBe('--');
    expect(displayValue('--', 'en_US', 'V')).toBe('--');
  });
});
