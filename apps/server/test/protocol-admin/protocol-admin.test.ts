import {
  DEVCODE_5121,
  ROLE,
  encodeRegisters,
  type AuthDat,
  type CollectorTypeCodeRow,
  type IngestFrame,
  type ProtocolBindingRow,
  type ProtocolChangeRow,
  type ProtocolDeviceRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicOf } from '../../src/ingest/topics.js';
import { BINDINGS_TTL_MS } from '../../src/modules/telemetry/devcode-bindings.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { datalogger, idOf, makeAccount, prepare } from '../distribution/helpers.js';
import { connectDatalogger, frame2341 } from '../factories/telemetry-ingest.js';
import { insertDatalogger, insertPlant } from '../factories/telemetry-rows.js';

const HOUR = 3600_000;
/** 2026-06-15 01:00 UTC: samples of the plant's (UTC) day of FIXED_NOW, before it. */
const T0 = FIXED_NOW - 3 * HOUR;
const DATE = '2026-06-15';

function frame5121(pn: string, sn: string, ts: number, pvW: number): IngestFrame {
  const v = syntheticValues(DEVCODE_5121, { phase: 1, overrides: { pv_output_power: pvW } });
  return { pn, ts, devices: [{ devcode: 5121, devaddr: 1, sn, registers: encodeRegisters(DEVCODE_5121, v) }] };
}

/**
 * Issue 14, typeCode / protocolBinding / protocolChange: a type code decides the type and
 * communication method of a new PN at registration (unknown letter: 387); a devcode binding makes
 * ingestion refuse other devcodes from the dataloggers it covers (on every instance within
 * seconds); a devcode change keeps the device's history decoding with the old definition.
 * Operator only, validated, audited.
 */
describe.each(engines)('protocol admin ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    sessions = await prepare(s);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  /** A datalogger of owner_anna's new plant (UTC), with a device token, for real MQTT frames. */
  async function annaDatalogger(pn: string): Promise<string> {
    const now = s.clock.now();
    const plant = await insertPlant(s.ctx.db, { owner_id: await idOf(s, 'owner_anna'), name: `Plant ${pn}`, now });
    await s.ctx.db.updateTable('projects').set({ tz_offset: 0 }).where('id', '=', plant).execute();
    await insertDatalogger(s.ctx.db, {
      pn,
      now: now - 30 * 24 * HOUR,
      owner_id: await idOf(s, 'owner_anna'),
      vendor_id: await idOf(s, 'sunmaker'),
      project_id: plant,
      tz_offset: 0,
    });
    return s.ctx.services.telemetry.issueDeviceToken(pn);
  }

  async function publish(pn: string, token: string, frames: IngestFrame[]): Promise<void> {
    const c = await connectDatalogger(s.mqtt!.port, pn, token);
    for (const f of frames) await c.publishAsync(topicOf(pn, 'data'), JSON.stringify(f), { qos: 1 });
    await c.endAsync();
    await s.ctx.services.telemetry.ingest.drain();
  }

  const samplesOf = async (pn: string) =>
    s.ctx.db
      .selectFrom('samples as x')
      .innerJoin('devices as d', 'd.id', 'x.device_id')
      .select(['x.ts', 'd.devcode'])
      .where('d.pn', '=', pn)
      .orderBy('x.ts')
      .execute();

  it('operator only; entries are validated', async () => {
    for (const [action, params] of [
      ['queryCollectorTypeCodes', {}],
      ['addCollectorTypeCode', { code: 'W', name: 'Wi-Fi stick', commMethod: 'Wi-Fi' }],
      ['queryProtocolBindings', {}],
      ['addProtocolBinding', { devcode: 2341, scope: 'prefix', pnFrom: 'SW' }],
      ['queryProtocolChanges', {}],
      ['queryProtocolDevices', { pn: 'SWNORTH0000001' }],
      ['changeDeviceProtocol', { deviceId: 1, devcode: 2341, reason: 'x' }],
    ] as const) {
      for (const who of ['sunmaker', 'dealer_north', 'owner_anna']) {
        expect((await call(who, action, params)).err, `${who} ${action}`).toBe(11);
      }
    }
    // type codes: one letter, a known communication method, a name
    expect((await call('operator', 'addCollectorTypeCode', { code: 'WW', name: 'x', commMethod: 'Wi-Fi' })).err).toBe(
      6,
    );
    expect((await call('operator', 'addCollectorTypeCode', { code: '1', name: 'x', commMethod: 'Wi-Fi' })).err).toBe(6);
    expect((await call('operator', 'addCollectorTypeCode', { code: 'W', name: 'x', commMethod: 'Pigeon' })).err).toBe(
      6,
    );
    expect((await call('operator', 'addCollectorTypeCode', { code: 'W', commMethod: 'Wi-Fi' })).err).toBe(6);
    expect((await call('operator', 'editCollectorTypeCode', { code: 'Z', name: 'x' })).err).toBe(387);
    // bindings: a known devcode, the bound its scope needs, a range in order
    expect((await call('operator', 'addProtocolBinding', { devcode: 9999, scope: 'prefix', pnFrom: 'SW' })).err).toBe(
      353,
    );
    expect((await call('operator', 'addProtocolBinding', { devcode: 2341, scope: 'prefix' })).err).toBe(7);
    expect((await call('operator', 'addProtocolBinding', { devcode: 2341, scope: 'type', typeCode: 'Q' })).err).toBe(
      387,
    );
    expect((await call('operator', 'addProtocolBinding', { devcode: 2341, scope: 'other', pnFrom: 'SW' })).err).toBe(6);
    expect(
      (await call('operator', 'addProtocolBinding', { devcode: 2341, scope: 'range', pnFrom: 'SWB', pnTo: 'SWA' })).err,
    ).toBe(6);
    expect((await call('operator', 'setProtocolBindingEnabled', { id: 999999, enabled: 0 })).err).toBe(12);
    expect((await call('operator', 'deleteProtocolBinding', { id: 999999 })).err).toBe(12);
    expect((await call('operator', 'queryProtocolDevices', { pn: 'NOSUCH00000001' })).err).toBe(257);
    expect((await call('operator', 'changeDeviceProtocol', { deviceId: 999999, devcode: 2341, reason: 'x' })).err).toBe(
      258,
    );
    expect(await s.ctx.db.selectFrom('protocol_bindings').selectAll().execute()).toEqual([]);
  });

  it('a type code decides a new PN’s type and communication method; an unknown type letter is refused (387)', async () => {
    // no type code yet: registration as before (the manufacturer's code as type, no method)
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWG00000000001' })).err).toBe(0);
    expect(await datalogger(s, 'SWG00000000001')).toMatchObject({ type_code: 'SW', comm_method: '' });

    const g = await call('operator', 'addCollectorTypeCode', {
      code: 'g',
      name: 'Cellular datalogger',
      commMethod: '4G',
      description: 'SIM card, flow card recharge',
    });
    expect(g).toMatchObject({ err: 0, dat: { code: 'G' } });
    expect((await call('operator', 'addCollectorTypeCode', { code: 'G', name: 'Again', commMethod: 'GPRS' })).err).toBe(
      14,
    );
    expect(
      (await call('operator', 'addCollectorTypeCode', { code: 'W', name: 'Wi-Fi stick', commMethod: 'Wi-Fi' })).err,
    ).toBe(0);

    // SW + G: the manufacturer's code, then the type letter
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWG00000000002' })).err).toBe(0);
    expect(await datalogger(s, 'SWG00000000002')).toMatchObject({ type_code: 'G', comm_method: '4G' });
    // an unknown letter: refused, nothing written
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWX00000000002' })).err).toBe(387);
    expect(await datalogger(s, 'SWX00000000002')).toBeUndefined();
    // a disabled type code registers nothing new
    expect((await call('operator', 'editCollectorTypeCode', { code: 'G', enabled: 0 })).err).toBe(0);
    expect((await call('operator', 'editCollectorTypeCode', { code: 'G', enabled: 0 })).err).toBe(271);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWG00000000003' })).err).toBe(387);
    expect((await call('operator', 'editCollectorTypeCode', { code: 'G', enabled: 1 })).err).toBe(0);

    // a PN rule's type code names the letter (code of another length than the manufacturer's)
    const other = await makeAccount(s, 'typemaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'TMK' });
    expect((await call('operator', 'addManufacturerCode', { vendorUid: other, code: 'TMK', typeCode: 'Q' })).err).toBe(
      0,
    );
    await makeAccount(s, 'tm_dealer', ROLE.DISTRIBUTOR, 'typemaker');
    sessions.set('tm_dealer', (await s.login('tm_dealer', 'Secret_2026')).dat!);
    expect((await call('tm_dealer', 'distAddCollector', { Dpn: 'TMKQ0000000001' })).err).toBe(387);
    expect(
      (await call('operator', 'addCollectorTypeCode', { code: 'Q', name: 'Ethernet box', commMethod: 'Ethernet' })).err,
    ).toBe(0);
    expect((await call('tm_dealer', 'distAddCollector', { Dpn: 'TMKQ0000000001' })).err).toBe(0);
    expect(await datalogger(s, 'TMKQ0000000001')).toMatchObject({
      type_code: 'Q',
      comm_method: 'Ethernet',
      vendor_id: other,
    });

    const list = await call<{ total: number; codes: CollectorTypeCodeRow[] }>('operator', 'queryCollectorTypeCodes', {
      pagesize: 2,
    });
    expect(list.dat!.total).toBe(3);
    expect(list.dat!.codes.map((c) => [c.code, c.commMethod, c.dataloggers])).toEqual([
      ['G', '4G', 1],
      ['Q', 'Ethernet', 1],
    ]);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'usr', 'after'])
      .where('entity', '=', 'datalogger_type_code')
      .orderBy('id')
      .execute();
    expect(audit[0]).toMatchObject({ action: 'addCollectorTypeCode', usr: 'operator' });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ code: 'G', comm_method: '4G', enabled: 1 });
  });

  it('a devcode binding refuses unbound devcodes in real ingestion, on every instance within seconds', async () => {
    const pn = 'BNDA0000000001';
    const token = await annaDatalogger(pn);
    const other = 'BNDB0000000001';
    const otherToken = await annaDatalogger(other);
    // no binding: accepted (today's behaviour)
    await publish(pn, token, [frame2341(pn, T0, 0)]);
    expect(await samplesOf(pn)).toHaveLength(1);

    // a second instance on the same database has read the (empty) bindings
    const s2 = await startTestServer(engine, { shareWith: s, seed: false });
    try {
      const ingest2 = s2.ctx.services.telemetry.ingest;
      expect((await ingest2.submitData(pn, JSON.stringify(frame2341(pn, T0 + 60_000, 1)))).ok).toBe(true);

      // BNDA… may report 5121 only
      const added = await call<{ id: number }>('operator', 'addProtocolBinding', {
        devcode: 5121,
        scope: 'prefix',
        pnFrom: 'bnda',
        note: 'hybrid line',
      });
      expect(added.err).toBe(0);
      expect(
        (await call('operator', 'addProtocolBinding', { devcode: 5121, scope: 'prefix', pnFrom: 'BNDA' })).err,
      ).toBe(14);
      // this instance: at once, over MQTT (acknowledged, refused, counted)
      const bad = s.ctx.services.telemetry.metrics.badByReason.unbound_devcode;
      await publish(pn, token, [frame2341(pn, T0 + 120_000, 2)]);
      expect(await samplesOf(pn)).toHaveLength(2);
      expect(s.ctx.services.telemetry.metrics.badByReason.unbound_devcode).toBe(bad + 1);
      const r = await s.ctx.services.telemetry.ingest.submitData(pn, JSON.stringify(frame2341(pn, T0 + 180_000, 3)));
      expect(r).toMatchObject({ ok: false, reason: 'unbound_devcode' });
      // a bound devcode goes through; a datalogger no binding covers reports anything
      expect(
        (await s.ctx.services.telemetry.ingest.submitData(pn, JSON.stringify(frame5121(pn, `${pn}-H`, T0, 3000)))).ok,
      ).toBe(true);
      await publish(other, otherToken, [frame2341(other, T0, 0)]);
      expect(await samplesOf(other)).toHaveLength(1);

      // the other instance: within the bindings' lifetime (2 s)
      s.clock.advance(BINDINGS_TTL_MS + 1);
      expect(await ingest2.submitData(pn, JSON.stringify(frame2341(pn, T0 + 240_000, 4)))).toMatchObject({
        ok: false,
        reason: 'unbound_devcode',
      });

      // a range binding adds 2341 for BNDA0000000001 only
      expect(
        (
          await call('operator', 'addProtocolBinding', {
            devcode: 2341,
            scope: 'range',
            pnFrom: 'BNDA0000000001',
            pnTo: 'BNDA0000000009',
          })
        ).err,
      ).toBe(0);
      expect(
        (await s.ctx.services.telemetry.ingest.submitData(pn, JSON.stringify(frame2341(pn, T0 + 300_000, 5)))).ok,
      ).toBe(true);
      // disabling the prefix binding: the range binding alone covers it (2341 only)
      expect((await call('operator', 'setProtocolBindingEnabled', { id: added.dat!.id, enabled: 0 })).err).toBe(0);
      expect(
        await s.ctx.services.telemetry.ingest.submitData(
          pn,
          JSON.stringify(frame5121(pn, `${pn}-H`, T0 + 300_000, 3000)),
        ),
      ).toMatchObject({
        ok: false,
        reason: 'unbound_devcode',
      });

      const list = await call<{ total: number; bindings: ProtocolBindingRow[] }>('operator', 'queryProtocolBindings', {
        search: 'bnda',
      });
      expect(list.dat!.total).toBe(2);
      expect(list.dat!.bindings.map((b) => [b.devcode, b.scope, b.pnFrom, b.enabled, b.dataloggers])).toEqual([
        [2341, 'range', 'BNDA0000000001', true, 1],
        [5121, 'prefix', 'BNDA', false, 1],
      ]);
      // deleting every binding: everything accepted again
      for (const b of list.dat!.bindings)
        expect((await call('operator', 'deleteProtocolBinding', { id: b.id })).err).toBe(0);
      s.clock.advance(BINDINGS_TTL_MS + 1);
      expect((await ingest2.submitData(pn, JSON.stringify(frame5121(pn, `${pn}-H`, T0 + 360_000, 3000)))).ok).toBe(
        true,
      );
      const audit = await s.ctx.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity', '=', 'protocol_binding')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual([
        'addProtocolBinding',
        'addProtocolBinding',
        'setProtocolBindingEnabled',
        'deleteProtocolBinding',
        'deleteProtocolBinding',
      ]);
    } finally {
      await s2.stop();
    }
  });

  it("a devcode change keeps the device's history readable with the old definition", async () => {
    const pn = 'CHGA0000000001';
    const sn = `${pn}-INV1`;
    const token = await annaDatalogger(pn);
    await publish(
      pn,
      token,
      [0, 1, 2].map((i) => frame2341(pn, T0 + i * 300_000, i)),
    );
    const old = { pn, devcode: 2341, devaddr: 1, sn };
    const before = await call<Array<{ val: string; ts: string }>>(
      'owner_anna',
      'queryDeviceActiveOuputPowerOneDay24Hour',
      {
        ...old,
        date: DATE,
      },
    );
    expect(before.err).toBe(0);
    expect(before.dat).toHaveLength(3);
    expect(before.dat!.some((p) => Number(p.val) > 0)).toBe(true);

    const found = await call<{ devices: ProtocolDeviceRow[] }>('operator', 'queryProtocolDevices', { pn, sn });
    expect(found.dat!.devices).toHaveLength(1);
    const dev = found.dat!.devices[0]!;
    expect(dev).toMatchObject({ devcode: 2341, devaddr: 1, sn, changes: 0 });
    expect((await call('operator', 'queryProtocolDevices', { pn, devaddr: 7 })).dat).toEqual({ devices: [] });

    expect((await call('operator', 'changeDeviceProtocol', { deviceId: dev.id, devcode: 5121, reason: '' })).err).toBe(
      6,
    );
    expect((await call('operator', 'changeDeviceProtocol', { deviceId: dev.id, devcode: 9999, reason: 'x' })).err).toBe(
      353,
    );
    expect((await call('operator', 'changeDeviceProtocol', { deviceId: dev.id, devcode: 2341, reason: 'x' })).err).toBe(
      271,
    );
    const changedAt = s.clock.now();
    const changed = await call<{ id: number }>('operator', 'changeDeviceProtocol', {
      deviceId: dev.id,
      devcode: 5121,
      reason: 'Replaced by the hybrid firmware',
    });
    expect(changed.err).toBe(0);

    // the device now reports 5121: the same device row takes the new frames
    await publish(pn, token, [frame5121(pn, sn, T0 + 3 * 300_000, 4200)]);
    const rows = await samplesOf(pn);
    expect(rows.map((r) => Number(r.devcode))).toEqual([5121, 5121, 5121, 5121]);
    const devices = await s.ctx.db.selectFrom('devices').select(['id', 'devcode']).where('pn', '=', pn).execute();
    expect(devices).toEqual([{ id: dev.id, devcode: 5121 }]);

    // the day curve: the three old samples decode as 2341 did, the new one as 5121
    const now = { pn, devcode: 5121, devaddr: 1, sn };
    const after = await call<Array<{ val: string; ts: string }>>(
      'owner_anna',
      'queryDeviceActiveOuputPowerOneDay24Hour',
      {
        ...now,
        date: DATE,
      },
    );
    expect(after.err).toBe(0);
    expect(after.dat!.slice(0, 3)).toEqual(before.dat);
    expect(after.dat![3]!.val).toBe('4.2000');
    // the old identity is gone
    expect((await call('owner_anna', 'queryDeviceActiveOuputPowerOneDay24Hour', { ...old, date: DATE })).err).toBe(258);
    // the operator's stored raw frames: each sample re-parsed with the devcode of its time
    const raw = await call<{ rows: Array<{ ts: number; device: { devcode: number } }> }>(
      'operator',
      'webQueryDeviceRawData',
      { ...now, from: T0, to: T0 + HOUR, pagesize: 10 },
    );
    expect(raw.err).toBe(0);
    expect(raw.dat!.rows.map((r) => r.device.devcode)).toEqual([5121, 2341, 2341, 2341]);

    const list = await call<{ total: number; changes: ProtocolChangeRow[] }>('operator', 'queryProtocolChanges', {
      search: 'chga',
    });
    expect(list.dat!.total).toBe(1);
    expect(list.dat!.changes[0]).toMatchObject({
      deviceId: dev.id,
      oldDevcode: 2341,
      newDevcode: 5121,
      reason: 'Replaced by the hybrid firmware',
      changedBy: 'operator',
      changedAt,
      // the new devcode is in force after the last sample stored under the old one
      fromTs: T0 + 2 * 300_000 + 1,
    });
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'device')
      .where('action', '=', 'changeDeviceProtocol')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ devcode: 2341 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ devcode: 5121, reason: 'Replaced by the hybrid firmware' });
  });
});
