import { describe, expect, it } from 'vitest';
import { DEVICE_DEFINITIONS, SUNWATCH_DEVCODE_RANGE, definitionsByDevtype, getDefinition } from './registry.js';
import { DeviceDefinitionSchema, DEVTYPES, type DeviceDefinition } from './types.js';
import { controlItems } from './controls.js';
import { lastDataFields, toChartsFields, toCtrlFields } from './wire.js';
import { DEVTYPE } from '../roles.js';
import { hasRef, refDat } from './test-helpers.js';
import { ENV_MONITOR_FIELDS } from './definitions/sw5125.js';

describe('device definitions: schema', () => {
  for (const def of DEVICE_DEFINITIONS) {
    it(`${def.devcode} ${def.name} validates against DeviceDefinitionSchema`, () => {
      const r = DeviceDefinitionSchema.safeParse(def);
      expect(r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    });
  }

  it('devcodes are unique; Sunwatch devcodes sit in the native range, vendor ones outside it', () => {
    const codes = DEVICE_DEFINITIONS.map((d) => d.devcode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const d of DEVICE_DEFINITIONS) {
      const inRange = d.devcode >= SUNWATCH_DEVCODE_RANGE.min && d.devcode <= SUNWATCH_DEVCODE_RANGE.max;
      expect(inRange, `${d.devcode}`).toBe(d.origin === 'sunwatch');
    }
  });

  it('ships the three reference devcodes and the five Sunwatch designs', () => {
    expect(DEVICE_DEFINITIONS.filter((d) => d.origin === 'reference').map((d) => d.devcode)).toEqual([
      2341, 2376, 2428,
    ]);
    const own = DEVICE_DEFINITIONS.filter((d) => d.origin === 'sunwatch');
    const shapes = own.map((d) => `${d.devtype}/${d.kind}`);
    expect(shapes).toEqual(
      expect.arrayContaining(['512/inverter', '1792/battery', '1024/meter', '512/micro-inverter', '768/env-monitor']),
    );
    for (const d of own.filter((x) => x.kind !== 'env-monitor')) {
      expect(Object.keys(d.energy).length, `${d.devcode} energy counters`).toBeGreaterThan(0);
      expect(d.faults.length, `${d.devcode} faults`).toBeGreaterThanOrEqual(8);
      expect(d.controls.length, `${d.devcode} controls`).toBeGreaterThanOrEqual(3);
      expect(new Set(d.faults.map((f) => f.level))).toEqual(new Set([0, 1, 2]));
    }
    // The environment monitor (5125) measures and generates nothing: no energy, no power.
    const env = own.find((x) => x.kind === 'env-monitor')!;
    expect(env.devtype).toBe(768);
    expect(env.energy).toEqual({});
    expect(env.power).toEqual({});
    expect(env.fields.map((f) => f.id)).toEqual(expect.arrayContaining(Object.values(ENV_MONITOR_FIELDS)));
  });

  it('devtypes agree with roles.ts DEVTYPE', () => {
    expect([...DEVTYPES].sort()).toEqual(Object.values(DEVTYPE).sort());
  });

  it('rejects broken definitions (overlapping registers, unknown references, bad group)', () => {
    const base = structuredClone(getDefinition(5124)!) as DeviceDefinition;
    const overlap = structuredClone(base);
    overlap.fields[1]!.register.address = overlap.fields[0]!.register.address;
    expect(DeviceDefinitionSchema.safeParse(overlap).success).toBe(false);
    const unknown = structuredClone(base);
    unknown.energy.bought = 'gd_nope';
    expect(DeviceDefinitionSchema.safeParse(unknown).success).toBe(false);
    const group = structuredClone(base);
    group.fields[0]!.group = 'bt_';
    expect(DeviceDefinitionSchema.safeParse(group).success).toBe(false);
    const dupCtrl = structuredClone(base);
    dupCtrl.controls.push({ ...dupCtrl.controls[1]!, register: { address: 0x0070, words: 1 } });
    expect(DeviceDefinitionSchema.safeParse(dupCtrl).success).toBe(false);
    const ctrlOnField = structuredClone(base);
    ctrlOnField.controls[1]!.register = { address: 0x0000, words: 1 };
    expect(DeviceDefinitionSchema.safeParse(ctrlOnField).success).toBe(false);
  });
});

describe('registry', () => {
  it('getDefinition finds by devcode and answers undefined for unknown ones', () => {
    expect(getDefinition(2376)?.devcode).toBe(2376);
    expect(getDefinition(1)).toBeUndefined();
  });

  it('definitionsByDevtype groups every definition once', () => {
    const map = definitionsByDevtype();
    const all = [...map.values()].flat();
    expect(all).toHaveLength(DEVICE_DEFINITIONS.length);
    expect(map.get(512)!.map((d) => d.devcode)).toEqual([5121, 5122]);
    expect(map.get(1792)!.map((d) => d.devcode)).toEqual([5123]);
    expect(map.get(1024)!.map((d) => d.devcode)).toEqual([5124]);
    expect(map.get(2304)!.map((d) => d.devcode)).toEqual([2341, 2376, 2428]);
    for (const [devtype, defs] of map) for (const d of defs) expect(d.devtype).toBe(devtype);
  });
});

interface RefLast {
  gts: string;
  pars: Record<string, Array<{ id: string; par: string; val: string; unit?: string }>>;
}
interface RefChart {
  devcode: number;
  uid: number;
  optional: string;
  name: string;
  uint: string;
  order: number;
  visable: boolean;
}

describe.each([2341, 2376, 2428])('devcode %i matches the reference answers', (devcode) => {
  const def = getDefinition(devcode)!;
  const dir = String(devcode);

  it.skipIf(!hasRef(dir, 'querySPDeviceLastData'))(
    'querySPDeviceLastData: same ids, titles, units, groups, order',
    () => {
      const ref = refDat<RefLast>(dir, 'querySPDeviceLastData');
      const expected = Object.entries(ref.pars).flatMap(([g, items]) =>
        items.map((i) => ({ id: i.id, group: g, title: i.par, unit: i.unit })),
      );
      const actual = lastDataFields(def).map((f) => ({ id: f.id, group: f.group, title: f.title, unit: f.unit }));
      expect(actual).toEqual(expected);
    },
  );

  it.skipIf(!hasRef(dir, 'queryDeviceChartsFieldsEs'))(
    'queryDeviceChartsFieldsEs: byte-identical for the same uid',
    () => {
      const ref = refDat<RefChart[]>(dir, 'queryDeviceChartsFieldsEs');
      expect(JSON.stringify(toChartsFields(def, ref[0]!.uid))).toBe(JSON.stringify(ref));
    },
  );

  it.skipIf(!hasRef(dir, 'queryDeviceCtrlField'))(
    'queryDeviceCtrlField: byte-identical (ids, names, units, hints, items)',
    () => {
      const ref = refDat<{ field: unknown[] }>(dir, 'queryDeviceCtrlField');
      expect(def.controls).toHaveLength(ref.field.length);
      expect(JSON.stringify(toCtrlFields(def))).toBe(JSON.stringify(ref));
    },
  );

  it.skipIf(!hasRef(dir, 'queryDeviceParsEs'))('queryDeviceParsEs fields are the visible chart fields', () => {
    const ref = refDat<{ parameter: Array<{ par: string; name: string; unit: string }> }>(dir, 'queryDeviceParsEs');
    const visible = def.fields
      .filter((f) => f.chart?.visible)
      .map((f) => f.id)
      .sort();
    expect(ref.parameter.map((p) => p.par)).toEqual(visible);
  });
});

describe('control item ranges', () => {
  it('expand to the vendor lists (2341 bulk charging voltage: 197 items 25.0V…61.0V)', () => {
    const c = getDefinition(2341)!.controls.find((x) => x.id === 'bat_sp_bulk_charging_voltage')!;
    const items = controlItems(c)!;
    expect(items).toHaveLength(197);
    expect(items[0]).toEqual({ key: '25.0', val: '25.0V' });
    expect(items[65]).toEqual({ key: '31.5', val: '31.5V' });
    expect(items[66]).toEqual({ key: '48.0', val: '48.0V' });
    expect(items.at(-1)).toEqual({ key: '61.0', val: '61.0V' });
  });

  it('2341 ships all 31 reference controls, every item-list one of the reference file included', () => {
    const def = getDefinition(2341)!;
    expect(def.controls).toHaveLength(31);
    expect(def.controls.filter((c) => controlItems(c)).length).toBe(30);
  });
});
