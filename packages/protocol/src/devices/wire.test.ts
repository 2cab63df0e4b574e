import { describe, expect, it } from 'vitest';
import { decodeDevice, encodeRegisters, type DecodedDevice } from './decoder.js';
import { encodeControl, readControlValue } from './controls.js';
import { convertUnit } from './readings.js';
import { DEVICE_DEFINITIONS, fieldIndex, getDefinition } from './registry.js';
import type { DeviceDefinition } from './types.js';
import {
  toChartsFields,
  toChartsFieldsByType,
  toCtrlFields,
  toDeviceParsEs,
  toEnergyFlow,
  toKeyParameters,
  toLastDataList,
  toSPLastData,
} from './wire.js';
import { HAVE_REFERENCE, hasRef, refDat } from './test-helpers.js';

interface RefLast {
  gts: string;
  pars: Record<string, Array<{ id: string; par: string; val: string; unit?: string }>>;
}
interface RefPars {
  parameter: Array<{ par: string; name: string; val: string; unit: string }>;
}
type RefFlow = Record<string, unknown> & { brand: number; status: number; date: string };
type RefFlowItem = { par: string; val: string; unit?: string; status: number };

/**
 * Rebuilds the device sample behind a reference capture: every value the vendor showed
 * (last data, parameters, energy flow) mapped back to field values in the field's unit,
 * pushed through encodeRegisters → decodeDevice like a real frame.
 */
function sampleFromReference(def: DeviceDefinition, dir: string): DecodedDevice {
  const index = fieldIndex(def);
  const values: Record<string, number | string> = {};
  const put = (id: string, val: string, unit: string | undefined) => {
    const f = index.get(id);
    if (!f) throw new Error(`${def.devcode}: reference field ${id} missing from the definition`);
    values[id] = f.enum ? val : convertUnit(Number(val), unit, f.unit);
  };
  const last = refDat<RefLast>(dir, 'querySPDeviceLastData');
  for (const items of Object.values(last.pars)) for (const i of items) put(i.id, i.val, i.unit);
  for (const p of refDat<RefPars>(dir, 'queryDeviceParsEs').parameter) put(p.par, p.val, p.unit);
  const flow = refDat<RefFlow>(dir, 'webQueryDeviceEnergyFlowEs');
  for (const [node, items] of Object.entries(def.energyFlow)) {
    for (const it of items) {
      const got = (flow[node] as RefFlowItem[]).find((x) => x.par === it.par);
      if (it.field && got && got.unit) put(it.field, got.val, got.unit);
    }
  }
  const decoded = decodeDevice(def, {
    devcode: def.devcode,
    devaddr: 1,
    sn: 'ref',
    registers: encodeRegisters(def, values),
  });
  expect(decoded.errors).toEqual([]);
  return decoded;
}

const CAPTURES: Array<[devcode: number, dir: string]> = [
  [2341, '2341'],
  [2376, '2376'],
  [2376, '2376/battery_mode'],
  [2428, '2428'],
];

describe.skipIf(!HAVE_REFERENCE)('wire builders reproduce the reference answers from a decoded frame', () => {
  describe.each(CAPTURES)('devcode %i (%s)', (devcode, dir) => {
    const def = getDefinition(devcode)!;
    const ready =
      hasRef(dir, 'querySPDeviceLastData') &&
      hasRef(dir, 'queryDeviceParsEs') &&
      hasRef(dir, 'webQueryDeviceEnergyFlowEs');

    it.skipIf(!ready)('querySPDeviceLastData: byte-identical (ids, titles, units, groups, order, values)', () => {
      const ref = refDat<RefLast>(dir, 'querySPDeviceLastData');
      const got = toSPLastData(def, sampleFromReference(def, dir), ref.gts, 'en_US');
      expect(got).toEqual(ref);
      expect(JSON.stringify(got)).toBe(JSON.stringify(ref));
    });

    it.skipIf(!ready)('queryDeviceParsEs: byte-identical', () => {
      const ref = refDat<RefPars>(dir, 'queryDeviceParsEs');
      expect(JSON.stringify(toDeviceParsEs(def, sampleFromReference(def, dir)))).toBe(JSON.stringify(ref));
    });

    it.skipIf(!ready)('webQueryDeviceEnergyFlowEs: byte-identical, statuses derived from power direction', () => {
      const ref = refDat<RefFlow>(dir, 'webQueryDeviceEnergyFlowEs');
      const got = toEnergyFlow(def, sampleFromReference(def, dir), { status: ref.status, date: ref.date });
      expect(got).toEqual(ref);
      expect(JSON.stringify(got)).toBe(JSON.stringify(ref));
    });
  });
});

describe('wire builders on Sunwatch definitions', () => {
  const sample = (def: DeviceDefinition, values: Record<string, number | string>) =>
    decodeDevice(def, { devcode: def.devcode, devaddr: 1, sn: 's', registers: encodeRegisters(def, values) });

  it('every definition builds every answer without throwing, with or without data', () => {
    for (const def of DEVICE_DEFINITIONS) {
      const empty: DecodedDevice = { values: {}, labels: {}, errors: [] };
      for (const d of [
        empty,
        sample(
          def,
          Object.fromEntries(def.fields.map((f) => [f.id, f.enum ? Number(Object.keys(f.enum)[0]) : (f.min ?? 0)])),
        ),
      ]) {
        const last = toSPLastData(def, d, '2025-01-01 00:00:00');
        expect(Object.keys(last.pars).length).toBeGreaterThan(0);
        toEnergyFlow(def, d, { status: 0, date: '2025-01-01 00:00:00' });
        toDeviceParsEs(def, d);
        toLastDataList(def, d, 1, '2025-01-01 00:00:00');
      }
      expect(toChartsFields(def, 1).length).toBeGreaterThan(0);
      expect(toCtrlFields(def).field).toHaveLength(def.controls.length);
      // An environment monitor measures weather only: no power, hence no key parameter.
      if (def.kind !== 'env-monitor') expect(toKeyParameters(def).keys.length).toBeGreaterThan(0);
      else expect(toKeyParameters(def).keys).toEqual([]);
    }
  });

  it('three-phase inverter: panels, export flow, parameters in kW', () => {
    const def = getDefinition(5121)!;
    const d = sample(def, {
      sy_status: 'Normal',
      pv_output_power: 8420,
      gd_active_power: 8150,
      gd_l1_voltage: 231.4,
      pv_pv1_voltage: 612.3,
    });
    const last = toSPLastData(def, d, '2025-06-01 12:00:00');
    expect(Object.keys(last.pars)).toEqual(['gd_', 'sy_', 'pv_']);
    expect(last.pars.sy_![0]).toEqual({ id: 'sy_status', par: 'Working State', val: 'Normal' });
    expect(last.pars.gd_!.find((i) => i.id === 'gd_l2_voltage')).toEqual({
      id: 'gd_l2_voltage',
      par: 'Grid Voltage L2',
      val: '--',
      unit: 'V',
    });
    const flow = toEnergyFlow(def, d, { status: 0, date: 'x' });
    expect(flow.pv_status).toEqual([{ par: 'pv_output_power', val: '8.4200', unit: 'kW', status: 1 }]);
    expect(flow.gd_status).toEqual([{ par: 'grid_active_power', val: '8.1500', unit: 'kW', status: -1 }]);
    expect(flow.bt_status).toEqual([]);
    const pars = toDeviceParsEs(def, d).parameter;
    expect(pars.map((p) => p.par)).toEqual([
      'gd_active_power',
      'gd_l1_voltage',
      'pv_output_power',
      'pv_pv1_voltage',
      'pv_pv2_voltage',
    ]);
    expect(pars[0]).toEqual({ par: 'gd_active_power', name: 'Output Active Power', val: '8.1500', unit: 'kW' });
    expect(pars[4]!.val).toBe('--');
  });

  it('battery and meter flows follow the direction table (battery 1 discharging / -1 charging, grid -1 exporting)', () => {
    const bms = getDefinition(5123)!;
    const charging = toEnergyFlow(bms, sample(bms, { bt_battery_capacity: 40, bt_battery_power: -2300 }), {
      status: 0,
      date: 'x',
    });
    expect(charging.bt_status).toEqual([
      { par: 'bt_battery_capacity', val: '40.0000', unit: '%', status: -1 },
      { par: 'battery_active_power', val: '-2.3000', unit: 'kW', status: -1 },
    ]);
    const meter = getDefinition(5124)!;
    const exp = toEnergyFlow(meter, sample(meter, { gd_active_power: -3100, gd_l1_voltage: 230 }), {
      status: 0,
      date: 'x',
      brand: 7,
    });
    expect(exp.brand).toBe(7);
    expect(exp.gd_status).toEqual([{ par: 'grid_active_power', val: '-3.1000', unit: 'kW', status: -1 }]);
    const idle = toEnergyFlow(meter, sample(meter, { gd_active_power: 0, gd_l1_voltage: 230 }), {
      status: 0,
      date: 'x',
    });
    expect(idle.gd_status[0]!.status).toBe(1); // mains present
  });

  it('queryDeviceLastData list: id, timestamp, then fields', () => {
    const def = getDefinition(2376)!;
    const d = sample(def, { gd_eybond_read_15: 230.7, bt_battery_capacity: 85 });
    const rows = toLastDataList(def, d, 42, '2025-03-06 19:45:35');
    expect(rows.slice(0, 3)).toEqual([
      { title: 'id', val: '42' },
      { title: 'Timestamp', val: '2025-03-06 19:45:35' },
      { title: 'Grid Voltage', val: '230.7', unit: 'V' },
    ]);
    expect(rows.find((r) => r.title === 'Battery percentage')).toEqual({
      title: 'Battery percentage',
      val: '85',
      unit: '%',
    });
    expect(rows.some((r) => r.title === 'Fault Code')).toBe(false); // internal fields stay internal
  });

  it('translate option localises titles, chart names and control texts', () => {
    const def = getDefinition(2428)!;
    const opts = { locale: 'de_DE', translate: (s: string, ctx: { kind: string }) => `${ctx.kind}:${s}` };
    const last = toSPLastData(def, { values: {}, labels: {} }, 'x', opts);
    expect(last.pars.gd_![0]!.par).toBe('field:Grid voltage');
    expect(toChartsFields(def, 1, opts)[0]!.name).toBe('chart:AC output voltage');
    expect(toCtrlFields(def, opts).field[0]).toEqual({
      id: 'bse_output_source_priority',
      name: 'control:Output source priority rating',
      item: [
        { key: '12336', val: 'item:Utility first' },
        { key: '12337', val: 'item:Solar first' },
        { key: '12338', val: 'item:SBU first' },
      ],
    });
    expect(toChartsFieldsByType(def)[0]).toEqual({
      optional: 'bc_output_voltage',
      name: 'AC output voltage',
      uint: 'V',
      order: 1000,
    });
  });
});

describe('controls', () => {
  const d2376 = getDefinition(2376)!;
  const d2428 = getDefinition(2428)!;
  const d2341 = getDefinition(2341)!;

  it('item controls accept their keys (string or numeric match) and write value/scale', () => {
    const w = encodeControl(d2376, 'bse_eybond_ctrl_64', '230.0');
    expect(w.ok && w.raw).toEqual([2300]);
    const addr = d2376.controls.find((c) => c.id === 'bse_eybond_ctrl_64')!.register.address;
    expect(w.ok && w.block).toEqual({ start: addr, hex: '08FC' });
    const ascii = encodeControl(d2428, 'bat_battery_type', '12337');
    expect(ascii.ok && ascii.block.hex).toBe('3031'); // "01"
    const padded = encodeControl(d2428, 'bat_max_charging_current', '30');
    expect(padded.ok && padded.raw).toEqual([30]);
    expect(encodeControl(d2376, 'bse_eybond_ctrl_64', '225')).toMatchObject({ ok: false, reason: 'invalid-value' });
    expect(encodeControl(d2341, 'bat_sp_bulk_charging_voltage', '56.4')).toMatchObject({ ok: true, raw: [564] });
    expect(encodeControl(d2341, 'bat_sp_bulk_charging_voltage', '40.0')).toMatchObject({ ok: false });
  });

  it('numeric controls check the hint ranges and steps', () => {
    expect(encodeControl(d2376, 'bat_eybond_ctrl_68', '57.5')).toMatchObject({ ok: true, raw: [575] });
    expect(encodeControl(d2376, 'bat_eybond_ctrl_68', '59.1')).toMatchObject({ ok: false, reason: 'out-of-range' });
    expect(encodeControl(d2376, 'bat_eybond_ctrl_70', '50.0')).toMatchObject({ ok: true }); // hint "54.4~48.0V"
    expect(encodeControl(d2428, 'bat_battery_cut_off_voltage', '23.5')).toMatchObject({ ok: true });
    expect(encodeControl(d2428, 'bat_battery_cut_off_voltage', '30.0')).toMatchObject({
      ok: false,
      reason: 'out-of-range',
    });
    expect(encodeControl(d2428, 'bat_battery_cut_off_voltage', 'abc')).toMatchObject({
      ok: false,
      reason: 'invalid-value',
    });
    expect(encodeControl(d2376, 'nope', '1')).toMatchObject({ ok: false, reason: 'unknown-control' });
    const pf = encodeControl(getDefinition(5121)!, 'grd_power_factor', '-0.95');
    expect(pf.ok && pf.block.hex).toBe('FC4A'); // -950
    expect(encodeControl(getDefinition(5121)!, 'grd_power_factor', '0.5')).toMatchObject({ ok: false });
  });

  it('datetime control packs YY MM | DD hh | mm ss', () => {
    const w = encodeControl(d2341, 'sys_system_time', '2025-03-06 20:19:21');
    expect(w.ok && w.raw).toEqual([25 * 256 + 3, 6 * 256 + 20, 19 * 256 + 21]);
    expect(encodeControl(d2341, 'sys_system_time', '2025-02-30 10:00:00')).toMatchObject({
      ok: false,
      reason: 'out-of-range',
    });
    expect(encodeControl(d2341, 'sys_system_time', 'now')).toMatchObject({ ok: false, reason: 'invalid-value' });
  });

  it('read-back values for queryDeviceCtrlValue', () => {
    const d = decodeDevice(d2376, {
      devcode: 2376,
      devaddr: 1,
      sn: 's',
      registers: encodeRegisters(d2376, { sy_eybond_read_49: 'SBU' }),
    });
    expect(readControlValue(d2376, 'bse_eybond_ctrl_49', d)).toBe('2');
    expect(readControlValue(d2376, 'bse_eybond_ctrl_48', d)).toBeUndefined();
    const bms = getDefinition(5123)!;
    const b = decodeDevice(bms, {
      devcode: 5123,
      devaddr: 1,
      sn: 's',
      registers: encodeRegisters(bms, { bt_charge_current_limit: 80 }),
    });
    expect(readControlValue(bms, 'bat_charge_current_limit', b)).toBe('80');
  });
});
