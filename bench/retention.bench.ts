/**
 * Retention bench (issue 16): does pruning the raw samples slow ingestion down?
 *
 *   npx tsx bench/retention.bench.ts [--duration 12] [--dataloggers 50] [--window 8] [--old 600000]
 *                                    [--batch 2000] [--pg postgres://…]
 *
 * The server runs in this process (SQLite in a temp dir, or a scratch PostgreSQL database made on
 * the `--pg` server), with the embedded broker; a CHILD process publishes frames over MQTT (QoS 1,
 * `--window` in flight per datalogger, 2 devcode-2341 devices per frame). First `--old` samples
 * older than the retention are written (3 years back, 500 devices). Then three phases of
 * `--duration` seconds each (after a 4 s warm-up): ingestion alone, ingestion while the retention
 * prune runs in a loop (SampleRetention.prune, `--batch` rows per DELETE on SQLite; on PostgreSQL
 * the old months are partitions, dropped whole), ingestion alone again. Prints datapoints/s and
 * publish→stored p50/p99 of each phase, and what the prune removed during its phase. Never fails
 * on time.
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
import pg from 'pg';
import { loadConfig, startServer } from '../apps/server/src/index.js';
import { monthStart, SampleRetention } from '../apps/server/src/db/sample-retention.js';
import { syntheticValues } from '../apps/server/src/modules/telemetry/synthetic.js';

const DAY = 86_400_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const n = Number(process.argv[i + 1]);
  return Number.isFinite(n) ? n : fallback;
}
function strArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface LoadSpec {
  port: number;
  loggers: Array<{ pn: string; token: string }>;
  durationMs: number;
  window: number;
  baseTs: number;
}
interface LoadReport {
  sent: number;
  acked: number;
  latencies: number[];
}

// ------------------------------------------------------------------ load generator (child)

async function runLoad(spec: LoadSpec): Promise<LoadReport> {
  const variants: string[][] = [];
  for (let v = 0; v < 8; v++) {
    variants.push(
      [0, 1].map((d) =>
        JSON.stringify({
          devcode: 2341,
          devaddr: d + 1,
          sn: `SN${d + 1}`,
          registers: encodeRegisters(
            DEVCODE_2341,
            syntheticValues(DEVCODE_2341, { phase: v + d, energy: { generated: 1000 + v, used: 500 + v } }),
          ),
        }),
      ),
    );
  }
  const report: LoadReport = { sent: 0, acked: 0, latencies: [] };
  const clients = await Promise.all(
    spec.loggers.map((l) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${spec.port}`, {
        username: l.pn,
        password: l.token,
        clientId: `dl-${l.pn}`,
        reconnectPeriod: 0,
      }),
    ),
  );
  process.send?.({ type: 'ready' });
  await new Promise<void>((r) => process.once('message', () => r()));
  const stopAt = performance.now() + spec.durationMs;
  let inflight = 0;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  clients.forEach((c, i) => {
    const pn = spec.loggers[i]!.pn;
    let seq = 0;
    const sendNext = () => {
      if (performance.now() >= stopAt) {
        if (inflight === 0) done();
        return;
      }
      const s = seq++;
      const devs = variants[s % variants.length]!.map((d) => d.replace(/"sn":"SN/, `"sn":"${pn}-`));
      const payload = `{"pn":"${pn}","ts":${spec.baseTs + s * 5000},"seq":${s},"devices":[${devs.join(',')}]}`;
      const t0 = performance.now();
      inflight += 1;
      report.sent += 1;
      c.publish(`sw/dl/${pn}/data`, payload, { qos: 1 }, (err) => {
        inflight -= 1;
        if (!err) {
          report.acked += 1;
          report.latencies.push(performance.now() - t0);
        }
        sendNext();
      });
    };
    for (let w = 0; w < spec.window; w++) sendNext();
  });
  await finished;
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
  const DURATION = arg('duration', 12) * 1000;
  const LOGGERS = arg('dataloggers', 50);
  const WINDOW = arg('window', 8);
  const OLD = arg('old', 600_000);
  const BATCH = arg('batch', 2000);
  const pgUrl = strArg('pg');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-retention-bench-'));
  let databaseUrl: string | undefined;
  let dropDb = async () => {};
  if (pgUrl) {
    const name = `sunwatch_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    SQLITE_PATH: path.join(dataDir, 'bench.db'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DEMO_DATA: '0',
    JOBS_ENABLED: '0',
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config);
  const ctx = server.app.ctx;
  const db = ctx.db;
  const engine = ctx.dialect.engine;
  const now = Date.now();
  const retention = new SampleRetention(db, engine, { batch: BATCH, partitionsAhead: 2 });
  const before = now - 730 * DAY;

  // The backlog: OLD samples 3 years back, 500 devices, one every 5 minutes.
  const oldStart = now - 3 * 365 * DAY;
  const perDevice = Math.ceil(OLD / 500);
  const blob = Buffer.alloc(170, 7);
  const t0 = performance.now();
  if (engine === 'postgres') {
    for (let m = monthStart(oldStart); m < monthStart(oldStart + perDevice * 300_000, 1); m = monthStart(m, 1)) {
      await retention.createPartition(m);
    }
    await sql`insert into samples (device_id, ts, data)
      select 800000 + d, ${oldStart}::bigint + k * 300000, ${blob}
      from generate_series(0, 499) d, generate_series(0, ${perDevice - 1}) k`.execute(db);
  } else {
    const raw = ctx.database.sqlite!;
    const ins = raw.prepare('insert into samples (device_id, ts, data) values (?, ?, ?)');
    raw.transaction(() => {
      for (let d = 0; d < 500; d++)
        for (let k = 0; k < perDevice; k++) ins.run(800000 + d, oldStart + k * 300_000, blob);
    })();
  }
  const oldRows = 500 * perDevice;
  console.log(
    `retention bench (${engine}): ${LOGGERS} dataloggers × window ${WINDOW}, 2 devices per frame, ` +
      `${DURATION / 1000} s per phase; backlog ${oldRows.toLocaleString('en')} old samples written in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s; prune batch ${BATCH}`,
  );

  const loggers: Array<{ pn: string; token: string }> = [];
  for (let i = 0; i < LOGGERS; i++) {
    const pn = `R${String(i).padStart(6, '0')}${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
    await db
      .insertInto('dataloggers')
      .values({ pn, tz_offset: 0, created_at: now, updated_at: now } as never)
      .execute();
    loggers.push({ pn, token: await ctx.services.telemetry.issueDeviceToken(pn) });
  }
  const m = ctx.services.telemetry.metrics;

  const phase = async (label: string, baseTs: number, during?: () => Promise<string>, durationMs = DURATION) => {
    const child = fork(fileURLToPath(import.meta.url), ['--load-child'], { stdio: 'inherit' });
    const reportP = new Promise<LoadReport>((resolve, reject) => {
      child.on(
        'message',
        (msg: { type: string; report?: LoadReport }) => msg.type === 'report' && resolve(msg.report!),
      );
      child.on('exit', (code) => (code ? reject(new Error(`load generator exited with ${code}`)) : undefined));
    });
    const ready = new Promise<void>((r) => child.on('message', (msg: { type: string }) => msg.type === 'ready' && r()));
    child.send({ port: server.mqtt!.port, loggers, durationMs, window: WINDOW, baseTs } satisfies LoadSpec);
    await ready;
    child.send({ go: true });
    const dp0 = m.datapointsStored;
    const s0 = performance.now();
    const side = during?.();
    const report = await reportP;
    await ctx.services.telemetry.ingest.drain();
    const secs = (performance.now() - s0) / 1000;
    const extra = side ? await side : '';
    const lat = Float64Array.from(report.latencies).sort();
    const pct = (p: number) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]! : NaN);
    const dps = (m.datapointsStored - dp0) / secs;
    console.log(
      `  ${label.padEnd(26)} ${Math.round(dps).toLocaleString('en').padStart(9)} datapoints/s, ` +
        `publish→stored p50 ${pct(50).toFixed(1)} ms / p99 ${pct(99).toFixed(1)} ms, acked ${report.acked}/${report.sent}` +
        (extra ? `; ${extra}` : ''),
    );
    return dps;
  };

  await phase('warm-up (not counted)', now - 5 * DAY, undefined, 4000);
  const alone1 = await phase('ingestion alone', now - 30 * DAY);
  let stop = false;
  const pruning = await phase('ingestion while pruning', now - 10 * DAY, async () => {
    const p0 = performance.now();
    let rows = 0;
    let batches = 0;
    let dropped = 0;
    let runs = 0;
    let maxStmtMs = 0;
    let last = performance.now();
    while (!stop) {
      const r = await retention.prune(before, {
        maxBatches: 50,
        onBatch: () => {
          const t = performance.now();
          maxStmtMs = Math.max(maxStmtMs, t - last);
          last = t;
        },
      });
      runs += 1;
      rows += r.rows;
      batches += r.batches;
      dropped += r.dropped.length;
      last = performance.now();
      if (!r.more) break;
    }
    const ms = performance.now() - p0;
    return engine === 'postgres'
      ? `prune dropped ${dropped} month partitions in ${ms.toFixed(0)} ms (${runs} runs)`
      : `prune removed ${rows.toLocaleString('en')} rows in ${batches} batches, ${(ms / 1000).toFixed(1)} s ` +
          `(${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s, longest batch gap ${maxStmtMs.toFixed(1)} ms)`;
  });
  stop = true;
  const alone2 = await phase('ingestion alone, again', now - 20 * DAY);
  const alone = (alone1 + alone2) / 2;
  const left = Number(
    (await sql<{ n: number }>`select count(*) as n from samples where ts < ${before}`.execute(db)).rows[0]!.n,
  );
  console.log(
    `  ratio ${(pruning / alone).toFixed(2)} (pruning / mean of the two phases alone); old samples left ${left} (` +
      `${engine === 'postgres' ? 'whole months past the retention are dropped' : 'all rows past the retention'})`,
  );
  await server.close();
  await dropDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
