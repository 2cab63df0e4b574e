/**
 * The simulated fleet of the ingestion benches (ingest.bench.ts, retention.bench.ts): dataloggers
 * with device tokens in the server's database, and a load generator in a CHILD process (so it does
 * not share the server's thread) that keeps `window` QoS 1 publishes in flight per datalogger,
 * each frame carrying `devices` devcode-2341 devices as register blocks. Also the command-line
 * flags and the bench database (SQLite in a temp dir, or a scratch PostgreSQL database).
 *
 * Protocol with the child (`startLoad`): spec → 'ready' (all connected) → go → 'report'.
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVCODE_2341, encodeRegisters } from '@sunwatch/protocol';
import mqtt from 'mqtt';
import { loadConfig, type AppConfig } from '../../apps/server/src/index.js';
import type { AppContext } from '../../apps/server/src/context.js';
import { syntheticValues } from '../../apps/server/src/modules/telemetry/synthetic.js';
import { createScratchPgDatabase } from '../../apps/server/test/factories/telemetry-rows.js';

/** `--name <number>`, else `fallback`. */
export function numArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const n = Number(process.argv[i + 1]);
  return Number.isFinite(n) ? n : fallback;
}

/** `--name <text>`, if given. */
export function strArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export function hasFlag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

/** The value at percentile `p` of an ascending array (NaN when empty). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

export interface BenchDatabase {
  dataDir: string;
  /** The server's config: SQLite in `dataDir`, or the scratch PostgreSQL database. */
  config: AppConfig;
  /** The SQLite file, when on SQLite. */
  sqlitePath?: string;
  /** Drops the scratch PostgreSQL database (if any) and removes `dataDir`. */
  cleanup(): Promise<void>;
}

/**
 * The bench's server config on a fresh database: SQLite in a temp dir, or, with `databaseUrl`, a
 * scratch database created on that PostgreSQL server (createScratchPgDatabase) and dropped by
 * `cleanup`. Loopback, free ports, no demo data, no jobs, silent logs; `env` adds settings.
 */
export async function benchDatabase(
  prefix: string,
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sunwatch-${prefix}-bench-`));
  const scratch = databaseUrl ? await createScratchPgDatabase(databaseUrl, `sunwatch_bench_${prefix}`) : undefined;
  const sqlitePath = path.join(dataDir, 'bench.db');
  const config = loadConfig({
    DATA_DIR: dataDir,
    SQLITE_PATH: sqlitePath,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DEMO_DATA: '0',
    JOBS_ENABLED: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return {
    dataDir,
    config,
    ...(scratch ? {} : { sqlitePath }),
    async cleanup() {
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Logger {
  pn: string;
  token: string;
}

/** `n` unbound dataloggers (PN `<prefix><6 digits><4 hex>`, `tzOffset` seconds) with device tokens. */
export async function createFleet(ctx: AppContext, n: number, prefix: string, tzOffset: number): Promise<Logger[]> {
  const now = Date.now();
  const loggers: Logger[] = [];
  for (let i = 0; i < n; i++) {
    const pn = `${prefix}${String(i).padStart(6, '0')}${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
    await ctx.db
      .insertInto('dataloggers')
      .values({ pn, tz_offset: tzOffset, created_at: now, updated_at: now } as never)
      .execute();
    loggers.push({ pn, token: await ctx.services.telemetry.issueDeviceToken(pn) });
  }
  return loggers;
}

export interface LoadSpec {
  port: number;
  loggers: Logger[];
  durationMs: number;
  window: number;
  /** devcode-2341 devices per frame. */
  devices: number;
  /** Sample time of each datalogger's first frame (then one every 5 s). */
  baseTs: number;
  /** Every device entry carries this firmware version (`fw`, unchanged all run), if set. */
  fw?: string;
}

export interface LoadReport {
  sent: number;
  acked: number;
  errors: number;
  /** publish→PUBACK (= publish→stored with the embedded broker) of every acked frame, ms. */
  latencies: number[];
  sendingMs: number;
  /** CPU seconds of the load generator. */
  cpuSec: number;
}

/**
 * A few register-encoded variants of a frame's device list (`devices` devcode-2341 devices), so
 * frames differ without encoding registers per frame; `framePayload` splices in the rest.
 */
export function frameVariants(devices: number, fw?: string): string[][] {
  const variants: string[][] = [];
  for (let v = 0; v < 8; v++) {
    const devs: string[] = [];
    for (let d = 0; d < devices; d++) {
      const values = syntheticValues(DEVCODE_2341, { phase: v + d, energy: { generated: 1000 + v, used: 500 + v } });
      devs.push(
        JSON.stringify({
          devcode: 2341,
          devaddr: d + 1,
          sn: `SN${d + 1}`,
          registers: encodeRegisters(DEVCODE_2341, values),
          ...(fw ? { fw } : {}),
        }),
      );
    }
    variants.push(devs);
  }
  return variants;
}

/** Frame `seq` of datalogger `pn` (sample time baseTs + seq × 5 s), its devices' serials made its own. */
export function framePayload(variants: readonly string[][], pn: string, baseTs: number, seq: number): string {
  const devs = variants[seq % variants.length]!.map((d) => d.replace(/"sn":"SN/, `"sn":"${pn}-`));
  return `{"pn":"${pn}","ts":${baseTs + seq * 5000},"seq":${seq},"devices":[${devs.join(',')}]}`;
}

/** The load generator (runs in the child): connects every datalogger, waits for go, publishes for `durationMs`. */
export async function runLoad(spec: LoadSpec, onReady: () => void, go: Promise<void>): Promise<LoadReport> {
  const variants = frameVariants(spec.devices, spec.fw);
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
  onReady();
  await go;
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
      const payload = framePayload(variants, pn, spec.baseTs, seq++);
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

/** Forks the load generator (bench/lib/load-child.ts); resolves once its dataloggers are connected. */
export async function startLoad(spec: LoadSpec): Promise<{ go(): void; report: Promise<LoadReport> }> {
  const child = fork(fileURLToPath(new URL('./load-child.ts', import.meta.url)), [], { stdio: 'inherit' });
  const report = new Promise<LoadReport>((resolve, reject) => {
    child.on('message', (m: { type: string; report?: LoadReport }) => m.type === 'report' && resolve(m.report!));
    child.on('exit', (code) => (code ? reject(new Error(`load generator exited with ${code}`)) : undefined));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: { type: string }) => m.type === 'ready' && resolve());
    child.on('exit', (code) => reject(new Error(`load generator exited with ${code} before it was ready`)));
  });
  child.send(spec);
  await ready;
  return { go: () => child.send({ go: true }), report };
}
