import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Aedes } from 'aedes';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/topics.js';
import { engines, freshIp, startTestServer, type TestServer } from '../harness.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import { connectDatalogger, createDatalogger, frame2341, waitFor } from '../factories/telemetry-ingest.js';

const TOKEN = 'metrics-test-token-0123456789';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';

/** The value of one sample line of a Prometheus text exposition (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

describe.each(engines)('health, readiness and metrics ($name)', (engine) => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { ops: { ...defaultsOps(), metricsToken: TOKEN } } });
  });
  afterAll(() => s?.stop());

  it('/healthz answers while the process runs; /readyz checks database, migrations and broker', async () => {
    const h = await s.request<{ status: string }>('/healthz');
    expect(h.status).toBe(200);
    expect(h.body.status).toBe('ok');
    expect(h.headers.get('cache-control')).toBe('no-store');
    const r = await s.request<{ status: string }>('/readyz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ready' });
  });

  it('/readyz is 503 while a migration of this version is missing, and reports (ready) one it does not know', async () => {
    const db = s.ctx.db;
    const row = await sql<{
      name: string;
      timestamp: string;
    }>`select name, timestamp from kysely_migration where name = '0037-recharge-orders'`.execute(db);
    expect(row.rows).toHaveLength(1);
    await sql`delete from kysely_migration where name = '0037-recharge-orders'`.execute(db);
    try {
      const r = await s.request<{ status: string; reasons: string[] }>('/readyz');
      expect(r.status).toBe(503);
      expect(r.body.reasons).toEqual(['migrations pending: 0037-recharge-orders']);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row.rows[0]!.name}, ${row.rows[0]!.timestamp})`.execute(
        db,
      );
    }
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(
      db,
    );
    try {
      const r = await s.request<{ status: string; unknown_migrations: string[] }>('/readyz');
      expect(r.status).toBe(200);
      expect(r.body.unknown_migrations).toEqual(['9999-from-a-newer-version']);
    } finally {
      await sql`delete from kysely_migration where name = '9999-from-a-newer-version'`.execute(db);
    }
    expect((await s.request('/readyz')).status).toBe(200);
  });

  it('/readyz is 503 once shutdown has started', async () => {
    s.app.ops.draining = true;
    try {
      const r = await s.request<{ reasons: string[] }>('/readyz');
      expect(r.status).toBe(503);
      expect(r.body.reasons).toContain('shutting down');
    } finally {
      s.app.ops.draining = false;
    }
  });

  it('/metrics needs the bearer token', async () => {
    const none = await s.request('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.text).not.toContain('sunwatch_');
    const wrong = await s.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const basic = await s.request('/metrics', { headers: { authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
    const ok = await s.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('/metrics counts action calls, errors, latency, ingest frames, datapoints, bad frames, batches and connections', async () => {
    const scrape = async () => (await s.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text;
    const before = await scrape();
    const calls0 = sample(before, 'sunwatch_action_calls_total{action="queryAccountInfo"}') ?? 0;
    const ip = freshIp();
    const login = await s.login('owner_anna', 'Owner_2026', { ip });
    expect(login.err).toBe(0);
    const session = login.dat!;
    for (let i = 0; i < 3; i++) expect((await s.call(session, 'queryAccountInfo', {}, { ip })).err).toBe(0);
    // A signed call with a wrong sign: err 5 (sign), counted as an error of the action.
    const bad = await s.request<{ err: number }>(
      `/public/?sign=00&salt=1&token=${session.token}&action=queryAccountInfo`,
      { ip },
    );
    expect(bad.body.err).not.toBe(0);
    const badCode = bad.body.err;
    await s.request(`/public/?action=noSuchAction${Date.now()}`, { ip });

    const dl = await createDatalogger(s.ctx);
    const c = await connectDatalogger(s.mqtt!.port, dl.pn, dl.token);
    try {
      const t0 = Date.UTC(2025, 0, 2);
      for (let i = 0; i < 4; i++) {
        await c.publishAsync(topicOf(dl.pn, 'data'), JSON.stringify(frame2341(dl.pn, t0 + i * 60_000, i)), { qos: 1 });
      }
      await c.publishAsync(topicOf(dl.pn, 'data'), '{not json', { qos: 1 });
      // Wait until ingestion is quiet: connected, the 4 frames stored, the bad one counted and
      // every batch's commit time observed (a batch may still be finishing when a frame is acked).
      const text = await waitFor(async () => {
        const t = await scrape();
        const m = s.ctx.services.telemetry.metrics;
        const quiet =
          (sample(t, 'sunwatch_mqtt_connected_dataloggers') ?? 0) >= 1 &&
          (sample(t, 'sunwatch_ingest_samples_stored_total') ?? 0) >= 4 &&
          (sample(t, 'sunwatch_ingest_bad_frames_total{reason="json"}') ?? 0) >= 1 &&
          sample(t, 'sunwatch_ingest_batch_commit_seconds_count') === m.batches &&
          sample(t, 'sunwatch_ingest_frames_received_total') === m.framesReceived;
        return quiet ? t : undefined;
      });
      expect(sample(text, 'sunwatch_action_calls_total{action="queryAccountInfo"}')).toBe(calls0 + 4);
      expect(
        sample(text, `sunwatch_action_errors_total{action="queryAccountInfo",code="${badCode}"}`),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'sunwatch_action_calls_total{action="(unknown)"}')).toBeGreaterThanOrEqual(1);
      expect(text).not.toMatch(/action="noSuchAction/);
      expect(sample(text, 'sunwatch_action_duration_seconds_count{action="queryAccountInfo"}')).toBe(calls0 + 4);
      expect(sample(text, 'sunwatch_action_duration_seconds_bucket{le="+Inf",action="queryAccountInfo"}')).toBe(
        calls0 + 4,
      );
      expect(sample(text, 'sunwatch_action_calls_total{action="authSource"}')).toBeGreaterThanOrEqual(1);

      const m = s.ctx.services.telemetry.metrics;
      expect(sample(text, 'sunwatch_ingest_frames_received_total')).toBe(m.framesReceived);
      expect(m.framesReceived).toBeGreaterThanOrEqual(5);
      expect(sample(text, 'sunwatch_ingest_samples_stored_total')).toBeGreaterThanOrEqual(4);
      expect(sample(text, 'sunwatch_ingest_datapoints_total')).toBe(m.datapointsStored);
      expect(m.datapointsStored).toBeGreaterThanOrEqual(4 * 40);
      expect(sample(text, 'sunwatch_ingest_bad_frames_total{reason="json"}')).toBe(1);
      expect(sample(text, 'sunwatch_ingest_bad_frames_total{reason="schema"}')).toBe(0);
      expect(sample(text, 'sunwatch_ingest_batch_commit_seconds_count')).toBe(m.batches);
      expect(m.batches).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'sunwatch_ingest_batch_frames_sum')).toBeGreaterThanOrEqual(4);
      expect(sample(text, 'sunwatch_queue_depth{queue="ingest"}')).toBe(0);
      expect(sample(text, 'sunwatch_queue_depth{queue="action_log"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'sunwatch_mqtt_connected_dataloggers')).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      if (engine.name === 'postgres') {
        expect(sample(text, 'sunwatch_db_pool_connections{state="max"}')).toBe(10);
        expect(sample(text, 'sunwatch_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'sunwatch_db_pool_connections{state="waiting"}')).toBe(0);
      } else {
        expect(text).not.toContain('sunwatch_db_pool_connections{');
      }
    } finally {
      await c.endAsync();
    }
    const after = await waitFor(async () => {
      const t = await scrape();
      return sample(t, 'sunwatch_mqtt_connected_dataloggers') === 0 ? t : undefined;
    });
    expect(sample(after, 'sunwatch_mqtt_connected_dataloggers')).toBe(0);
  });

  it('/metrics reports the live heap: the heap in use right after the last major collection', async () => {
    const scrape = async () => (await s.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text;
    // A major collection now (gc() of V8's own flag, exposed at run time), then the observer's entry.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const garbage: unknown[] = [];
    for (let i = 0; i < 50_000; i++) garbage.push({ i, s: `x${i}` });
    garbage.length = 0;
    gc();
    const text = await waitFor(async () => {
      const t = await scrape();
      return sample(t, 'sunwatch_heap_live_bytes') !== undefined ? t : undefined;
    });
    const live = sample(text, 'sunwatch_heap_live_bytes')!;
    const total = sample(text, 'nodejs_heap_size_total_bytes')!;
    expect(live).toBeGreaterThan(1_000_000);
    expect(live).toBeLessThanOrEqual(total);
  });

  it('/readyz is 503 when the database is closed', async () => {
    const dead = await startTestServer(engine, { seed: false });
    await dead.ctx.database.close();
    const r = await dead.request<{ status: string; reasons: string[] }>('/readyz');
    expect(r.status).toBe(503);
    expect(r.body.reasons).toContain('database unreachable');
    expect((await dead.request('/healthz')).status).toBe(200);
    // The database is gone already: closing it again may fail; drop what the harness would have dropped.
    await dead.stop().catch(async () => {
      if (dead.config.databaseUrl) {
        await dropScratchDatabase(PG_URL, new URL(dead.config.databaseUrl).pathname.slice(1));
      }
    });
  });
});

function defaultsOps() {
  return { metricsHost: '127.0.0.1', shutdownTimeoutMs: 10_000 };
}

describe('metrics on METRICS_PORT; readiness follows the MQTT broker', () => {
  const engine = engines[0]!;

  it('without a token /metrics is only on the separate port; the main port answers 404', async () => {
    const s = await startTestServer(engine, { seed: false, config: { ops: { ...defaultsOps(), metricsPort: 0 } } });
    try {
      expect(s.metricsPort).toBeGreaterThan(0);
      expect((await s.request('/metrics')).status).toBe(404);
      const base = `http://127.0.0.1:${s.metricsPort}`;
      const m = await fetch(`${base}/metrics`);
      expect(m.status).toBe(200);
      expect(await m.text()).toContain('sunwatch_action_calls_total');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/public/`)).status).toBe(404);
      // The embedded broker stops: not ready (on both listeners).
      await s.mqtt!.close();
      const r = await fetch(`${base}/readyz`);
      expect(r.status).toBe(503);
      expect(((await r.json()) as { reasons: string[] }).reasons).toEqual(['embedded mqtt broker not listening']);
      expect((await s.request('/readyz')).status).toBe(503);
    } finally {
      await s.stop();
    }
    // Closed with the server.
    await expect(fetch(`http://127.0.0.1:${s.metricsPort}/healthz`)).rejects.toThrow();
  });

  it('with MQTT_URL, /readyz is 503 while the external broker is down and ready again once it is back', async () => {
    const broker = new Aedes();
    await broker.listen();
    const sockets = new Set<net.Socket>();
    const listener = net.createServer((sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      broker.handle(sock, undefined as never);
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as net.AddressInfo).port;
    const s = await startTestServer(engine, {
      seed: false,
      config: {
        telemetry: {
          ...loadConfig({}).telemetry,
          mqttUrl: `mqtt://127.0.0.1:${port}`,
          mqttClientId: `ops-test-${port}`,
        },
      },
    });
    try {
      expect((await s.request('/readyz')).status).toBe(200);
      listener.close();
      for (const sock of sockets) sock.destroy();
      const down = await waitFor(async () => {
        const r = await s.request<{ reasons: string[] }>('/readyz');
        return r.status === 503 ? r : undefined;
      });
      expect(down.body.reasons).toEqual(['mqtt broker not connected (MQTT_URL)']);
      await new Promise<void>((r) => listener.listen(port, '127.0.0.1', r));
      await waitFor(async () => (await s.request('/readyz')).status === 200, 10_000);
    } finally {
      await s.stop();
      listener.close();
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((r) => broker.close(() => r()));
    }
  });
});
