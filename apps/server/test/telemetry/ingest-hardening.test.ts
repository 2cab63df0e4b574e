import crypto from 'node:crypto';
import net from 'node:net';
import mqtt from 'mqtt';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { clientIdAllowed } from '../../src/ingest/mqtt-broker.js';
import { topicOf } from '../../src/ingest/topics.js';
import type { IngestStore } from '../../src/modules/telemetry/ingest-store.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import {
  clientIdOf,
  connectDatalogger,
  createDatalogger,
  deviceState,
  frame2341,
  waitFor,
  type TestDatalogger,
} from '../factories/telemetry-ingest.js';

/**
 * The attacker's report on the ingest path (docs/security/ingest.md), one regression test
 * per finding, on SQLite and PostgreSQL.
 */

const MIN = 60_000;
const DAY = 86_400_000;

describe.each(engines)('ingest hardening ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const ingest = () => s.ctx.services.telemetry.ingest;
  const metrics = () => s.ctx.services.telemetry.metrics;
  const post = (pn: string, token: string, body: string | Buffer, kind = 'data') =>
    s.request<{ err: number; desc: string; dat?: { stored: number; duplicates: number } }>(`/ingest/v1/${pn}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
  const devicesOf = (dl: TestDatalogger) =>
    s.ctx.db.selectFrom('devices').selectAll().where('datalogger_id', '=', dl.id).execute();
  const samplesOf = async (dl: TestDatalogger) => {
    const r = await sql<{ n: number | string }>`select count(*) as n from samples s join devices d on d.id = s.device_id
      where d.datalogger_id = ${dl.id}`.execute(s.ctx.db);
    return Number(r.rows[0]!.n);
  };
  const badFramesOf = async (dl: TestDatalogger) =>
    (await s.ctx.db.selectFrom('dataloggers').select('bad_frames').where('id', '=', dl.id).executeTakeFirstOrThrow())
      .bad_frames;
  const recent = () => Math.floor((s.clock.now() - DAY) / MIN) * MIN;

  // ------------------------------------------------------------------ 1. one frame stalls every tenant

  it('an MQTT packet over MQTT_MAX_PACKET_BYTES closes the connection at its header; the broker keeps serving', async () => {
    const d = await createDatalogger(s.ctx);
    const max = s.config.telemetry.limits.maxPacketBytes;
    const before = metrics().badByReason.too_large;
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(topicOf(d.pn, 'data'), Buffer.alloc(max + 1, 0x20), { qos: 1 });
    await closed;
    c.end(true);
    await waitFor(() => Promise.resolve(metrics().badByReason.too_large > before));
    await ingest().drain();
    expect(await badFramesOf(d)).toBe(1);
    // A raw socket announcing a 67 MB packet is dropped without the body ever arriving.
    const sock = net.connect(s.mqtt!.port, '127.0.0.1');
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const sockClosed = new Promise<void>((r) => sock.once('close', () => r()));
    sock.on('error', () => undefined);
    sock.write(Buffer.from([0x30, 0xff, 0xff, 0xff, 0x1f])); // PUBLISH, remaining length 67,108,863
    await sockClosed;
    // Others are unaffected.
    const ok = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    await ok.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, recent(), 0)), { qos: 1 });
    await ok.endAsync();
    expect(await samplesOf(d)).toBe(1);
  });

  it('nesting, element count, devices per frame and values per device are refused before any write', async () => {
    const d = await createDatalogger(s.ctx);
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    const l = s.config.telemetry.limits;
    const m = metrics();
    const limits0 = m.badByReason.limits;
    const deep = '['.repeat(l.maxDepth + 1) + ']'.repeat(l.maxDepth + 1);
    const manyItems = `[${'0,'.repeat(l.maxDevices * (l.maxValues + 16) + 100)}0]`;
    const base = frame2341(d.pn, recent(), 0);
    const manyDevices = {
      ...base,
      devices: Array.from({ length: l.maxDevices + 1 }, (_, i) => ({ ...base.devices[0]!, sn: `S${i}` })),
    };
    const manyValues = {
      ...base,
      devices: [{ ...base.devices[0]!, registers: [{ start: 0, hex: '0000'.repeat(l.maxValues + 1) }] }],
    };
    for (const body of [deep, manyItems, JSON.stringify(manyDevices), JSON.stringify(manyValues)]) {
      expect(Buffer.byteLength(body)).toBeLessThan(l.maxPacketBytes - 1000);
      await c.publishAsync(topicOf(d.pn, 'data'), body, { qos: 1 });
      const r = await post(d.pn, d.token, body);
      expect(r.status).toBe(400);
    }
    await c.endAsync();
    await ingest().drain();
    expect(m.badByReason.limits - limits0).toBeGreaterThanOrEqual(6);
    expect(await devicesOf(d)).toEqual([]);
    // HTTP: a body over the limit is 413, counted, and nothing is stored.
    const tooLarge0 = m.badByReason.too_large;
    const big = await post(d.pn, d.token, Buffer.alloc(l.maxPacketBytes + 1, 0x20));
    expect(big.status).toBe(413);
    expect(big.body.err).toBe(6);
    expect(m.badByReason.too_large).toBe(tooLarge0 + 1);
    await ingest().drain();
    expect(await devicesOf(d)).toEqual([]);
    expect(await badFramesOf(d)).toBeGreaterThanOrEqual(7);
  });

  // ------------------------------------------------------------------ 2. clientId takeover

  it("a datalogger cannot connect with another datalogger's client id (no session takeover)", async () => {
    const a = await createDatalogger(s.ctx);
    const b = await createDatalogger(s.ctx);
    const ca = await connectDatalogger(s.mqtt!.port, a.pn, a.token, { clientId: clientIdOf(a.pn) });
    let aClosed = false;
    ca.on('close', () => (aClosed = true));
    for (const id of [clientIdOf(a.pn), clientIdOf(a.pn, 'x'), `${a.pn}`, `dl-${b.pn}x`]) {
      await expect(connectDatalogger(s.mqtt!.port, b.pn, b.token, { clientId: id })).rejects.toThrow(
        /identifier|client id|Identifier rejected/i,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(aClosed).toBe(false);
    expect(ca.connected).toBe(true);
    await ca.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(frame2341(a.pn, recent(), 0)), { qos: 1 });
    // B's own ids work.
    const cb = await connectDatalogger(s.mqtt!.port, b.pn, b.token, { clientId: clientIdOf(b.pn, 'slot-2') });
    await cb.endAsync();
    await ca.endAsync();
    expect(metrics().badByReason.client_id).toBeGreaterThanOrEqual(4);
    // The rule itself (an empty id gets a broker-generated one, which is not derived from the PN either).
    expect(clientIdAllowed(`dl-${a.pn}`, a.pn)).toBe(true);
    expect(clientIdAllowed(`dl-${a.pn}/sim-1.x_2`, a.pn)).toBe(true);
    for (const bad of [
      '',
      'aedes_1234',
      a.pn,
      `dl-${a.pn}-x`,
      `dl-${a.pn}/`,
      `dl-${a.pn}/a/b`,
      `dl-${a.pn}/${'x'.repeat(33)}`,
    ]) {
      expect(clientIdAllowed(bad, a.pn), bad).toBe(false);
    }
  });

  // ------------------------------------------------------------------ 3. bad data lands

  it('a refused frame leaves nothing behind: no device row, no sample (HTTP 400, MQTT counted)', async () => {
    const d = await createDatalogger(s.ctx);
    const ts = recent();
    const good = frame2341(d.pn, ts, 0).devices[0]!;
    const frames = [
      { pn: d.pn, ts, devices: [{ devcode: 2341, devaddr: 1, sn: 'A1', values: {} }] },
      { pn: d.pn, ts, devices: [{ devcode: 2341, devaddr: 1, sn: 'A2', values: { no_such_field: 1 } }] },
      { pn: d.pn, ts, devices: [{ devcode: 2341, devaddr: 1, sn: 'A3', values: { gd_ac_input_voltage: 'NaN' } }] },
      { pn: d.pn, ts, devices: [{ devcode: 2341, devaddr: 1, sn: 'A4', extra: 1, registers: good.registers }] },
      // One good device and one bad one: the whole frame is refused.
      {
        pn: d.pn,
        ts,
        devices: [
          { ...good, sn: 'A5' },
          { devcode: 9999, devaddr: 2, sn: 'A6', values: { x: 1 } },
        ],
      },
      {
        pn: d.pn,
        ts,
        devices: [
          { ...good, sn: 'A7' },
          { devcode: 2341, devaddr: 3, sn: 'A8', values: {} },
        ],
      },
    ];
    const bad0 = await badFramesOf(d);
    for (const f of frames) {
      const r = await post(d.pn, d.token, JSON.stringify(f));
      expect(r.status, JSON.stringify(f)).toBe(400);
      expect(r.body.err).toBe(6);
    }
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    for (const f of frames) await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(f), { qos: 1 });
    await c.endAsync();
    await ingest().drain();
    expect(await devicesOf(d)).toEqual([]);
    expect(await samplesOf(d)).toBe(0);
    expect((await badFramesOf(d)) - bad0).toBe(2 * frames.length);
  });

  it('timestamps outside [registration − INGEST_BACKFILL_DAYS, now + 10 min] are refused; the latest is never in the future', async () => {
    const now = s.clock.now();
    const d = await createDatalogger(s.ctx, { createdAt: now - 2 * DAY });
    const l = s.config.telemetry.limits;
    const ts0 = metrics().badByReason.timestamp;
    const refused = [1, now - 2 * DAY - l.backfillDays * DAY - MIN, now + 23 * 3600_000, now + l.maxFutureMs + MIN];
    for (const ts of refused) {
      const r = await post(d.pn, d.token, JSON.stringify(frame2341(d.pn, ts, 0)));
      expect(r.status, String(ts)).toBe(400);
      expect(r.text).toContain('timestamp');
    }
    expect(metrics().badByReason.timestamp - ts0).toBe(refused.length);
    // Inside the window: the oldest backfill and a slightly fast clock are stored.
    const oldest = now - 2 * DAY - l.backfillDays * DAY + MIN;
    const past = Math.floor(now / 1000) * 1000 - 5 * MIN;
    const ahead = past + 5 * MIN + 5 * MIN; // ≈ now + 5 min
    for (const [i, ts] of [oldest, past, ahead].entries()) {
      const r = await post(d.pn, d.token, JSON.stringify(frame2341(d.pn, ts, i)));
      expect(r.status, String(ts)).toBe(200);
    }
    const [dev] = await devicesOf(d);
    const st = await deviceState(s.ctx, dev!.id);
    expect(st.samples.map(Number)).toEqual([oldest, past, ahead]);
    expect(Number(st.latest)).toBe(past); // the sample ahead of the clock is stored, never the latest
    const row = await s.ctx.db
      .selectFrom('devices')
      .select('last_sample_at')
      .where('id', '=', dev!.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.last_sample_at)).toBe(past);
    expect((await devicesOf(d)).length).toBe(1);
  });

  it("a datalogger registering another tenant's SN gets its own device row; neither owner's list or search merges them", async () => {
    const ben = (await s.ctx.repos.accounts.findByUsr('owner_ben'))!.id;
    const attacker = await createDatalogger(s.ctx);
    await s.ctx.db.updateTable('dataloggers').set({ owner_id: ben }).where('id', '=', attacker.id).execute();
    const victim = await s.ctx.db
      .selectFrom('devices')
      .selectAll()
      .where('sn', '=', 'SW2341N0000101')
      .executeTakeFirstOrThrow();
    const f = frame2341(attacker.pn, recent(), 0, { sn: 'SW2341N0000101' });
    expect((await post(attacker.pn, attacker.token, JSON.stringify(f))).status).toBe(200);
    const rows = await s.ctx.db
      .selectFrom('devices')
      .selectAll()
      .where('sn', '=', 'SW2341N0000101')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.datalogger_id, r.pn])).toEqual([
      [victim.datalogger_id, victim.pn],
      [attacker.id, attacker.pn],
    ]);
    // The victim's device is untouched (no sample, no status from the attacker's frame).
    expect((await deviceState(s.ctx, victim.id)).samples).toEqual([]);
    type List = { total: number; device: Array<{ sn: string; pn: string }> };
    const anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
    const filters: Array<Record<string, string>> = [{ search: 'SW2341N0000101' }, { sn: 'SW2341N0000101' }, {}];
    for (const params of filters) {
      const r = await s.call<List>(anna, 'webQueryDeviceEs', { pagesize: 50, ...params });
      expect(r.err).toBe(0);
      const hits = r.dat!.device.filter((x) => x.sn === 'SW2341N0000101');
      expect(hits.map((x) => x.pn)).toEqual([victim.pn]);
    }
    const benS = (await s.login('owner_ben', 'Owner_2026')).dat!;
    const r = await s.call<List>(benS, 'webQueryDeviceEs', { pagesize: 50, search: 'SW2341N0000101' });
    expect(r.dat!.device.map((x) => x.pn)).toEqual([attacker.pn]);
  });

  // ------------------------------------------------------------------ 4. acked but not stored

  it('MQTT: a frame whose batch fails to commit gets no PUBACK; it is resent and stored exactly once', async () => {
    const d = await createDatalogger(s.ctx);
    const real = ingest().store;
    let failures = 1;
    const flaky: IngestStore = {
      commit: (devs, rows, plan) =>
        rows.length > 0 && failures-- > 0
          ? Promise.reject(new Error('injected storage failure'))
          : real.commit(devs, rows, plan),
    };
    ingest().store = flaky;
    try {
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${s.mqtt!.port}`, {
        username: d.pn,
        password: d.token,
        clientId: clientIdOf(d.pn, crypto.randomBytes(3).toString('hex')),
        clean: false,
        reconnectPeriod: 100,
        connectTimeout: 5000,
      });
      let closes = 0;
      c.on('close', () => (closes += 1));
      const ts = recent();
      await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, ts, 0)), { qos: 1 });
      await c.endAsync();
      expect(failures).toBeLessThan(0); // the failure was injected
      expect(closes).toBeGreaterThanOrEqual(1); // the first attempt was answered by closing, not PUBACK
      const [dev] = await devicesOf(d);
      const st = await deviceState(s.ctx, dev!.id);
      expect(st.samples.map(Number)).toEqual([ts]);
      expect(st.days.map((x) => x.samples)).toEqual([1]);
      expect((await devicesOf(d)).length).toBe(1);
    } finally {
      ingest().store = real;
    }
  });

  it('HTTP: a failed commit answers 503 (JSON) and leaves nothing; the retry stores the frame once', async () => {
    const d = await createDatalogger(s.ctx);
    const real = ingest().store;
    ingest().store = { commit: () => Promise.reject(new Error('injected storage failure')) };
    const body = JSON.stringify(frame2341(d.pn, recent(), 0));
    try {
      const r = await post(d.pn, d.token, body);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ err: 3 });
    } finally {
      ingest().store = real;
    }
    expect(await devicesOf(d)).toEqual([]);
    const ok = await post(d.pn, d.token, body);
    expect(ok.status).toBe(200);
    expect(ok.body.dat).toMatchObject({ stored: 1, duplicates: 0 });
    expect(await samplesOf(d)).toBe(1);
  });
});
