import { decodeDevice, encodeControl, getDefinition, type Heartbeat, type IngestFrame } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { DataloggerSim } from '../datalogger.js';
import { balance, type BatteryParams } from '../models/battery.js';
import type { Command, Publisher } from '../protocol/publisher.js';
import { LiveDatalogger, simClock } from '../runtime.js';
import type { DataloggerSpec } from '../types.js';
import { modbusCrc } from './device.js';

/** Anna's hybrid plant of the demo (2341 hybrid inverter + 5123 battery), without outages. */
const SPEC: DataloggerSpec = {
  pn: 'SWTEST00000001',
  site: { city: 'Hamburg', country: 'Germany', lat: 53.55, lon: 9.88, tzOffset: 3600 },
  system: {
    pvKWp: 7.2,
    battery: { capacityKWh: 10.24, maxChargeW: 5000, maxDischargeW: 5000, minSoc: 10, maxSoc: 100, efficiency: 0.92 },
    load: { dailyKWh: 11 },
    exportAllowed: false,
  },
  devices: [
    { devcode: 2341, devaddr: 1, sn: 'SW2341T0000101', encoding: 'registers' },
    { devcode: 5123, devaddr: 2, sn: 'SW5123T0000102', encoding: 'values' },
  ],
  collectInterval: 60,
  heartbeatInterval: 60,
  offlineRate: 0,
  warningRate: 0,
  faultRate: 0,
};
const INV = SPEC.devices[0]!;
const BAT = SPEC.devices[1]!;

class FakePublisher implements Publisher {
  connected = true;
  frames: IngestFrame[] = [];
  acks: Record<string, unknown>[] = [];
  connect() {
    this.connected = true;
    return Promise.resolve();
  }
  publishFrame(f: IngestFrame) {
    this.frames.push(structuredClone(f));
    return Promise.resolve();
  }
  publishHeartbeat(_h: Heartbeat) {
    return Promise.resolve();
  }
  onCommand(_h: (c: Command) => void) {}
  ack(b: Record<string, unknown>) {
    this.acks.push(b);
    return Promise.resolve();
  }
  close() {
    this.connected = false;
    return Promise.resolve();
  }
}

// 12:00 local on a June day: the sun is up.
const NOON = Date.UTC(2026, 5, 15, 11, 0, 0);

function live(start = NOON) {
  let now = start;
  const pub = new FakePublisher();
  const l = new LiveDatalogger(new DataloggerSim(structuredClone(SPEC)), pub, {
    clock: simClock({ wall: () => now }),
    offlineSpells: false,
  });
  return {
    l,
    pub,
    async advance(ms: number) {
      now += ms;
      await l.tick();
    },
    async cmd(cmd: string, params: Record<string, unknown>) {
      const id = `c${pub.acks.length + 1}`;
      await l.handleCommand({ id, cmd, ts: now, params });
      return pub.acks.find((a) => a.id === id)!;
    },
  };
}

const ctrlParams = (id: string, val: string, dev = INV) => {
  const def = getDefinition(dev.devcode)!;
  const w = encodeControl(def, id, val);
  if (!w.ok) throw new Error(w.message);
  return { devcode: dev.devcode, devaddr: dev.devaddr, sn: dev.sn, id, start: w.block.start, hex: w.block.hex };
};

const decoded = (f: IngestFrame, sn: string) => {
  const entry = f.devices.find((d) => d.sn === sn)!;
  return decodeDevice(getDefinition(entry.devcode)!, entry);
};

describe('device commands: ctrl', () => {
  it('writes the output source priority: acked, read back in the next frame, read answers the new words', async () => {
    const t = live();
    await t.advance(60_000);
    expect(decoded(t.pub.frames.at(-1)!, INV.sn).values.bc_output_source_priority).toBe(2); // SBU default
    const ack = await t.cmd('ctrl', ctrlParams('los_output_source_priority', '0'));
    expect(ack).toMatchObject({ ok: true, pn: SPEC.pn });
    // A Modbus "write multiple registers" reply with a valid CRC.
    const bytes = String((ack.result as { hex: string }).hex)
      .split(' ')
      .map((b) => parseInt(b, 16));
    expect(bytes.slice(0, 6)).toEqual([1, 0x10, 0x01, 0x2a, 0, 1]);
    const crc = modbusCrc(bytes.slice(0, 6));
    expect(bytes.slice(6)).toEqual([crc & 0xff, crc >> 8]);
    await t.advance(60_000);
    expect(decoded(t.pub.frames.at(-1)!, INV.sn).values.bc_output_source_priority).toBe(0);
    const r = await t.cmd('read', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'los_output_source_priority' });
    expect(r).toMatchObject({ ok: true, result: { hex: '0000', start: 298 } });
  });

  it('answers code 9 for an unknown control or register and code 6 for a value out of range', async () => {
    const t = live();
    await t.advance(60_000);
    expect(await t.cmd('ctrl', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'nope', start: 4000, hex: '0001' })).toMatchObject({
      ok: false,
      code: 9,
    });
    expect(
      await t.cmd('ctrl', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'los_output_source_priority', start: 298, hex: '0009' }),
    ).toMatchObject({ ok: false, code: 6 });
    expect(await t.cmd('ctrl', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'los_output_source_priority', hex: 'XYZ' })).toMatchObject({
      ok: false,
      code: 6,
    });
    // A device that is not behind this datalogger does not answer.
    expect(await t.cmd('ctrl', { devcode: 2341, devaddr: 9, sn: 'OTHER', id: 'los_output_source_priority', hex: '0001' })).toMatchObject({
      ok: false,
      code: 1,
    });
    await t.advance(60_000);
    expect(decoded(t.pub.frames.at(-1)!, INV.sn).values.bc_output_source_priority).toBe(2); // unchanged
  });

  it('battery limits: the charge current limit caps charging and shows in the battery read-back', async () => {
    // Without a limit the battery charges well above 10 A at noon…
    const free = live();
    for (let i = 0; i < 6; i++) await free.advance(60_000);
    expect(decoded(free.pub.frames.at(-1)!, BAT.sn).values.bt_battery_power!).toBeLessThan(-1000);
    const t = live();
    await t.advance(60_000);
    const ack = await t.cmd('ctrl', ctrlParams('bat_charge_current_limit', '10', BAT));
    expect(ack.ok).toBe(true);
    for (let i = 0; i < 5; i++) await t.advance(60_000);
    const v = decoded(t.pub.frames.at(-1)!, BAT.sn).values;
    expect(v.bt_charge_current_limit).toBe(10);
    // …with it, charging power (negative battery power) is at most 10 A × 51.2 V.
    expect(v.bt_battery_power!).toBeGreaterThanOrEqual(-512 - 1);
    expect(v.bt_battery_power!).toBeLessThan(-400);
  });
});

describe('device commands: rejected', () => {
  it('a battery carrying current rejects the sleep command (code 8)', async () => {
    const t = live();
    for (let i = 0; i < 3; i++) await t.advance(60_000);
    expect(Math.abs(t.l.sim.last!.snap.batteryW)).toBeGreaterThan(50);
    expect(await t.cmd('ctrl', ctrlParams('sys_sleep', '1', BAT))).toMatchObject({ ok: false, code: 8 });
  });
});

describe('device commands: read, passthrough, sync', () => {
  it('read answers the read-back value before any write and the written value after', async () => {
    const t = live();
    await t.advance(60_000);
    expect(await t.cmd('read', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'bat_charger_source_priority' })).toMatchObject({
      ok: true,
      result: { hex: '0000' },
    });
    await t.cmd('ctrl', ctrlParams('bat_max_total_charge_current', '40'));
    expect(await t.cmd('read', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'bat_max_total_charge_current' })).toMatchObject({
      result: { hex: '0028' },
    });
    expect(await t.cmd('read', { devcode: 2341, devaddr: 1, sn: INV.sn, id: 'missing' })).toMatchObject({ ok: false, code: 9 });
  });

  it('passthrough: a Modbus read of holding registers is answered from the device registers, deterministically', async () => {
    const t = live();
    await t.advance(60_000);
    await t.cmd('ctrl', ctrlParams('los_output_source_priority', '1'));
    const req = [1, 3, 0x01, 0x2a, 0, 1];
    const crc = modbusCrc(req);
    const a = await t.cmd('passthrough', { devcode: 2341, devaddr: 1, sn: INV.sn, hex: '01 03 01 2A 00 01' });
    const b = await t.cmd('passthrough', {
      devcode: 2341,
      devaddr: 1,
      sn: INV.sn,
      hex: [...req, crc & 0xff, crc >> 8].map((x) => x.toString(16).padStart(2, '0')).join(''),
    });
    expect(a).toMatchObject({ ok: true });
    expect((a.result as { hex: string }).hex.startsWith('01 03 02 00 01 ')).toBe(true);
    expect(b.result).toEqual(a.result);
    // A wrong CRC → 6; an unknown function → Modbus exception 01; another address → no answer (1).
    expect(await t.cmd('passthrough', { devcode: 2341, devaddr: 1, sn: INV.sn, hex: '01 03 01 2A 00 01 00 00' })).toMatchObject({
      ok: false,
      code: 6,
    });
    const ex = await t.cmd('passthrough', { devcode: 2341, devaddr: 1, sn: INV.sn, hex: '01 2B 0E 01' });
    expect((ex.result as { hex: string }).hex.startsWith('01 AB 01 ')).toBe(true);
    expect(await t.cmd('passthrough', { devcode: 2341, devaddr: 1, sn: INV.sn, hex: '05 03 00 00 00 01' })).toMatchObject({
      ok: false,
      code: 1,
    });
    expect(await t.cmd('passthrough', { devcode: 2341, devaddr: 1, sn: INV.sn, hex: 'ZZ' })).toMatchObject({ ok: false, code: 6 });
  });

  it('sync resends the stored samples of the range for that device only', async () => {
    const t = live();
    for (let i = 0; i < 10; i++) await t.advance(60_000);
    const sent = t.pub.frames.length;
    const from = t.pub.frames[2]!.ts;
    const to = t.pub.frames[5]!.ts;
    const ack = await t.cmd('sync', { devcode: 5123, devaddr: 2, sn: BAT.sn, from, to });
    expect(ack).toMatchObject({ ok: true, result: { frames: 4 } });
    await new Promise((r) => setTimeout(r, 10));
    await t.l.tick();
    const resent = t.pub.frames.slice(sent);
    expect(resent.map((f) => f.ts)).toEqual([from, from + 60_000, from + 120_000, to]);
    for (const f of resent) expect(f.devices.map((d) => d.sn)).toEqual([BAT.sn]);
    expect(await t.cmd('sync', { devcode: 5123, devaddr: 2, sn: BAT.sn, from: to, to: from })).toMatchObject({ ok: false, code: 6 });
  });
});

describe('output source priority changes the power flows', () => {
  const battery: BatteryParams = SPEC.system.battery!;
  const base = { dtS: 60, soc: 50, battery, exportAllowed: false };

  it('SBU covers an evening deficit from the battery, solar-first and utility-first from the grid', () => {
    const sbu = balance({ ...base, pvW: 0, loadW: 1500, priority: 'sbu' });
    const solar = balance({ ...base, pvW: 0, loadW: 1500, priority: 'solar' });
    const utility = balance({ ...base, pvW: 0, loadW: 1500, priority: 'utility' });
    expect(sbu).toMatchObject({ batteryW: 1500, gridW: 0 });
    expect(solar).toMatchObject({ batteryW: 0, gridW: 1500 });
    expect(utility).toMatchObject({ batteryW: 0, gridW: 1500 });
    // Without grid the battery still backs up the load.
    expect(balance({ ...base, pvW: 0, loadW: 1500, priority: 'solar', gridAvailable: false }).batteryW).toBe(1500);
  });

  it('utility-first charges the battery from PV before the load; grid charging tops it up', () => {
    const solar = balance({ ...base, pvW: 2000, loadW: 1500, priority: 'solar' });
    const utility = balance({ ...base, pvW: 2000, loadW: 1500, priority: 'utility' });
    expect(solar).toMatchObject({ batteryW: -500, gridW: 0 });
    expect(utility).toMatchObject({ batteryW: -2000, gridW: 1500 });
    const mains = balance({ ...base, pvW: 2000, loadW: 1500, priority: 'solar', gridChargeW: 1536 });
    expect(mains.batteryW).toBeCloseTo(-2036, 6);
    expect(mains.gridW).toBeCloseTo(1536, 6);
    for (const r of [solar, utility, mains]) {
      // pv + import + discharge = load + export + charge
      expect(r.pvW + r.gridW + r.batteryW).toBeCloseTo(r.loadW, 6);
    }
  });

  it('in the simulated plant: after switching to utility-first at night the battery stops discharging and the grid carries the load', async () => {
    const night = Date.UTC(2026, 5, 15, 21, 0, 0); // 23:00 local
    const t = live(night);
    await t.advance(60_000);
    const before = t.l.sim.last!.snap;
    expect(before.batteryW).toBeGreaterThan(0); // SBU: the battery carries the evening load
    await t.cmd('ctrl', ctrlParams('los_output_source_priority', '0'));
    await t.advance(60_000);
    const after = t.l.sim.last!.snap;
    expect(after.batteryW).toBe(0);
    expect(after.gridW).toBeCloseTo(after.loadW, 6);
    expect(decoded(t.pub.frames.at(-1)!, INV.sn).values.bc_output_source_priority).toBe(0);
    // And the setting survives a resume from the saved state.
    const resumed = new DataloggerSim(structuredClone(SPEC), t.l.sim.state());
    expect(resumed.settingsOf(INV.sn)).toEqual({ los_output_source_priority: 0 });
  });
});
