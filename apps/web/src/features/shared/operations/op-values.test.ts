import { describe, expect, it } from 'vitest';
import { opValueText, upgradeChangeText } from './op-values';

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

describe('upgradeChangeText', () => {
  it('shows the versions of an upgrade entry, "--" for none', () => {
    expect(upgradeChangeText('{"firmware":"1.0"}', '{"firmware":"2.0","status":3}')).toBe('1.0 → 2.0');
    expect(upgradeChangeText('{"firmware":""}', '')).toBe('-- → --');
    expect(upgradeChangeText('x', 'null')).toBe('-- → --');
  });
});
