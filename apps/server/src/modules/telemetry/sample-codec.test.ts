import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyScale, DEVICE_DEFINITIONS, decodeDevice, encodeRegisters, type FieldDef } from '@sunwatch/protocol';
import { decodeSample, encodeSample, sampleField } from './sample-codec.js';

/** A raw register value for a field, as an arbitrary, scaled like the decoder does. */
function fieldValue(f: FieldDef): fc.Arbitrary<number> {
  const bits = 16 * f.register.words;
  const lo = f.register.signed ? -(2 ** (bits - 1)) : 0;
  const hi = f.register.signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  return fc.integer({ min: lo, max: hi }).map((raw) => applyScale(raw, f.scale));
}

describe('sample codec', () => {
  for (const def of DEVICE_DEFINITIONS) {
    it(`round-trips any subset of devcode ${def.devcode}'s fields (${def.fields.length})`, () => {
      const arb = fc.record(
        Object.fromEntries(def.fields.map((f) => [f.id, fieldValue(f)])) as Record<string, fc.Arbitrary<number>>,
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(arb, (values) => {
          const data = encodeSample(def, values as Record<string, number>);
          expect(decodeSample(def, data)).toEqual(values);
          for (const [id, v] of Object.entries(values)) expect(sampleField(def, data, id)).toBe(v);
        }),
        { numRuns: 200 },
      );
    });

    it(`stores what the decoder reads from registers (devcode ${def.devcode})`, () => {
      const full = Object.fromEntries(def.fields.map((f) => [f.id, f.min !== undefined && f.min > 0 ? f.min : 0]));
      const decoded = decodeDevice(def, { devcode: def.devcode, registers: encodeRegisters(def, full) });
      const data = encodeSample(def, decoded.values);
      expect(decodeSample(def, data)).toEqual(decoded.values);
      const words = def.fields.reduce((s, f) => s + f.register.words, 0);
      expect(data.length).toBe(Math.ceil(def.fields.length / 8) + 2 * words);
    });
  }

  it('skips unknown ids, non-finite values and values that do not fit', () => {
    const def = DEVICE_DEFINITIONS[0]!;
    const f = def.fields.find((x) => x.register.words === 1 && !x.register.signed)!;
    const data = encodeSample(def, { nope: 1, [f.id]: -5 });
    expect(decodeSample(def, data)).toEqual({});
    expect(encodeSample(def, { [f.id]: Number.NaN }).length).toBe(Math.ceil(def.fields.length / 8));
  });

  it('refuses truncated data', () => {
    const def = DEVICE_DEFINITIONS[0]!;
    const f = def.fields[0]!;
    const data = encodeSample(def, { [f.id]: applyScale(1, f.scale) });
    expect(() => decodeSample(def, data.subarray(0, data.length - 1))).toThrow(RangeError);
  });
});
