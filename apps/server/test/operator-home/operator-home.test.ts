import { ROLE, type AuthDat, type OperatorHomeDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/index.js';
import { MINUTE_MS, pruneIngestMinutes } from '../../src/modules/telemetry/ingest-minutes.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { makeAccount, prepare } from '../distribution/helpers.js';
import { connectDatalogger, createDatalogger, frame2341 } from '../factories/telemetry-ingest.js';

/**
 * Issue 14, operator home: real frames through ingestion (MQTT on one instance, the ingest service
 * of a second instance on the same database) are counted per minute and instance and summed by
 * the home; action-log entries give the call rate, the error rate and the p99 per action; the
 * platform counts follow the data; only the operator may read it.
 */
describe.each(engines)('operator home ($name)', (engine) => {
  let s: TestServer;
  let s2: TestServer;
  let sessions: Map<string, AuthDat>;
  const home = async (): Promise<OperatorHomeDat> => {
    const r = await s.call<OperatorHomeDat>(sessions.get('operator')!, 'queryOperatorHome');
    expect(r.err).toBe(0);
    return r.dat!;
  };

  beforeAll(async () => {
    const telemetry = { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false };
    s = await startTestServer(engine, { now: FIXED_NOW, config: { telemetry } });
    s2 = await startTestServer(engine, { shareWith: s, seed: false, config: { telemetry } });
    sessions = await prepare(s);
  }, 60_000);
  afterAll(async () => {
    await s2?.stop();
    await s?.stop();
  });

  it('only the operator reads it', async () => {
    for (const usr of ['sunmaker', 'dealer_north', 'north_ops', 'owner_anna', 'viewer_cara']) {
      expect((await s.call(sessions.get(usr)!, 'queryOperatorHome')).err, usr).toBe(11);
    }
    expect((await s.call(sessions.get('operator')!, 'queryOperatorHome')).err).toBe(0);
  });

  it('counts the frames and datapoints of every instance per minute', async () => {
    const before = await home();
    const dl = await createDatalogger(s.ctx);
    const N = 6;
    const pointsBefore = s.ctx.services.telemetry.ingest.metrics.datapointsStored;
    const c = await connectDatalogger(s.mqtt!.port, dl.pn, dl.token);
    for (let i = 0; i < N; i++) {
      // PUBACK comes after the frame's batch committed
      await c.publishAsync(topicOf(dl.pn, 'data'), JSON.stringify(frame2341(dl.pn, FIXED_NOW - (N - i) * 300_000, i)), {
        qos: 1,
      });
    }
    await c.endAsync();
    const points = s.ctx.services.telemetry.ingest.metrics.datapointsStored - pointsBefore;
    // a 2341 register block carries 52 values
    expect(points).toBe(N * 52);
    const minute = FIXED_NOW - (FIXED_NOW % MINUTE_MS);
    expect(s.ctx.services.telemetry.ingest.minutes.pending().get(minute)).toEqual({ frames: N, points });

    // the second instance ingests 2 frames of the same datalogger
    for (let i = 0; i < 2; i++) {
      const r = await s2.ctx.services.telemetry.ingest.submitData(
        dl.pn,
        JSON.stringify(frame2341(dl.pn, FIXED_NOW - 60_000 * (i + 1), 100 + i)),
      );
      expect(r.ok).toBe(true);
    }
    // nothing written before the minute is over
    await s.ctx.services.telemetry.ingest.minutes.flush();
    expect((await home()).ingest.framesPerSec).toBe(before.ingest.framesPerSec);

    s.clock.advance(70_000);
    await s.ctx.services.telemetry.ingest.minutes.flush();
    await s2.ctx.services.telemetry.ingest.minutes.flush();
    const rows = await s.ctx.db.selectFrom('ingest_minutes').selectAll().where('minute', '=', minute).execute();
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.instance_id)).size).toBe(2);

    const h = await home();
    const frames = N + 2;
    const allPoints = frames * 52;
    expect(h.ingest.framesPerSec).toBe(Math.round((frames / 60) * 100) / 100);
    expect(h.ingest.pointsPerSec).toBe(Math.round((allPoints / 60) * 100) / 100);
    expect(h.ingest.frames24h - before.ingest.frames24h).toBe(frames);
    expect(h.ingest.points24h - before.ingest.points24h).toBe(allPoints);
    expect(h.ingest.instances).toBe(2);
    expect(h.ingest.hours).toHaveLength(24);
    expect(h.ingest.hours.at(-1)).toMatchObject({ start: FIXED_NOW, frames, points: allPoints });

    // the datalogger reported: online; its device is counted by status
    expect(h.dataloggers.total).toBe(before.dataloggers.total + 1);
    expect(h.dataloggers.online).toBe(before.dataloggers.online + 1);
    expect(h.devices.total).toBe(before.devices.total + 1);
    expect(h.devices.byStatus.reduce((a, b) => a + b, 0)).toBe(h.devices.total);
    expect(h.plants).toBe(before.plants + 1);
  });

  it('action-log entries give the call rate, the error rate and the p99 per action', async () => {
    const log = s.ctx.services.actionLog;
    await log.flush();
    const before = await home();
    const ts = s.clock.now();
    const entry = { account_id: null, usr: 'bench', ip: '127.0.0.1', user_agent: 'test', params: {} };
    for (let d = 1; d <= 100; d++) log.record({ ...entry, ts, action: 'zzHomeSlow', err: 0, duration_ms: d });
    for (let i = 0; i < 10; i++) log.record({ ...entry, ts, action: 'zzHomeFailing', err: 11, duration_ms: 5000 + i });
    await log.flush();
    const h = await home();
    // 110 entries, plus the log entry of the first home call (written after its answer)
    expect(h.actions.calls24h - before.actions.calls24h).toBeGreaterThanOrEqual(110);
    expect(h.actions.calls24h - before.actions.calls24h).toBeLessThanOrEqual(111);
    expect(h.actions.errors24h - before.actions.errors24h).toBe(10);
    expect(h.actions.errorRate24h).toBeCloseTo(h.actions.errors24h / h.actions.calls24h, 3);
    expect(h.actions.errorRate).toBeGreaterThan(0);
    expect(h.actions.callsPerMin).toBeGreaterThanOrEqual(110 / 5);
    expect(h.actions.hours.at(-1)!.calls).toBe(h.actions.calls24h);

    expect(h.actions.slowest[0]).toEqual({
      action: 'zzHomeFailing',
      calls: 10,
      p99Ms: 5009,
      maxMs: 5009,
      avgMs: 5004.5,
    });
    expect(h.actions.slowest.find((a) => a.action === 'zzHomeSlow')).toEqual({
      action: 'zzHomeSlow',
      calls: 100,
      p99Ms: 99,
      maxMs: 100,
      avgMs: 50.5,
    });
    expect(h.actions.slowest.length).toBeLessThanOrEqual(10);

    // a day later they are out of the window
    s.clock.advance(25 * 3600_000);
    const later = await home();
    expect(later.actions.slowest.find((a) => a.action.startsWith('zzHome'))).toBeUndefined();
    expect(later.ingest.frames24h).toBe(0);
  });

  it('platform counts, storage and queues follow the data; old ingest rows are pruned', async () => {
    const before = await home();
    await makeAccount(s, 'home_maker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'HM' });
    const h = await home();
    expect(h.accounts.manufacturers).toBe(before.accounts.manufacturers + 1);
    expect(h.accounts.distributors).toBeGreaterThan(0);
    expect(h.accounts.owners).toBeGreaterThan(0);
    expect(h.storage.engine).toBe(engine.name === 'sqlite' ? 'sqlite' : 'postgres');
    expect(h.storage.bytes).toBeGreaterThan(100_000);
    expect(h.queues).toMatchObject({ mailPending: expect.any(Number), exporting: expect.any(Number) });

    const now = s.clock.now();
    await s.ctx.db
      .insertInto('ingest_minutes')
      .values([
        { minute: now - 8 * 24 * 3600_000, instance_id: 'old', frames: 1, points: 1 },
        { minute: now - 3600_000, instance_id: 'old', frames: 1, points: 1 },
      ])
      .execute();
    expect(await pruneIngestMinutes(s.ctx.db, now)).toBeGreaterThanOrEqual(1);
    const left = await s.ctx.db
      .selectFrom('ingest_minutes')
      .select('minute')
      .where('instance_id', '=', 'old')
      .execute();
    expect(left.map((r) => Number(r.minute))).toEqual([now - 3600_000]);
  });
});
