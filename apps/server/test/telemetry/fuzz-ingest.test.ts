import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/topics.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { connectDatalogger, createDatalogger, frame2341, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Fuzzing the ingest path (deterministic seed, bounded count): random bytes, truncated and
 * mutated frames, deep nesting, huge element counts, oversized bodies over HTTP ingest and MQTT.
 * Every generated frame is invalid by construction, so each must be refused and counted as a bad
 * frame, never crash the server, never answer 5xx over HTTP (only an injected storage failure
 * may), and leave no device or sample row behind.
 */

const SEED = 0x5eed_2026;
const COUNT = 120;

/** mulberry32: small deterministic PRNG. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

type Rng = ReturnType<typeof rng>;

const JUNK: unknown[] = [null, true, -1, 0, 1e308, -0.5, '', 'NaN', 'x'.repeat(70), [], {}, [1, 2], { a: 1 }];

/** One invalid frame body (string), of a random kind. */
function invalidFrame(r: Rng, pn: string, ts: number, maxBytes: number): { kind: string; body: string } {
  const valid = frame2341(pn, ts, r.int(10));
  const dev = valid.devices[0] as Record<string, unknown>;
  const kinds = [
    'bytes',
    'truncated',
    'deep',
    'many',
    'oversized',
    'ts',
    'unknown_key',
    'devcode',
    'hex',
    'values',
    'no_devices',
    'pn',
    'device_type',
  ] as const;
  const kind = r.pick(kinds);
  switch (kind) {
    case 'bytes': {
      const n = 1 + r.int(300);
      // Never valid JSON of a frame: starts with a byte that cannot open an object.
      return { kind, body: '#' + Array.from({ length: n }, () => String.fromCharCode(r.int(256))).join('') };
    }
    case 'truncated': {
      const s = JSON.stringify(valid);
      return { kind, body: s.slice(0, 1 + r.int(s.length - 2)) };
    }
    case 'deep': {
      const depth = 9 + r.int(5000);
      return { kind, body: '['.repeat(depth) + ']'.repeat(depth) };
    }
    case 'many': {
      const n = 70_000 + r.int(30_000);
      return { kind, body: r.next() < 0.5 ? `[${'0,'.repeat(n)}0]` : `{"a":[${'{},'.repeat(n)}{}]}` };
    }
    case 'oversized':
      return { kind, body: JSON.stringify({ ...valid, pad: 'x'.repeat(maxBytes) }) };
    case 'ts':
      return { kind, body: JSON.stringify({ ...valid, ts: r.pick([1, -5, 'x', null, ts + 86_400_000, 1.5]) }) };
    case 'unknown_key':
      return r.next() < 0.5
        ? { kind, body: JSON.stringify({ ...valid, ['k' + r.int(1000)]: r.pick(JUNK) }) }
        : { kind, body: JSON.stringify({ ...valid, devices: [{ ...dev, ['k' + r.int(1000)]: r.pick(JUNK) }] }) };
    case 'devcode':
      return {
        kind,
        body: JSON.stringify({ ...valid, devices: [{ ...dev, devcode: r.pick([0, 1, 9999, -1, 'x', null]) }] }),
      };
    case 'hex':
      return {
        kind,
        body: JSON.stringify({
          ...valid,
          devices: [
            {
              ...dev,
              registers: [{ start: r.int(70_000), hex: r.pick(['ZZZZ', '123', 'ab cd', '0'.repeat(4097 * 4)]) }],
            },
          ],
        }),
      };
    case 'values':
      return {
        kind,
        body: JSON.stringify({
          ...valid,
          devices: [
            {
              devcode: 2341,
              devaddr: 1,
              sn: 'F1',
              values: r.pick([{}, { nope: 1 }, { gd_ac_input_voltage: 'NaN' }, { gd_ac_input_voltage: 1e9 }]),
            },
          ],
        }),
      };
    case 'no_devices':
      return { kind, body: JSON.stringify({ ...valid, devices: r.pick([[], null, {}, 'x', [null]]) }) };
    case 'pn':
      return { kind, body: JSON.stringify({ ...valid, pn: r.pick(['', 'OTHER', 7, null]) }) };
    case 'device_type':
      return { kind, body: JSON.stringify({ ...valid, devices: [r.pick(JUNK)] }) };
  }
}

describe.each(engines)('fuzzing the ingest path ($name)', (engine) => {
  let s: TestServer;
  let d: TestDatalogger;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      seed: false,
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    d = await createDatalogger(s.ctx);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const rowsOf = async () => {
    const dev = await s.ctx.db.selectFrom('devices').select('id').where('datalogger_id', '=', d.id).execute();
    const smp = await sql<{
      n: number | string;
    }>`select count(*) as n from samples s join devices x on x.id = s.device_id
      where x.datalogger_id = ${d.id}`.execute(s.ctx.db);
    return { devices: dev.length, samples: Number(smp.rows[0]!.n) };
  };
  const post = (body: string) =>
    s.request<{ err: number }>(`/ingest/v1/${d.pn}/data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
      body,
    });

  it(`${COUNT} invalid frames over HTTP and MQTT: all refused and counted, no 5xx, no rows`, async () => {
    const r = rng(SEED);
    const ts = s.clock.now() - 3_600_000;
    const max = s.config.telemetry.limits.maxPacketBytes;
    const m = s.ctx.services.telemetry.metrics;
    const bad0 = m.badFrames;
    const kinds = new Map<string, number>();
    let mqttSent = 0;
    const c = await connectDatalogger(s.mqtt!.port, d.pn, d.token);
    for (let i = 0; i < COUNT; i++) {
      const f = invalidFrame(r, d.pn, ts + i * 1000, max);
      kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
      const res = await post(f.body);
      expect(res.status, `${f.kind}: ${f.body.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${f.kind}: ${f.body.slice(0, 80)}`).toBeLessThan(500);
      // MQTT: packets within the limit are acknowledged (refused for good, counted); the connection stays.
      if (Buffer.byteLength(f.body) < max - 1000) {
        await c.publishAsync(topicOf(d.pn, 'data'), f.body, { qos: 1 });
        mqttSent += 1;
      }
    }
    expect(c.connected).toBe(true);
    await c.endAsync();
    await s.ctx.services.telemetry.ingest.drain();
    expect(m.badFrames - bad0).toBe(COUNT + mqttSent);
    expect(kinds.size).toBeGreaterThanOrEqual(10);
    expect(await rowsOf()).toEqual({ devices: 0, samples: 0 });
    const dl = await s.ctx.db
      .selectFrom('dataloggers')
      .select('bad_frames')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(dl.bad_frames).toBe(COUNT + mqttSent);

    // Only an injected storage failure answers 5xx; the server still works afterwards.
    const real = s.ctx.services.telemetry.ingest.store;
    s.ctx.services.telemetry.ingest.store = { commit: () => Promise.reject(new Error('injected storage failure')) };
    const good = JSON.stringify(frame2341(d.pn, ts, 0));
    try {
      expect((await post(good)).status).toBe(503);
    } finally {
      s.ctx.services.telemetry.ingest.store = real;
    }
    expect(await rowsOf()).toEqual({ devices: 0, samples: 0 });
    expect((await post(good)).status).toBe(200);
    expect(await rowsOf()).toEqual({ devices: 1, samples: 1 });
  }, 120_000);
});
