import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyScale, DEVICE_DEFINITIONS, decodeDevice, encodeRegisters, type IngestDevice } from '@sunwatch/protocol';
import { decodeRegistersFast } from './fast-decode.js';
import { syntheticValues } from './synthetic.js';

describe('fast register decode', () => {
  for (const def of DEVICE_DEFINITIONS) {
    it(`equals decodeDevice whenever it answers (devcode ${def.devcode})`, () => {
      const field = fc.constantFrom(...def.fields);
      const block = fc.record({
        start: fc.oneof(
          field.map((f) => f.register.address),
          fc.integer({ min: 0, max: 700 }),
        ),
        words: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 0, maxLength: 40 }),
      });
      fc.assert(
        fc.property(
          fc.array(block, { minLength: 1, maxLength: 4 }),
          fc.integer({ min: 0, max: 9 }),
          (blocks, phase) => {
            const entries: IngestDevice[] = [
              {
                devcode: def.devcode,
                devaddr: 1,
                sn: 'X',
                registers: blocks.map((b) => ({
                  start: b.start,
                  hex: b.words.map((w) => w.toString(16).padStart(4, '0')).join(''),
                })),
              },
              {
                devcode: def.devcode,
                devaddr: 1,
                sn: 'X',
                registers: encodeRegisters(def, syntheticValues(def, { phase })),
              },
            ];
            for (const e of entries) {
              const full = decodeDevice(def, e);
              const fast = decodeRegistersFast(def, e);
              if (fast !== undefined) {
                expect(full.errors).toEqual([]);
                expect(fast).toEqual(full.values);
              } else if (e === entries[1]) {
                throw new Error('a clean synthetic frame must take the fast path');
              }
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('declines frames with values, other devcodes or fields cut by a block edge', () => {
    const def = DEVICE_DEFINITIONS[0]!;
    const f = def.fields.find((x) => x.register.words === 2)!;
    expect(decodeRegistersFast(def, { devcode: def.devcode, devaddr: 1, sn: 'X', values: {} })).toBeUndefined();
    expect(
      decodeRegistersFast(def, { devcode: 1, devaddr: 1, sn: 'X', registers: [{ start: 0, hex: '0001' }] }),
    ).toBeUndefined();
    const cut = { devcode: def.devcode, devaddr: 1, sn: 'X', registers: [{ start: f.register.address, hex: '0001' }] };
    expect(decodeRegistersFast(def, cut)).toBeUndefined();
    expect(decodeDevice(def, cut).errors.length).toBeGreaterThan(0);
    expect(applyScale(1, f.scale)).toBe(f.scale);
  });
});
