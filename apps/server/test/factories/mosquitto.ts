import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './telemetry-ingest.js';

/** The Debian package's broker (`apt-get install mosquitto`), or MOSQUITTO_BIN. */
export const MOSQUITTO = process.env.MOSQUITTO_BIN ?? '/usr/sbin/mosquitto';

export interface RunningMosquitto {
  port: number;
  proc: ChildProcess;
  /** What the broker wrote to stderr so far (its log). */
  output: () => string;
}

/**
 * A real Mosquitto on `port` of the loopback, configured by `lines` (its own listener, the
 * current user, no persistence and the log on stderr are added), written to `dir`/mosquitto.conf;
 * resolves once it accepts TCP connections, rejects if it exits first.
 */
export async function startMosquitto(dir: string, port: number, lines: readonly string[]): Promise<RunningMosquitto> {
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      ...lines,
      'persistence false',
      `user ${os.userInfo().username}`,
      'log_dest stderr',
    ].join('\n') + '\n',
  );
  const proc = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(
    () =>
      new Promise<boolean>((resolve, reject) => {
        if (proc.exitCode !== null) return reject(new Error(`mosquitto exited: ${out}`));
        const sock = net.connect(port, '127.0.0.1');
        sock.once('connect', () => {
          sock.destroy();
          resolve(true);
        });
        sock.once('error', () => resolve(false));
      }),
    10_000,
  );
  return { port, proc, output: () => out };
}
