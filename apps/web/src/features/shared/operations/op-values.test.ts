import { describe, expect, it } from 'vitest';
import { opValueText } from './op-values';

describe('opValueText', () => {
  const labels = new Map([['2', 'SBU'], ['1', 'Solar']]);
  it('shows a control value by its item label', () => {
    expect(opValueText('{"val":"2"}', labels)).toBe('SBU');
    expect(opValueText('"1"', labels)).toBe('Solar');
  });
  it('shows a one-key object by its value, several keys as pairs', () => {
    expect(opValueText('{"alias":"Roof"}')).toBe('Roof');
    expect(opValueText('{"a":1,"b":"x"}')).toBe('a: 1, b: x');
  });
  it('shows "--" for nothing and the text itself when it is no JSON', () => {
    expect(opValueText('')).toBe('--');
    expect(opValueText('null')).toBe('--');
    expect(opValueText('AA BB')).toBe('AA BB');
  });
});
