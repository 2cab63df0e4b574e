import { describe, expect, it } from 'vitest';
import { decodeControlWrite, encodeControl, formatRegisterWords, parseRegisterWords } from './controls.js';
import { getDefinition } from './registry.js';

const def2341 = getDefinition(2341)!;
const def5121 = getDefinition(5121)!;

describe('decodeControlWrite (the device side of encodeControl)', () => {
  it('round-trips every item control of 2341 and a signed range control of 5121', () => {
    const w = encodeControl(def2341, 'los_output_source_priority', '1');
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    const words = parseRegisterWords(w.block.hex)!;
    expect(words).toEqual([1]);
    expect(decodeControlWrite(def2341, 'los_output_source_priority', w.block.start, words)).toMatchObject({
      ok: true,
      value: 1,
      key: '1',
    });
    const pf = encodeControl(def5121, 'grd_power_factor', '-0.95');
    expect(pf.ok).toBe(true);
    if (!pf.ok) return;
    const d = decodeControlWrite(def5121, 'grd_power_factor', undefined, parseRegisterWords(pf.block.hex)!);
    expect(d.ok && d.value).toBeCloseTo(-0.95, 6);
  });

  it('finds the control by its register when no id is given, and refuses unknown ones', () => {
    expect(decodeControlWrite(def2341, undefined, 298, [2])).toMatchObject({ ok: true, key: '2' });
    expect(decodeControlWrite(def2341, 'nope', undefined, [1])).toMatchObject({ ok: false, reason: 'unknown-control' });
    expect(decodeControlWrite(def2341, undefined, 9999, [1])).toMatchObject({ ok: false, reason: 'unknown-control' });
    // The id and the register must agree.
    expect(decodeControlWrite(def2341, 'los_output_source_priority', 293, [1])).toMatchObject({ ok: false });
  });

  it('refuses a value outside the items or the ranges, and a wrong word count', () => {
    expect(decodeControlWrite(def2341, 'los_output_source_priority', 298, [7])).toMatchObject({
      ok: false,
      reason: 'out-of-range',
    });
    expect(decodeControlWrite(def5121, 'grd_active_power_limit', undefined, [101])).toMatchObject({
      ok: false,
      reason: 'out-of-range',
    });
    expect(decodeControlWrite(def5121, 'grd_active_power_limit', undefined, [1, 2])).toMatchObject({
      ok: false,
      reason: 'invalid-value',
    });
  });

  it('formats and parses register words (4 hex digits each, upper case, no spaces)', () => {
    expect(formatRegisterWords([1, 0xabc, 0xffff])).toBe('00010ABCFFFF');
    expect(parseRegisterWords('00010abc')).toEqual([1, 0xabc]);
    expect(parseRegisterWords('001')).toBeUndefined();
    expect(parseRegisterWords('00 1')).toBeUndefined();
  });
});
