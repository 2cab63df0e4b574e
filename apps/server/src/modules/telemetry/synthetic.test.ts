import { describe, expect, it } from 'vitest';
import { DEVICE_DEFINITIONS, decodeDevice, encodeRegisters } from '@sunwatch/protocol';
import { syntheticValues } from './synthetic.js';

describe('synthetic values', () => {
  for (const def of DEVICE_DEFINITIONS) {
    it(`decode cleanly from registers and as values (devcode ${def.devcode})`, () => {
      for (let phase = 0; phase < 5; phase++) {
        const v = syntheticValues(def, { phase, energy: { generated: 1234.5, used: 99 } });
        const fromRegs = decodeDevice(def, { devcode: def.devcode, registers: encodeRegisters(def, v) });
        expect(fromRegs.errors).toEqual([]);
        expect(fromRegs.values).toEqual(v);
        const fromValues = decodeDevice(def, { devcode: def.devcode, values: v });
        expect(fromValues.errors).toEqual([]);
      }
    });
  }
});
