import { ALARM_LEVEL, DEVCODE_2341, DEVICE_STATUS } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { detectOfflineDataloggers, OFFLINE_ALARM_CODE } from '../../src/jobs/detect-offline-dataloggers.job.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { topicOf } from '../../src/ingest/topics.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import {
  connectDatalogger,
  createDatalogger,
  deviceState,
  frame2341,
  type TestDatalogger,
} from '../factories/telemetry-ingest.js';

const DAY0 = Date.UTC(2025, 5, 1, 20, 0, 0); // 2025-06-01 20:00 UTC
const STEP = 5 * 60_000;

describe.each(engines)('ingestion ($name)', (engine) => {
  let s: TestServer;
  let a: TestDatalogger;
  let b: TestDatalogger;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    a = await createDatalogger(s.ctx, { tz: 3 * 3600 });
    b = await createDatalogger(s.ctx);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const deviceOf = async (pn: string) =>
    s.ctx.db.selectFrom('devices').selectAll().where('pn', '=', pn).executeTakeFirst();

  it('stores frames published over MQTT: samples, latest values, day rollups, registered device', async () => {
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    // 24 samples every 5 min from 20:00 UTC = 23:00 local (UTC+3): crosses local midnight.
    const frames = Array.from({ length: 24 }, (_, i) => frame2341(a.pn, DAY0 + i * STEP, i, { asValues: i % 2 === 1 }));
    for (const f of frames) await c.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(f), { qos: 1 });
    await c.endAsync();

    const dev = await deviceOf(a.pn);
    expect(dev).toMatchObject({
      devcode: 2341,
      devaddr: 1,
      sn: `${a.pn}-INV1`,
      devtype: 2304,
      device_type: 1,
      project_id: a.projectId,
      status: 0,
    });
    const st = await deviceState(s.ctx, dev!.id);
    expect(st.samples).toEqual(frames.map((f) => f.ts));
    expect(st.latest).toBe(DAY0 + 23 * STEP);
    expect(st.days.map((d) => [d.day, d.samples])).toEqual([
      [20250601, 12],
      [20250602, 12],
    ]);
    const total = (k: 'generated' | 'used' | 'bought') => st.energy.reduce((x, e) => x + e[k], 0);
    expect(total('generated')).toBeCloseTo(23 * 0.7, 6);
    expect(total('used')).toBeCloseTo(23 * 0.3, 6);
    expect(total('bought')).toBeCloseTo(23 * 0.1, 6);
    // The stored sample is the decoded frame.
    const row = await s.ctx.db
      .selectFrom('device_latest')
      .select('data')
      .where('device_id', '=', dev!.id)
      .executeTakeFirstOrThrow();
    expect(decodeSample(DEVCODE_2341, row.data).energy_pv_total).toBeCloseTo(100 + 23 * 0.7, 6);
    const dl = await s.ctx.db.selectFrom('dataloggers').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(dl.status).toBe(0);
    expect(dl.last_seen_at).not.toBeNull();
  });

  it('a resent buffer (and out-of-order data) never double counts', async () => {
    const dev = await deviceOf(a.pn);
    const before = await deviceState(s.ctx, dev!.id);
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    const frames = Array.from({ length: 24 }, (_, i) => frame2341(a.pn, DAY0 + i * STEP, i)).reverse();
    for (const f of frames) await c.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(f), { qos: 1 });
    // A late sample that belongs between two stored ones.
    await c.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(frame2341(a.pn, DAY0 + 2 * STEP + 1000, 2)), { qos: 1 });
    await c.endAsync();
    const after = await deviceState(s.ctx, dev!.id);
    expect(after.samples.length).toBe(before.samples.length + 1);
    expect(after.latest).toBe(before.latest);
    expect(after.energy).toEqual(before.energy);
    expect(after.days[0]!.samples).toBe(before.days[0]!.samples + 1);
    expect(s.ctx.services.telemetry.metrics.samplesDuplicate).toBeGreaterThanOrEqual(24);
  });

  it('refuses a wrong device token (CONNACK bad user name or password)', async () => {
    await expect(connectDatalogger(s.mqtt!.port, a.pn, 'not-the-token')).rejects.toThrow(/Bad username or password/i);
    await expect(connectDatalogger(s.mqtt!.port, 'NO-SUCH-PN', a.token)).rejects.toThrow(/Bad username or password/i);
  });

  it("refuses publishing to another datalogger's topic and stores nothing", async () => {
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    c.publish(topicOf(b.pn, 'data'), JSON.stringify(frame2341(b.pn, DAY0, 0)), { qos: 1 });
    await closed;
    c.end(true);
    await s.ctx.services.telemetry.ingest.drain();
    expect(await deviceOf(b.pn)).toBeUndefined();
  });

  it("refuses subscribing to another datalogger's cmd topic; its own cmd topic works", async () => {
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    const other = await c.subscribeAsync(topicOf(b.pn, 'cmd'), { qos: 1 }).catch((e: Error) => e);
    if (other instanceof Error) expect(other.message).toMatch(/subscribe|128/i);
    else expect(other[0]!.qos).toBe(128);
    const wild = await c.subscribeAsync('sw/dl/+/data', { qos: 1 }).catch((e: Error) => e);
    if (!(wild instanceof Error)) expect(wild[0]!.qos).toBe(128);
    const c2 = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    const own = await c2.subscribeAsync(topicOf(a.pn, 'cmd'), { qos: 1 });
    expect(own[0]!.qos).toBe(1);
    const got = new Promise<string>((r) => c2.once('message', (_t, p) => r(p.toString())));
    await s.ctx.services.telemetry.publishCommand(a.pn, '{"cmd":"ping"}');
    expect(await got).toBe('{"cmd":"ping"}');
    const acked = new Promise<[string, string]>((r) => {
      const off = s.ctx.services.telemetry.onAck((pn, p) => {
        off();
        r([pn, p.toString()]);
      });
    });
    await c2.publishAsync(topicOf(a.pn, 'ack'), '{"ok":1}', { qos: 1 });
    expect(await acked).toEqual([a.pn, '{"ok":1}']);
    c.end(true);
    await c2.endAsync();
  });

  it('rejects and counts bad frames without crashing', async () => {
    const c = await connectDatalogger(s.mqtt!.port, b.pn, b.token);
    const m = s.ctx.services.telemetry.metrics;
    const bad0 = m.badFrames;
    await c.publishAsync(topicOf(b.pn, 'data'), '{not json', { qos: 1 });
    await c.publishAsync(topicOf(b.pn, 'data'), JSON.stringify({ pn: b.pn, ts: 'x', devices: [] }), { qos: 1 });
    await c.publishAsync(
      topicOf(b.pn, 'data'),
      JSON.stringify({ pn: b.pn, ts: DAY0, devices: [{ devcode: 9999, devaddr: 1, sn: 'X' }] }),
      { qos: 1 },
    );
    await c.publishAsync(
      topicOf(b.pn, 'data'),
      JSON.stringify({ pn: a.pn, ts: DAY0, devices: [{ devcode: 2341, devaddr: 1, sn: 'X' }] }),
      { qos: 1 },
    );
    await c.publishAsync(
      topicOf(b.pn, 'data'),
      JSON.stringify({
        pn: b.pn,
        ts: DAY0,
        devices: [{ devcode: 2341, devaddr: 1, sn: 'X', registers: [{ start: 0, hex: 'ZZZZ' }] }],
      }),
      { qos: 1 },
    );
    await c.publishAsync(topicOf(b.pn, 'heartbeat'), '[]', { qos: 1 });
    // Still connected and working.
    await c.publishAsync(topicOf(b.pn, 'data'), JSON.stringify(frame2341(b.pn, DAY0, 0)), { qos: 1 });
    await c.endAsync();
    await s.ctx.services.telemetry.ingest.drain();
    expect(m.badFrames - bad0).toBe(6);
    expect(m.badByReason.json).toBeGreaterThanOrEqual(1);
    expect(m.badByReason.unknown_devcode).toBeGreaterThanOrEqual(1);
    expect(m.badByReason.pn_mismatch).toBeGreaterThanOrEqual(1);
    const dl = await s.ctx.db
      .selectFrom('dataloggers')
      .select('bad_frames')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(dl.bad_frames).toBe(6);
    const dev = await s.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', b.pn)
      .where('sn', '=', `${b.pn}-INV1`)
      .executeTakeFirst();
    expect(dev).toBeDefined();
  });

  it('opens a fault alarm from the fault field and closes it; device status follows', async () => {
    const d = await createDatalogger(s.ctx);
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, DAY0, 0, { fault: 2 })), { qos: 1 });
    const dev = await deviceOf(d.pn);
    expect(dev!.status).toBe(DEVICE_STATUS.FAULT);
    let alarms = await s.ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', dev!.id).execute();
    expect(alarms.map((x) => [x.level, x.code, x.ended_at])).toEqual([[2, 2, null]]);
    // An older sample does not change status or alarms.
    await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, DAY0 - STEP, 0)), { qos: 1 });
    expect((await deviceOf(d.pn))!.status).toBe(DEVICE_STATUS.FAULT);
    // A repeated fault does not open a second row; an alarm opened elsewhere (another instance) is closed too.
    await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, DAY0 + 1000, 0, { fault: 2 })), {
      qos: 1,
    });
    await s.ctx.db
      .insertInto('alarms')
      .values({
        datalogger_id: d.id,
        device_id: dev!.id,
        level: 1,
        code: 77,
        description: 'x',
        started_at: DAY0,
        ended_at: null,
        handled: 0,
      })
      .execute();
    await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, DAY0 + STEP, 1)), { qos: 1 });
    await c.endAsync();
    expect((await deviceOf(d.pn))!.status).toBe(DEVICE_STATUS.NORMAL);
    alarms = await s.ctx.db.selectFrom('alarms').selectAll().where('device_id', '=', dev!.id).execute();
    expect(alarms.map((x) => [x.level, x.code, x.ended_at])).toEqual([
      [2, 2, DAY0 + STEP],
      [1, 77, DAY0 + STEP],
    ]);
  });

  it('HTTP ingest: stores with a device token, 385 without, counts bad JSON', async () => {
    const d = await createDatalogger(s.ctx);
    const post = (kind: string, body: string, token?: string) =>
      s.request<{ err: number; desc: string; dat?: { stored: number; duplicates: number } }>(
        `/ingest/v1/${d.pn}/${kind}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body,
        },
      );
    const f = JSON.stringify(frame2341(d.pn, DAY0, 0));
    const ok = await post('data', f, d.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ err: 0, desc: 'ERR_NONE', dat: { stored: 1, duplicates: 0, rejected: 0 } });
    expect((await post('data', f, d.token)).body.dat).toEqual({ stored: 0, duplicates: 1, rejected: 0 });
    const noToken = await post('data', f);
    expect(noToken.body).toMatchObject({ err: 385, desc: 'ERR_NOT_FOUND_DEVICE_TOKEN' });
    expect((await post('data', f, b.token)).body.err).toBe(385);
    const badJson = await post('data', '{"pn":', d.token);
    expect(badJson.status).toBe(400);
    expect(badJson.body.err).toBe(6);
    const hb = await post('heartbeat', JSON.stringify({ pn: d.pn, ts: Date.now(), fw: 'V2.1', signal: 77 }), d.token);
    expect(hb.body.err).toBe(0);
    const dl = await s.ctx.db.selectFrom('dataloggers').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    expect([dl.bad_frames, dl.firmware, dl.signal, dl.status]).toEqual([1, 'V2.1', 77, 0]);
    const dev = await deviceOf(d.pn);
    expect((await deviceState(s.ctx, dev!.id)).samples).toEqual([DAY0]);
  });

  it('marks a silent datalogger offline (alarm level 3) and back online when it reports', async () => {
    const d = await createDatalogger(s.ctx, { heartbeatInterval: 120 });
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    await c.publishAsync(topicOf(d.pn, 'data'), JSON.stringify(frame2341(d.pn, DAY0, 0)), { qos: 1 });
    await c.publishAsync(topicOf(d.pn, 'heartbeat'), JSON.stringify({ pn: d.pn, ts: s.clock.now() }), { qos: 1 });
    const dlState = () =>
      s.ctx.db.selectFrom('dataloggers').select(['status']).where('id', '=', d.id).executeTakeFirstOrThrow();
    const openOffline = () =>
      s.ctx.db
        .selectFrom('alarms')
        .selectAll()
        .where('datalogger_id', '=', d.id)
        .where('level', '=', ALARM_LEVEL.OFFLINE)
        .execute();
    expect(await detectOfflineDataloggers(s.ctx)).not.toContain(d.id);
    s.clock.advance(5 * 60_000); // 3 × 120 s = 6 min: not yet
    expect(await detectOfflineDataloggers(s.ctx)).not.toContain(d.id);
    s.clock.advance(2 * 60_000);
    expect(await detectOfflineDataloggers(s.ctx)).toContain(d.id);
    expect((await dlState()).status).toBe(DEVICE_STATUS.OFFLINE);
    expect((await deviceOf(d.pn))!.status).toBe(DEVICE_STATUS.OFFLINE);
    let alarms = await openOffline();
    expect(alarms.map((x) => [x.code, x.ended_at])).toEqual([[OFFLINE_ALARM_CODE, null]]);
    expect(await detectOfflineDataloggers(s.ctx)).not.toContain(d.id); // once
    await c.publishAsync(topicOf(d.pn, 'heartbeat'), JSON.stringify({ pn: d.pn, ts: s.clock.now() }), { qos: 1 });
    await c.endAsync();
    expect((await dlState()).status).toBe(DEVICE_STATUS.NORMAL);
    expect((await deviceOf(d.pn))!.status).toBe(DEVICE_STATUS.NORMAL);
    alarms = await openOffline();
    expect(alarms[0]!.ended_at).not.toBeNull();
  });

  it('job leases: only one runner holds a job at a time; another takes over after expiry', async () => {
    const r1 = new JobRunner(s.ctx.db, s.ctx.now, s.ctx.log);
    const r2 = new JobRunner(s.ctx.db, s.ctx.now, s.ctx.log);
    const name = `test-${engine.name}-${Date.now()}`;
    expect(await r1.runOnce(name, 60_000, () => Promise.resolve())).toBe(true);
    expect(await r2.runOnce(name, 60_000, () => Promise.resolve())).toBe(false);
    expect(await r1.runOnce(name, 60_000, () => Promise.resolve())).toBe(true);
    s.clock.advance(61_000);
    expect(await r2.runOnce(name, 60_000, () => Promise.reject(new Error('boom')))).toBe(true);
    const row = await s.ctx.db.selectFrom('jobs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    expect([row.lease_owner, row.last_error]).toEqual([r2.owner, 'boom']);
  });
});

describe('embedded broker port', () => {
  it('a taken MQTT_PORT fails the start with a message naming the port and MQTT_PORT', async () => {
    const net = await import('node:net');
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(
        startTestServer(engines[0]!, {
          seed: false,
          config: {
            telemetry: { ...loadConfig({}).telemetry, mqttPort: port, mqttHost: '127.0.0.1', jobsEnabled: false },
          },
        }),
      ).rejects.toThrow(new RegExp(`MQTT port ${port} on 127\\.0\\.0\\.1 is already in use.*MQTT_PORT=`));
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });
});
