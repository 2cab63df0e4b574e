import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEVCODE_2341, encodeRegisters, type IngestFrame } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Finding 1 of the ingest report: one frame must not stall other tenants. While the worst
 * ALLOWED frame (INGEST_MAX_DEVICES devices with every register of a 2341 hybrid) is ingested
 * over and over, concurrent signed action calls keep p99 < 100 ms and the event loop never
 * stalls for long. The only test that asserts on time (the issue demands it); the bounds leave
 * headroom for a loaded 2-core machine.
 */

const CALLS = 120;
const IN_FLIGHT = 1;

/**
 * INGEST_MAX_DEVICES devices, each with every register of a 2341 hybrid plus unused register
 * words up to INGEST_MAX_VALUES, as long as the frame stays under MQTT_MAX_PACKET_BYTES.
 */
function worstFrame(
  pn: string,
  ts: number,
  limits: { maxDevices: number; maxValues: number; maxPacketBytes: number },
): IngestFrame {
  const v = syntheticValues(DEVCODE_2341, {
    phase: 3,
    energy: { generated: 100, used: 50, bought: 10, charged: 5, discharged: 4 },
  });
  const registers = encodeRegisters(DEVCODE_2341, v);
  const used = registers.reduce((n, b) => n + b.hex.length / 4, 0);
  const perDevice = Math.floor((limits.maxPacketBytes - 2048) / limits.maxDevices);
  const base = JSON.stringify({ devcode: 2341, devaddr: 255, sn: 'W00', registers }).length + 40;
  const pad = Math.max(0, Math.min(limits.maxValues - used, Math.floor((perDevice - base) / 4), 1024));
  const padded = pad > 0 ? [...registers, { start: 4000, hex: '0101'.repeat(pad) }] : registers;
  return {
    pn,
    ts,
    devices: Array.from({ length: limits.maxDevices }, (_, i) => ({
      devcode: 2341,
      devaddr: i % 256,
      sn: `W${i}`,
      registers: padded,
    })),
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

describe.each(engines)('ingest does not stall other tenants ($name)', (engine) => {
  let s: TestServer;
  let d: TestDatalogger;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    d = await createDatalogger(s.ctx);
  });
  afterAll(async () => {
    await s?.stop();
  });

  // The machine is shared (2 cores; other test files run beside this one): a genuine stall (the
  // issue measured 0.9–4.4 s) fails every attempt, a scheduling hiccup of the runner does not.
  it(
    'signed action calls keep p99 < 100 ms while the worst allowed frame is ingested repeatedly',
    { retry: 2, timeout: 60_000 },
    async () => {
      const limits = s.config.telemetry.limits;
      const base = s.clock.now() - 3_600_000;
      const sample = JSON.stringify(worstFrame(d.pn, base, limits));
      expect(Buffer.byteLength(sample)).toBeLessThanOrEqual(limits.maxPacketBytes);
      expect(Buffer.byteLength(sample)).toBeGreaterThan(limits.maxPacketBytes * 0.9);
      const session = (await s.login('owner_anna', 'Owner_2026')).dat!;
      // Warm up both paths.
      await s.call(session, 'webQueryDeviceEs', { pagesize: 10 });
      const post = (ts: number) =>
        s.request<{ err: number }>(`/ingest/v1/${d.pn}/data`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
          body: JSON.stringify(worstFrame(d.pn, ts, limits)),
        });
      expect((await post(base)).body.err).toBe(0);

      let stop = false;
      let frames = 0;
      let seq = 1;
      const loaders = Array.from({ length: IN_FLIGHT }, async () => {
        while (!stop) {
          const r = await post(base + seq++ * 1000);
          expect(r.status).toBe(200);
          frames += 1;
        }
      });
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const latencies: number[] = [];
      try {
        await new Promise((r) => setTimeout(r, 300)); // ingestion under way
        for (let i = 0; i < CALLS; i++) {
          const t0 = performance.now();
          const r = await s.call(session, 'webQueryDeviceEs', { pagesize: 10 });
          latencies.push(performance.now() - t0);
          expect(r.err).toBe(0);
        }
      } finally {
        stop = true;
        loop.disable();
        await Promise.all(loaders);
      }
      const p99 = pct(latencies, 0.99);
      const loopP99 = loop.percentile(99) / 1e6;
      const loopMax = loop.max / 1e6;
      console.log(
        `[${engine.name}] worst allowed frame ${Buffer.byteLength(sample)} B × ${frames} frames ` +
          `(${frames * limits.maxDevices} samples) during ${CALLS} calls: p50 ${pct(latencies, 0.5).toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms; event-loop delay p99 ${loopP99.toFixed(1)} ms, max ${loopMax.toFixed(1)} ms; ` +
          `longest batch ${s.ctx.services.telemetry.metrics.maxBatchMs.toFixed(1)} ms`,
      );
      expect(frames).toBeGreaterThan(0);
      expect(p99).toBeLessThan(100);
      expect(loopP99).toBeLessThan(100);
    },
  );
});
