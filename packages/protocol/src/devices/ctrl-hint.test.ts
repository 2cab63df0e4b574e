import { describe, expect, it } from 'vitest';
import { checkHintValue, parseHintRanges } from './ctrl-hint.js';
import { DEVICE_DEFINITIONS } from './registry.js';

describe('parseHintRanges', () => {
  it('reads one range with its unit', () => {
    expect(parseHintRanges('56.4~59.0V')).toEqual([{ min: 56.4, max: 59, decimals: 1 }]);
  });
  it('reads one range per battery class, a dash range and a backwards range', () => {
    expect(parseHintRanges('21.0~24.0V 42.0~48.0V')).toEqual([
      { min: 21, max: 24, decimals: 1 },
      { min: 42, max: 48, decimals: 1 },
    ]);
    expect(parseHintRanges('0-900min')).toEqual([{ min: 0, max: 900, decimals: 0 }]);
    expect(parseHintRanges('54.4~48.0V')).toEqual([{ min: 48, max: 54.4, decimals: 1 }]);
  });
  it('finds no range in a time or a text hint', () => {
    expect(parseHintRanges('23:59')).toBeUndefined();
    expect(parseHintRanges('yyyy-mm-dd hh:mm:ss')).toBeUndefined();
    expect(parseHintRanges('清除记录')).toBeUndefined();
    expect(parseHintRanges(undefined)).toBeUndefined();
  });
});

describe('checkHintValue', () => {
  it('accepts a value inside, refuses one outside, text, and too many decimals', () => {
    expect(checkHintValue('5~50%', '20')).toEqual({ ok: true, value: '20' });
    expect(checkHintValue('5~50%', ' 50 ')).toEqual({ ok: true, value: '50' });
    expect(checkHintValue('5~50%', '51')).toEqual({ ok: false, reason: 'out-of-range' });
    expect(checkHintValue('5~50%', '4')).toEqual({ ok: false, reason: 'out-of-range' });
    expect(checkHintValue('5~50%', 'abc')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(checkHintValue('5~50%', '')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(checkHintValue('56.4~59.0V', '57.25')).toEqual({ ok: false, reason: 'too-precise' });
    expect(checkHintValue('21.0~24.0V 42.0~48.0V', '30')).toEqual({ ok: false, reason: 'out-of-range' });
    expect(checkHintValue('21.0~24.0V 42.0~48.0V', '43.5')).toEqual({ ok: true, value: '43.5' });
  });
  it('accepts any text when the hint has no range', () => {
    expect(checkHintValue('yyyy-mm-dd hh:mm:ss', '2026-11-25 10:00:00').ok).toBe(true);
  });
});

describe('every shipped control hint agrees with its definition ranges', () => {
  it('the hint ranges span exactly the definition ranges', () => {
    let checked = 0;
    for (const def of DEVICE_DEFINITIONS) {
      for (const c of def.controls) {
        if (!c.ranges || !c.hint) continue;
        const parsed = parseHintRanges(c.hint);
        expect(parsed, `${def.devcode} ${c.id}`).toBeDefined();
        expect(parsed!.map((r) => [r.min, r.max]), `${def.devcode} ${c.id}`).toEqual(c.ranges.map((r) => [r.min, r.max]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
