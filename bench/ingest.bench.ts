/**
 * Ingestion benchmark (issue 3): frames in over MQTT → decoded, stored, day rollups and latest
 * values current, on SQLite, with the embedded broker.
 *
 *   npx tsx bench/ingest.bench.ts [--duration 20] [--dataloggers 100] [--window 8]
 *                                 [--devices 1] [--warmup 3] [--batch-ms 5] [--fw] [--bindings]
 *
 * The server runs in this process (SQLite in a temp dir, embedded broker on a free loopback
 * port); the load generator runs in a CHILD process (so it does not share the server's thread):
 * `--dataloggers` MQTT clients, each authenticated with its own device token, each keeping
 * `--window` QoS 1 publishes in flight. Every frame carries `--devices` devcode-2341 devices
 * (83 values each) as register blocks; with `--fw` each also carries its firmware version (`fw`, the
 * same all run: after the first frame the server writes nothing for it). The embedded broker acknowledges a frame (PUBACK) only
 * after its batch committed, so publish→PUBACK latency is publish→stored latency.
 *
 * Prints: datapoints/s sustained (values of newly stored samples, counted after the commit that
 * also updated device_latest and device_days; measured after `--warmup` seconds), server CPU
 * seconds per million datapoints, bytes per datapoint on disk (SQLite file after a WAL
 * checkpoint, net of the empty database), p50/p99 publish→stored latency, and a consistency
 * check (samples = Σ device_days.samples, latest = newest sample). Never fails on time.
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVCODE_2341, encodeRegisters } from '@sunwatch/protocol';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { loadConfig, startServer } from '../apps/server/src/index.js';
import { syntheticValues } from '../apps/server/src/modules/telemetry/synthetic.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const n = Number(process.argv[i + 1]);
  return Number.isFinite(n) ? n : fallback;
}

interface LoadSpec {
  port: number;
  loggers: Array<{ pn: string; token: string }>;
  durationMs: number;
  window: number;
  devices: number;
  baseTs: number;
  /** Every device entry carries this firmware version (`fw`, unchanged all run), if set. */
  fw?: string;
}

interface LoadReport {
  sent: number;
  acked: number;
  errors: number;
  latencies: number[];
  sendingMs: number;
  /** CPU seconds of the load generator. */
  cpuSec: number;
}

// ------------------------------------------------------------------ load generator (child)

async function runLoad(spec: LoadSpec): Promise<LoadReport> {
  // A few register-encoded variants per device; the timestamp is spliced into the JSON text.
  const variants: string[][] = [];
  for (let v = 0; v < 8; v++) {
    const devs: string[] = [];
    for (let d = 0; d < spec.devices; d++) {
      const values = syntheticValues(DEVCODE_2341, { phase: v + d, energy: { generated: 1000 + v, used: 500 + v } });
      devs.push(
        JSON.stringify({
          devcode: 2341,
          devaddr: d + 1,
          sn: `SN${d + 1}`,
          registers: encodeRegisters(DEVCODE_2341, values),
          ...(spec.fw ? { fw: spec.fw } : {}),
        }),
      );
    }
    variants.push(devs);
  }
  const report: LoadReport = { sent: 0, acked: 0, errors: 0, latencies: [], sendingMs: 0, cpuSec: 0 };
  const clients = await Promise.all(
    spec.loggers.map((l) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${spec.port}`, {
        username: l.pn,
        password: l.token,
        clientId: `dl-${l.pn}`,
        reconnectPeriod: 0,
        connectTimeout: 30_000,
      }),
    ),
  );
  process.send?.({ type: 'ready' });
  await new Promise<void>((r) => process.once('message', () => r()));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const stopAt = start + spec.durationMs;
  let inflight = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  clients.forEach((c, i) => {
    const pn = spec.loggers[i]!.pn;
    const topic = `sw/dl/${pn}/data`;
    let seq = 0;
    const sendNext = () => {
      if (performance.now() >= stopAt) {
        if (inflight === 0) done();
        return;
      }
      const s = seq++;
      const ts = spec.baseTs + s * 5000;
      const devs = variants[s % variants.length]!.map((d) => d.replace(/"sn":"SN/, `"sn":"${pn}-`));
      const payload = `{"pn":"${pn}","ts":${ts},"seq":${s},"devices":[${devs.join(',')}]}`;
      const t0 = performance.now();
      inflight += 1;
      report.sent += 1;
      c.publish(topic, payload, { qos: 1 }, (err) => {
        inflight -= 1;
        if (err) report.errors += 1;
        else {
          report.acked += 1;
          report.latencies.push(performance.now() - t0);
        }
        sendNext();
      });
    };
    for (let w = 0; w < spec.window; w++) sendNext();
  });
  await finished;
  report.sendingMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  report.cpuSec = (cpu.user + cpu.system) / 1e6;
  await Promise.all(clients.map((c) => c.endAsync()));
  return report;
}

if (process.argv.includes('--load-child')) {
  process.once('message', (spec: LoadSpec) => {
    runLoad(spec).then(
      (r) => process.send?.({ type: 'report', report: r }, () => process.exit(0)),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
} else {
  await main();
}

// ------------------------------------------------------------------ server side (this process)

async function main(): Promise<void> {
  const DURATION = arg('duration', 20) * 1000;
  const LOGGERS = arg('dataloggers', 100);
  const WINDOW = arg('window', 8);
  const DEVICES = arg('devices', 2);
  const WARMUP = arg('warmup', 3) * 1000;
  const BATCH_MS = arg('batch-ms', 5);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-ingest-bench-'));
  const dbPath = path.join(dataDir, 'bench.db');
  const config = loadConfig({
    DATA_DIR: dataDir,
    SQLITE_PATH: dbPath,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DEMO_DATA: '0',
    JOBS_ENABLED: '0',
    LOG_LEVEL: 'silent',
    INGEST_BATCH_MS: String(BATCH_MS),
  });
  const server = await startServer(config);
  const ctx = server.app.ctx;
  const raw = ctx.database.sqlite!;
  const now = Date.now();

  // Fleet: N dataloggers (unbound, UTC+1) with device tokens.
  const loggers: Array<{ pn: string; token: string }> = [];
  for (let i = 0; i < LOGGERS; i++) {
    const pn = `B${String(i).padStart(6, '0')}${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
    raw
      .prepare(`insert into dataloggers (pn, tz_offset, created_at, updated_at) values (?, 3600, ?, ?)`)
      .run(pn, now, now);
    loggers.push({ pn, token: await ctx.services.telemetry.issueDeviceToken(pn) });
  }
  if (process.argv.includes('--bindings')) {
    // Issue 14 devcode bindings: every frame is checked against them (cached, reloaded every 2 s).
    // One prefix binding covers the whole fleet (2341 allowed), 40 others cover nothing of it.
    const bind = raw.prepare(
      `insert into protocol_bindings (devcode, scope, type_code, pn_from, pn_to, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)`,
    );
    bind.run(2341, 'prefix', '', 'B', '', now, now);
    for (let i = 0; i < 20; i++) bind.run(5121, 'range', '', `Z${i}0000`, `Z${i}9999`, now, now);
    for (let i = 0; i < 20; i++) bind.run(2428, 'type', String.fromCharCode(65 + i), '', '', now, now);
  }
  raw.pragma('wal_checkpoint(TRUNCATE)');
  const emptyBytes = fs.statSync(dbPath).size;

  const child = fork(fileURLToPath(import.meta.url), ['--load-child'], { stdio: 'inherit' });
  const reportP = new Promise<LoadReport>((resolve, reject) => {
    child.on('message', (m: { type: string; report?: LoadReport }) => {
      if (m.type === 'report') resolve(m.report!);
    });
    child.on('exit', (code) => (code ? reject(new Error(`load generator exited with ${code}`)) : undefined));
  });
  const ready = new Promise<void>((r) => child.on('message', (m: { type: string }) => m.type === 'ready' && r()));
  child.send({
    port: server.mqtt!.port,
    loggers,
    durationMs: DURATION,
    window: WINDOW,
    devices: DEVICES,
    baseTs: now - 20 * 86400_000,
    ...(process.argv.includes('--fw') ? { fw: 'V3.1.2' } : {}),
  } satisfies LoadSpec);
  await ready;

  const m = ctx.services.telemetry.metrics;
  console.log(
    `ingest bench: ${LOGGERS} dataloggers × window ${WINDOW}, ${DEVICES} × devcode 2341 (83 values) per frame, ` +
      `${DURATION / 1000} s (warm-up ${WARMUP / 1000} s), batch ${BATCH_MS} ms` +
      `${process.argv.includes('--fw') ? ', fw in every device entry' : ''}` +
      `${process.argv.includes('--bindings') ? ', 41 devcode bindings' : ''}, SQLite ${dbPath}`,
  );
  child.send({ go: true });
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WARMUP));
  const w0 = { t: performance.now(), dp: m.datapointsStored, samples: m.samplesStored, cpu: process.cpuUsage() };
  const ticker = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    process.stdout.write(
      `  t=${s.toFixed(0)}s stored ${m.datapointsStored.toLocaleString('en')} dp, queue ${m.queued}\r`,
    );
  }, 1000);
  await new Promise((r) => setTimeout(r, Math.max(0, DURATION - WARMUP)));
  const w1 = { t: performance.now(), dp: m.datapointsStored, samples: m.samplesStored, cpu: process.cpuUsage(w0.cpu) };
  clearInterval(ticker);
  const report = await reportP;
  await ctx.services.telemetry.ingest.drain();
  const totalMs = performance.now() - t0;

  // Consistency: what is counted is stored and reflected in rollups and latest values.
  const samples = Number(raw.prepare('select count(*) from samples').pluck().get());
  const daySamples = Number(raw.prepare('select coalesce(sum(samples), 0) from device_days').pluck().get());
  const devices = Number(raw.prepare('select count(*) from devices').pluck().get());
  const latestOk = Number(
    raw
      .prepare(
        `select count(*) from device_latest l where l.ts = (select max(ts) from samples s where s.device_id = l.device_id)`,
      )
      .pluck()
      .get(),
  );
  await sql`select 1`.execute(ctx.db);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  const bytes = fs.statSync(dbPath).size;
  const pageSize = Number(raw.pragma('page_size', { simple: true }));

  const dpPerSec = ((w1.dp - w0.dp) / (w1.t - w0.t)) * 1000;
  const framesPerSec = (((w1.samples - w0.samples) / (w1.t - w0.t)) * 1000) / DEVICES;
  const cpuSec = (w1.cpu.user + w1.cpu.system) / 1e6;
  const cpuPerMillion = cpuSec / ((w1.dp - w0.dp) / 1e6);
  const lat = Float64Array.from(report.latencies).sort();
  const pct = (p: number) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]! : NaN);
  const dpTotal = m.datapointsStored;

  const rows: Array<[string, string]> = [
    ['datapoints/s sustained (stored + rollups + latest)', Math.round(dpPerSec).toLocaleString('en')],
    ['frames/s sustained', Math.round(framesPerSec).toLocaleString('en')],
    ['server CPU s per million datapoints', cpuPerMillion.toFixed(2)],
    ['server CPU utilisation (cores)', (cpuSec / ((w1.t - w0.t) / 1000)).toFixed(2)],
    ['bytes per datapoint on disk (net of empty db)', ((bytes - emptyBytes) / dpTotal).toFixed(2)],
    ['bytes per datapoint on disk (whole file)', (bytes / dpTotal).toFixed(2)],
    ['publish→stored latency p50 / p99 (ms)', `${pct(50).toFixed(1)} / ${pct(99).toFixed(1)}`],
    ['datapoints stored (whole run)', dpTotal.toLocaleString('en')],
    ['frames sent / acked / errors', `${report.sent} / ${report.acked} / ${report.errors}`],
    [
      'batches (avg frames per batch, ms writing)',
      `${m.batches} (${(m.framesAccepted / Math.max(1, m.batches)).toFixed(1)}, ${(m.batchMsTotal / 1000).toFixed(1)} s)`,
    ],
    ['load generator CPU (cores)', (report.cpuSec / (report.sendingMs / 1000)).toFixed(2)],
    ['bad frames', String(m.badFrames)],
    ['device firmware writes', String(m.deviceFirmwareUpdates)],
    [
      'consistency: samples = Σ day samples = stored; latest = newest',
      `${samples} = ${daySamples} = ${m.samplesStored}; ${latestOk}/${devices} → ${
        samples === daySamples && samples === m.samplesStored && latestOk === devices ? 'OK' : 'MISMATCH'
      }`,
    ],
    ['database', `${(bytes / 1e6).toFixed(1)} MB, page ${pageSize} B, run ${(totalMs / 1000).toFixed(1)} s`],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log('\n');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
