import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type mqtt from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/db.js';
import { topicOf } from '../../src/ingest/topics.js';
import { engines, startTestServer } from '../harness.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import { connectDatalogger, createDatalogger, frame2341, type TestDatalogger } from '../factories/telemetry-ingest.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUNDLE = path.join(SERVER_DIR, 'dist', 'main.js');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';
/** Frames acknowledged before SIGTERM is sent (ingestion is then in full swing). */
const ACKED_BEFORE_SIGTERM = 300;
const DATALOGGERS = 4;
/** QoS 1 publishes each datalogger keeps in flight. */
const WINDOW = 16;
const T0 = Date.UTC(2025, 0, 2);

interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  httpUrl: string;
  mqttPort: number;
}

/** Starts `node dist/main.js` (the compiled server, no TypeScript at run time) and waits until it listens. */
async function spawnCompiled(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--enable-source-maps', BUNDLE], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const until = Date.now() + 20_000;
  for (;;) {
    const http = /Sunwatch is running at (http:\/\/[^\s/]+)\//.exec(out);
    const mq = /MQTT broker listening on [^"]*:(\d+)"/.exec(out);
    if (http && mq) return { proc, output: () => out, exited, httpUrl: http[1]!, mqttPort: Number(mq[1]) };
    if (proc.exitCode !== null || Date.now() > until) throw new Error(`compiled server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One datalogger publishing QoS 1 frames (distinct timestamps) with WINDOW in flight, until its connection ends. */
function publishUntilClosed(
  c: mqtt.MqttClient,
  dl: TestDatalogger,
  acked: Set<number>,
  sent: Set<number>,
): Promise<void> {
  return new Promise((resolve) => {
    let i = 0;
    let inFlight = 0;
    let open = true;
    // The connection ended: publishes without PUBACK stay unacknowledged (mqtt.js keeps them for a resend).
    const finish = () => {
      open = false;
      resolve();
    };
    const next = () => {
      while (open && inFlight < WINDOW) {
        const ts = T0 + i * 60_000;
        const frame = JSON.stringify(frame2341(dl.pn, ts, i));
        i += 1;
        inFlight += 1;
        sent.add(ts);
        c.publish(topicOf(dl.pn, 'data'), frame, { qos: 1 }, (err) => {
          inFlight -= 1;
          if (!err) acked.add(ts); // PUBACK received
          if (open) next();
        });
      }
    };
    c.on('close', finish);
    c.on('error', () => undefined);
    next();
  });
}

describe.each(engines)('the compiled server shuts down gracefully on SIGTERM ($name)', (engine) => {
  beforeAll(() => {
    // `npm start` builds the same way (scripts/start.mjs); esbuild takes about a second.
    execFileSync(process.execPath, [path.join(SERVER_DIR, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'pipe' });
  });

  it('during heavy ingestion: every acknowledged frame is stored, connections close, exit code 0', async () => {
    // A database with dataloggers (made in-process), then the compiled server on it.
    const prep = await startTestServer(engine, { seed: false });
    const dls: TestDatalogger[] = [];
    for (let i = 0; i < DATALOGGERS; i++) dls.push(await createDatalogger(prep.ctx, { withPlant: false }));
    const { dataDir, config } = prep;
    await prep.close();
    let child: Child | undefined;
    try {
      child = await spawnCompiled({
        DATA_DIR: dataDir,
        ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : { SQLITE_PATH: config.sqlitePath }),
        HOST: '127.0.0.1',
        PORT: '0',
        MQTT_PORT: '0',
        DEMO_DATA: '0',
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: '15000',
      });
      expect((await fetch(`${child.httpUrl}/readyz`)).status).toBe(200);

      const acked = new Map<string, Set<number>>();
      const sent = new Map<string, Set<number>>();
      const clients = await Promise.all(dls.map((d) => connectDatalogger(child!.mqttPort, d.pn, d.token)));
      const publishing = dls.map((d, k) => {
        acked.set(d.pn, new Set());
        sent.set(d.pn, new Set());
        return publishUntilClosed(clients[k]!, d, acked.get(d.pn)!, sent.get(d.pn)!);
      });
      const total = () => [...acked.values()].reduce((n, s) => n + s.size, 0);
      const until = Date.now() + 20_000;
      while (total() < ACKED_BEFORE_SIGTERM) {
        if (Date.now() > until) throw new Error(`only ${total()} frames acknowledged:\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const ackedAtSignal = total();
      child.proc.kill('SIGTERM');
      const exit = await child.exited;
      await Promise.all(publishing);
      for (const c of clients) c.end(true);

      expect(exit, child.output()).toEqual({ code: 0, signal: null });
      expect(child.output()).toContain('SIGTERM: shutting down');
      expect(child.output()).toContain('Shutdown complete');

      // Every acknowledged frame is in the database (each frame: one sample of its datalogger's device).
      const check = openDatabase(config);
      try {
        let stored = 0;
        for (const d of dls) {
          const rows = await check.db
            .selectFrom('samples')
            .innerJoin('devices', 'devices.id', 'samples.device_id')
            .select('samples.ts')
            .where('devices.datalogger_id', '=', d.id)
            .execute();
          const have = new Set(rows.map((r) => Number(r.ts)));
          expect(rows.length).toBe(have.size); // exactly once
          const missing = [...acked.get(d.pn)!].filter((ts) => !have.has(ts));
          expect(missing, `acknowledged but not stored (${d.pn})`).toEqual([]);
          // Nothing stored that was never sent.
          expect([...have].filter((ts) => !sent.get(d.pn)!.has(ts))).toEqual([]);
          stored += have.size;
        }
        const ackedTotal = total();
        console.log(
          `[shutdown ${engine.name}] acked before SIGTERM ${ackedAtSignal}, acked in all ${ackedTotal}, stored ${stored}, lost 0`,
        );
        expect(ackedTotal).toBeGreaterThanOrEqual(ackedAtSignal);
        expect(stored).toBeGreaterThanOrEqual(ackedTotal);
        // Stored without PUBACK: at most the frames in flight when the connections ended (resent by a real datalogger).
        expect(stored - ackedTotal).toBeLessThanOrEqual(DATALOGGERS * WINDOW);
      } finally {
        await check.close();
      }
    } finally {
      if (child && child.proc.exitCode === null) child.proc.kill('SIGKILL');
      if (config.databaseUrl) await dropScratchDatabase(PG_URL, new URL(config.databaseUrl).pathname.slice(1));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
