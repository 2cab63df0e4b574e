import { describe, expect, it } from 'vitest';
import {
  applyScale,
  decodeDevice,
  displayValue,
  encodeRegisters,
  formatValue,
  rawToWords,
  scaleDecimals,
  wordsToBlocks,
} from './decoder.js';
import { HeartbeatSchema, IngestFrameSchema, RegisterBlockSchema, type IngestDevice } from './frame.js';
import { DEVICE_DEFINITIONS, getDefinition } from './registry.js';
import { activeAlarms, convertUnit, energyCounters, keyParameterValue, powerOf } from './readings.js';
import type { DeviceDefinition, FieldDef } from './types.js';
import { rng } from './test-helpers.js';

const d2376 = getDefinition(2376)!;
const d5124 = getDefinition(5124)!;
const entry = (registers: IngestDevice['registers'], values?: IngestDevice['values']): IngestDevice => ({
  devcode: 2376,
  devaddr: 1,
  sn: 'SN1',
  registers,
  values,
});
const hex = (...ws: number[]) => ws.map((w) => (w & 0xffff).toString(16).padStart(4, '0')).join('');

describe('scale helpers and formatValue', () => {
  it('scaleDecimals / applyScale', () => {
    expect([1, 10, 0.1, 0.01, 0.001, 0.5, 0.25, 1e-7].map(scaleDecimals)).toEqual([0, 0, 1, 2, 3, 1, 2, 7]);
    expect(applyScale(2307, 0.1)).toBe(230.7);
    expect(applyScale(4974, 0.01)).toBe(49.74);
    expect(applyScale(-434, 0.1)).toBe(-43.4);
    expect(Object.is(applyScale(0, 0.1), 0)).toBe(true);
  });

  it('formatValue fixes to the field decimals and never prints -0', () => {
    expect(formatValue({ decimals: 1 }, 230.7)).toBe('230.7');
    expect(formatValue({ decimals: 2 }, 225.7)).toBe('225.70');
    expect(formatValue({ decimals: 0 }, 633)).toBe('633');
    expect(formatValue({ decimals: 1 }, 0)).toBe('0.0');
    expect(formatValue({ decimals: 1 }, -0.01)).toBe('0.0');
    expect(formatValue({ decimals: 1 }, -43.4)).toBe('-43.4');
    expect(formatValue({ decimals: 0 }, NaN)).toBe('--');
  });

  it('rawToWords / wordsToBlocks', () => {
    expect(rawToWords(-1, 1)).toEqual([0xffff]);
    expect(rawToWords(0x12345678, 2)).toEqual([0x1234, 0x5678]);
    expect(rawToWords(-2, 2)).toEqual([0xffff, 0xfffe]);
    const m = new Map([
      [5, 1],
      [6, 2],
      [9, 0xabcd],
    ]);
    expect(wordsToBlocks(m)).toEqual([
      { start: 5, hex: '00010002' },
      { start: 9, hex: 'ABCD' },
    ]);
  });
});

describe('decodeDevice', () => {
  it('decodes registers by address, words, sign and scale; enum fields get labels', () => {
    // 14: operating mode 2 (Mains Mode); 15: 230.7 V; 16: 49.74 Hz; 17: -633 W (signed)
    const d = decodeDevice(d2376, entry([{ start: 14, hex: hex(2, 2307, 4974, -633) }]));
    expect(d.errors).toEqual([]);
    expect(d.values).toEqual({
      sy_eybond_read_14: 2,
      gd_eybond_read_15: 230.7,
      gd_eybond_read_16: 49.74,
      gd_grid_active_power: -633,
    });
    expect(d.labels).toEqual({ sy_eybond_read_14: 'Mains Mode' });
  });

  it('reads 2-word values high word first', () => {
    const d = decodeDevice(d5124, { ...entry([{ start: 0x26, hex: hex(0xffff, 0xfc18) }]), devcode: 5124 });
    expect(d.values.gd_active_power).toBe(-1000);
    const e = decodeDevice(d5124, { ...entry([{ start: 0x40, hex: hex(0x0001, 0x0000) }]), devcode: 5124 });
    expect(e.values.gd_import_energy_total).toBe(655.36);
  });

  it('reports bad hex, partial words, short frames, blocks past 0xFFFF and devcode mismatch', () => {
    const d = decodeDevice(d5124, {
      devcode: 2376,
      devaddr: 1,
      sn: 'x',
      registers: [
        { start: 0, hex: 'zz00' },
        { start: 0x10, hex: '00010' },
        { start: 0x27, hex: '0001' }, // second word of gd_active_power only
        { start: 0xfffe, hex: '000100020003' },
        { start: -1, hex: '0000' },
      ],
    });
    const text = d.errors.join('\n');
    expect(text).toMatch(/devcode 2376 does not match definition 5124/);
    expect(text).toMatch(/registers\[0\]: hex contains non-hex/);
    expect(text).toMatch(/registers\[1\]: 5 hex digits/);
    expect(text).toMatch(/gd_active_power: short frame, register 38 missing/);
    expect(text).toMatch(/registers\[3\]: block of 3 words at 65534 runs past/);
    expect(text).toMatch(/registers\[4\]: start -1/);
    expect(d.values.gd_l1_current).toBe(0.01); // whole words of the odd block still decode
    expect(d.values.gd_active_power).toBeUndefined();
  });

  it('drops values outside the field range and flags unknown enum states', () => {
    const d = decodeDevice(
      d2376,
      entry([
        { start: 14, hex: hex(9) },
        { start: 31, hex: hex(140) },
      ]),
    );
    expect(d.values.sy_eybond_read_14).toBe(9);
    expect(d.labels.sy_eybond_read_14).toBeUndefined();
    expect(d.values.bt_battery_capacity).toBeUndefined();
    expect(d.errors.join('\n')).toMatch(/sy_eybond_read_14: 9 is not a known state/);
    expect(d.errors.join('\n')).toMatch(/bt_battery_capacity: 140 out of range/);
  });

  it('accepts named values (numbers, numeric strings, enum labels), quantised to the register; unknown ids are errors', () => {
    const d = decodeDevice(
      d2376,
      entry([{ start: 15, hex: hex(2000) }], {
        gd_eybond_read_15: '230.74',
        sy_eybond_read_14: 'Off-Grid Mode',
        bt_eybond_read_29: -43.4,
        bogus_field: 1,
        gd_eybond_read_16: 'fifty',
        bc_eybond_read_23: 1e9,
      }),
    );
    expect(d.values.gd_eybond_read_15).toBe(230.7); // values override registers, quantised to 0.1
    expect(d.values.sy_eybond_read_14).toBe(3);
    expect(d.labels.sy_eybond_read_14).toBe('Off-Grid Mode');
    expect(d.values.bt_eybond_read_29).toBe(-43.4);
    const text = d.errors.join('\n');
    expect(text).toMatch(/unknown field bogus_field/);
    expect(text).toMatch(/gd_eybond_read_16: "fifty" is not a number/);
    expect(text).toMatch(/bc_eybond_read_23: 1000000000 does not fit/);
  });

  it('displayValue: label, formatted number or "--"', () => {
    const d = decodeDevice(d2376, entry([{ start: 14, hex: hex(3, 2301) }]));
    const f = (id: string) => d2376.fields.find((x) => x.id === id)!;
    expect(displayValue(f('sy_eybond_read_14'), d)).toBe('Off-Grid Mode');
    expect(displayValue(f('gd_eybond_read_15'), d)).toBe('230.1');
    expect(displayValue(f('gd_eybond_read_16'), d)).toBe('--');
  });

  it('never throws on random input (fuzz: random bytes, random shapes)', () => {
    const r = rng(20250306);
    const randHex = () => {
      const n = Math.floor(r() * 40);
      let s = '';
      const alphabet = '0123456789abcdefABCDEF  xg-\u0000';
      for (let i = 0; i < n; i++) s += r() < 0.9 ? alphabet[Math.floor(r() * 22)] : alphabet[22 + Math.floor(r() * 6)];
      return s;
    };
    const randAny = (depth = 0): unknown => {
      const k = Math.floor(r() * 9);
      if (depth > 2) return k;
      return [
        null,
        undefined,
        r() * 1e6 - 5e5,
        randHex(),
        [randAny(depth + 1)],
        { start: randAny(depth + 1) },
        NaN,
        Infinity,
        true,
      ][k];
    };
    for (let i = 0; i < 3000; i++) {
      const def = DEVICE_DEFINITIONS[Math.floor(r() * DEVICE_DEFINITIONS.length)]!;
      const base = def.fields[Math.floor(r() * def.fields.length)]!.register.address;
      const registers = Array.from({ length: Math.floor(r() * 4) }, () =>
        r() < 0.8
          ? { start: r() < 0.9 ? base + Math.floor(r() * 8) - 4 : Math.floor(r() * 70000) - 100, hex: randHex() }
          : randAny(),
      );
      const values: Record<string, unknown> = {};
      for (let j = 0; j < Math.floor(r() * 4); j++) {
        const id = r() < 0.7 ? def.fields[Math.floor(r() * def.fields.length)]!.id : `x${j}`;
        values[id] = randAny();
      }
      const input =
        r() < 0.05
          ? randAny()
          : {
              devcode: r() < 0.9 ? def.devcode : randAny(),
              registers: r() < 0.9 ? registers : randAny(),
              values: r() < 0.9 ? values : randAny(),
            };
      const out = decodeDevice(def, input as IngestDevice);
      expect(Array.isArray(out.errors)).toBe(true);
      for (const v of Object.values(out.values)) expect(Number.isFinite(v)).toBe(true);
    }
  });
});

/** A random raw value a field can hold (respecting min/max and enum keys). */
function randomValue(f: FieldDef, r: () => number): number {
  if (f.enum) {
    const keys = Object.keys(f.enum).map(Number);
    return keys[Math.floor(r() * keys.length)]!;
  }
  const bits = 16 * f.register.words;
  let lo = f.register.signed ? -(2 ** (bits - 1)) : 0;
  let hi = f.register.signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  if (f.min !== undefined) lo = Math.max(lo, Math.ceil(f.min / f.scale - 1e-9));
  if (f.max !== undefined) hi = Math.min(hi, Math.floor(f.max / f.scale + 1e-9));
  return applyScale(lo + Math.floor(r() * (hi - lo + 1)), f.scale);
}

describe('encodeRegisters ↔ decodeDevice round trip (property)', () => {
  it.each(DEVICE_DEFINITIONS.map((d) => [d.devcode, d] as const))('devcode %i: exact on register values', (_c, def) => {
    const r = rng(def.devcode);
    for (let i = 0; i < 200; i++) {
      const values: Record<string, number> = {};
      for (const f of def.fields) if (r() < 0.8) values[f.id] = randomValue(f, r);
      const decoded = decodeDevice(def, {
        devcode: def.devcode,
        devaddr: 1,
        sn: 's',
        registers: encodeRegisters(def, values),
      });
      expect(decoded.errors).toEqual([]);
      expect(decoded.values).toEqual(values);
    }
  });

  it.each(DEVICE_DEFINITIONS.map((d) => [d.devcode, d] as const))(
    'devcode %i: within half a scale step on arbitrary values',
    (_c, def) => {
      const r = rng(def.devcode + 1);
      for (let i = 0; i < 100; i++) {
        const values: Record<string, number> = {};
        for (const f of def.fields) {
          if (f.enum) continue;
          const v = randomValue(f, r) + (r() - 0.5) * f.scale * 0.98;
          const lo = f.min ?? -Infinity;
          const hi = f.max ?? Infinity;
          if (v >= lo && v <= hi && Math.abs(v / f.scale) < 2 ** (16 * f.register.words - 1) - 1) values[f.id] = v;
        }
        const decoded = decodeDevice(def, {
          devcode: def.devcode,
          devaddr: 1,
          sn: 's',
          registers: encodeRegisters(def, values),
        });
        for (const [id, v] of Object.entries(values)) {
          const f = def.fields.find((x) => x.id === id)!;
          expect(Math.abs(decoded.values[id]! - v), id).toBeLessThanOrEqual(f.scale / 2 + 1e-9);
        }
      }
    },
  );

  it('encodes enum labels and throws on unknown fields / unfit values unless clamped', () => {
    const blocks = encodeRegisters(d2376, { sy_eybond_read_14: 'Mains Mode' });
    expect(blocks).toEqual([{ start: 14, hex: '0002' }]);
    expect(() => encodeRegisters(d2376, { nope: 1 })).toThrow(/unknown field nope/);
    expect(() => encodeRegisters(d2376, { gd_eybond_read_15: 99999 })).toThrow(/does not fit/);
    expect(encodeRegisters(d2376, { gd_eybond_read_15: 99999 }, { clamp: true })).toEqual([{ start: 15, hex: 'FFFF' }]);
    expect(encodeRegisters(d2376, { gd_grid_active_power: -1e9 }, { clamp: true })).toEqual([
      { start: 17, hex: '8000' },
    ]);
  });
});

describe('frame schemas', () => {
  const frame = {
    pn: 'W0040157841922',
    ts: 1741290000000,
    seq: 7,
    devices: [
      {
        devcode: 2376,
        devaddr: 1,
        sn: '96342210100097',
        status: 0,
        registers: [{ start: 14, hex: '000208FB' }],
        values: { bt_battery_capacity: 85 },
      },
    ],
  };
  it('accepts a well-formed frame and heartbeat', () => {
    expect(IngestFrameSchema.parse(frame)).toEqual(frame);
    expect(HeartbeatSchema.parse({ pn: 'W1', ts: 1, fw: '3.2.1', signal: 80, uptime: 12 })).toBeTruthy();
  });
  it('rejects spaces, partial words, blocks past 0xFFFF, bad status, empty devices', () => {
    expect(RegisterBlockSchema.safeParse({ start: 0, hex: '0001 0002' }).success).toBe(false);
    expect(RegisterBlockSchema.safeParse({ start: 0, hex: '000' }).success).toBe(false);
    expect(RegisterBlockSchema.safeParse({ start: 0xffff, hex: '00010002' }).success).toBe(false);
    expect(IngestFrameSchema.safeParse({ ...frame, devices: [{ ...frame.devices[0], status: 9 }] }).success).toBe(
      false,
    );
    expect(IngestFrameSchema.safeParse({ ...frame, devices: [] }).success).toBe(false);
    expect(HeartbeatSchema.safeParse({ pn: 'W1', ts: 1, signal: 101 }).success).toBe(false);
  });
});

describe('readings: power, counters, key parameters, alarms', () => {
  const sample = (def: DeviceDefinition, values: Record<string, number | string>) =>
    decodeDevice(def, { devcode: def.devcode, devaddr: 1, sn: 's', registers: encodeRegisters(def, values) });

  it('convertUnit', () => {
    expect(convertUnit(943, 'W', 'kW')).toBe(0.943);
    expect(convertUnit(2.162, 'kVA', 'VA')).toBe(2162);
    expect(convertUnit(49.74, 'HZ', 'Hz')).toBe(49.74);
    expect(convertUnit(5, 'A', 'kW')).toBe(5);
  });

  it('power sign conventions: grid +import, battery +discharge (2376 battery power is +charge on its wire)', () => {
    const d = sample(d2376, {
      gd_grid_active_power: 633,
      battery_active_power: 447,
      bc_load_active_power: 12,
      pv_output_power: 0,
    });
    expect(powerOf(d2376, d, 'grid')).toBe(633);
    expect(powerOf(d2376, d, 'battery')).toBe(-447);
    expect(powerOf(d2376, d, 'load')).toBe(12);
    expect(powerOf(d2376, d, 'generator')).toBeUndefined();
    const d2428 = getDefinition(2428)!;
    const c = sample(d2428, { bt_battery_voltage: 27.2, bt_charging_current: 2, bt_discharge_current: 0 });
    expect(powerOf(d2428, c, 'battery')).toBeCloseTo(-54.4, 6);
    const gt = getDefinition(5121)!;
    expect(powerOf(gt, sample(gt, { gd_active_power: 8000 }), 'grid')).toBe(-8000);
  });

  it('energy counters and key parameters', () => {
    const d = sample(d5124, { gd_import_energy_total: 1234.56, gd_export_energy_total: 78.9, gd_active_power: -2500 });
    expect(energyCounters(d5124, d)).toEqual({ bought: 1234.56, sold: 78.9 });
    expect(keyParameterValue(d5124, d, 'GRID_ACTIVE_POWER')).toBe(-2.5);
    expect(keyParameterValue(d5124, d, 'BATTERY_SOC')).toBeUndefined();
    const bms = getDefinition(5123)!;
    const b = sample(bms, { bt_battery_capacity: 64, bt_battery_power: -1500 });
    expect(keyParameterValue(bms, b, 'BATTERY_SOC')).toBe(64);
    expect(keyParameterValue(bms, b, 'BATTERY_ACTIVE_POWER')).toBe(-1.5);
  });

  it('activeAlarms reads code and bit sources, unknown codes at error level', () => {
    const def = getDefinition(2341)!;
    const d = sample(def, { fault_code: 7, warning_bits: 0b1000001 });
    expect(activeAlarms(def, d).map((a) => [a.code, a.level, a.description])).toEqual([
      [7, 2, 'Overload time out'],
      [100, 0, 'Line fail'],
      [106, 0, 'Overload'],
    ]);
    const u = activeAlarms(def, sample(def, { fault_code: 77 }));
    expect(u).toEqual([
      { code: 77, level: 1, description: 'Unknown alarm code 77', field: 'fault_code', known: false },
    ]);
    expect(activeAlarms(def, sample(def, { fault_code: 0, warning_bits: 0 }))).toEqual([]);
  });
});
