import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type mqtt from 'mqtt';
import type { AppConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/topics.js';
import { frame2341, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * The compiled server (`node dist/main.js`, no TypeScript at run time) as a child process with its
 * embedded broker, and a datalogger-like QoS 1 publisher: shared by the shutdown (SIGTERM) and
 * crash-loop (SIGKILL) tests of test/ops.
 */

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUNDLE = path.join(SERVER_DIR, 'dist', 'main.js');
/** Sample time of frame 0 of every test datalogger (frame i is i minutes later). */
export const FRAME_T0 = Date.UTC(2025, 0, 2);

export interface CompiledServer {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  httpUrl: string;
  mqttPort: number;
}

/** Builds dist/main.js when a source is newer (as `npm start` does, scripts/start.mjs); esbuild takes about a second. */
export function buildCompiledIfStale(): void {
  execFileSync(process.execPath, [path.join(SERVER_DIR, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'pipe' });
}

/** The environment of the compiled server on the database of a test server's config (loopback, free ports, no demo). */
export function compiledEnv(
  dataDir: string,
  config: Pick<AppConfig, 'databaseUrl' | 'sqlitePath'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : { SQLITE_PATH: config.sqlitePath }),
    HOST: '127.0.0.1',
    PORT: '0',
    MQTT_PORT: '0',
    DEMO_DATA: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/**
 * Starts `node dist/main.js` and waits until it listens: HTTP and the embedded MQTT broker, or, with
 * an external broker (`MQTT_URL`), until `/readyz` answers 200 (database, migrations, broker
 * connected; `mqttPort` is then 0).
 */
export async function spawnCompiled(env: Record<string, string>, timeoutMs = 20_000): Promise<CompiledServer> {
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
  const external = Boolean(env.MQTT_URL);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const http = /Sunwatch is running at (http:\/\/[^\s/]+)\//.exec(out);
    if (external && http) {
      const ready = await fetch(`${http[1]}/readyz`).catch(() => undefined);
      if (ready?.status === 200) return { proc, output: () => out, exited, httpUrl: http[1]!, mqttPort: 0 };
    }
    const mq = /MQTT broker listening on [^"]*:(\d+)"/.exec(out);
    if (!external && http && mq) return { proc, output: () => out, exited, httpUrl: http[1]!, mqttPort: Number(mq[1]) };
    if (proc.exitCode !== null || proc.signalCode !== null || Date.now() > until) {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      throw new Error(`compiled server did not start (${proc.exitCode ?? proc.signalCode ?? 'timeout'}):\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * One datalogger's QoS 1 frames, as a real datalogger sends them: frame i is `frame2341` at
 * FRAME_T0 + i minutes (one sample of its inverter; its identity is its timestamp), `window`
 * publishes in flight. A frame counts as acknowledged only when its PUBACK arrived on an open
 * connection. A frame without PUBACK when its connection ended is sent again, before any new
 * frame, on the next connection (`run`), as often as needed.
 */
export class FramePublisher {
  /** Timestamps of frames acknowledged (PUBACK) at least once. */
  readonly acked = new Set<number>();
  /** Timestamps of frames published at least once. */
  readonly sent = new Set<number>();
  /** Frames (by index) published and not acknowledged yet, oldest first. */
  private readonly unacked = new Set<number>();
  private nextIndex = 0;
  /** Publishes of a frame sent before (after a connection ended without its PUBACK). */
  resent = 0;

  constructor(
    readonly dl: TestDatalogger,
    private readonly window: number,
  ) {}

  static tsOf(i: number): number {
    return FRAME_T0 + i * 60_000;
  }

  /** Timestamps of frames sent and not acknowledged (yet). */
  pending(): number[] {
    return [...this.unacked].map((i) => FramePublisher.tsOf(i));
  }

  /**
   * Publishes over `c` until the connection closes: first the frames left unacknowledged by
   * earlier connections, then (with `newFrames`) new ones without end. Without `newFrames` it
   * also resolves once every frame sent so far is acknowledged (or failed on this connection).
   */
  run(c: mqtt.MqttClient, opts: { newFrames: boolean }): Promise<void> {
    const resend = [...this.unacked];
    const topic = topicOf(this.dl.pn, 'data');
    return new Promise((resolve) => {
      let open = true;
      let inFlight = 0;
      // The connection ended: publishes without PUBACK stay unacknowledged (sent again next time).
      const finish = () => {
        if (!open) return;
        open = false;
        resolve();
      };
      const pump = () => {
        while (open && inFlight < this.window) {
          let i: number;
          if (resend.length > 0) {
            i = resend.shift()!;
            this.resent += 1;
          } else if (opts.newFrames) {
            i = this.nextIndex++;
          } else {
            if (inFlight === 0) finish();
            return;
          }
          const ts = FramePublisher.tsOf(i);
          this.sent.add(ts);
          this.unacked.add(i);
          inFlight += 1;
          c.publish(topic, JSON.stringify(frame2341(this.dl.pn, ts, i)), { qos: 1 }, (err) => {
            inFlight -= 1;
            if (!err && open) {
              this.acked.add(ts); // PUBACK received
              this.unacked.delete(i);
            }
            if (open) pump();
          });
        }
      };
      c.on('close', finish);
      c.on('error', () => undefined);
      pump();
    });
  }
}
