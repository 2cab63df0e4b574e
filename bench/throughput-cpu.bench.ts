/**
 * CPU cost of one signed `queryAccountInfo` call, next to one static-file answer, measured inside
 * the server process: the app is built in this process (SQLite in a temp dir, demo accounts), and
 * calls go one at a time through Fastify's full request pipeline (`app.inject`: hooks, security
 * headers, request log, dispatcher, action log; no socket). `process.cpuUsage()` over N calls gives
 * CPU µs per call, a figure that other processes on the machine barely move (unlike requests/s).
 *
 *   npx tsx bench/throughput-cpu.bench.ts [--calls 20000] [--database-url postgres://…]
 *                                         [--server-root <checkout>] [--log-level info]
 *
 * `--server-root` measures another checkout's server (e.g. main) with the same client code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { WEB_COMPANY_KEY, sha1Hex, signCall, signLogin, type AuthDat, type Envelope } from '@sunwatch/protocol';
import type { buildApp as BuildApp, loadConfig as LoadConfig, seedDemo as SeedDemo } from '@sunwatch/server';
import { createScratchPgDatabase } from '../apps/server/test/factories/telemetry-rows.js';

function arg(name: string, fallback: string | undefined): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 || i + 1 >= process.argv.length ? fallback : process.argv[i + 1];
}

const CALLS = Number(arg('calls', '20000'));
const DATABASE_URL = arg('database-url', undefined);
const LOG_LEVEL = (arg('log-level', 'info') ?? 'info') as 'info';
const root = path.resolve(arg('server-root', undefined) ?? path.resolve(import.meta.dirname, '..'));
const server = (await import(pathToFileURL(path.join(root, 'apps/server/src/index.ts')).href)) as {
  buildApp: typeof BuildApp;
  loadConfig: typeof LoadConfig;
  seedDemo: typeof SeedDemo;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-throughput-cpu-'));
const webRoot = path.join(dataDir, 'web');
fs.mkdirSync(webRoot);
fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>bench</title>');
fs.writeFileSync(path.join(webRoot, 'static.json'), JSON.stringify({ err: 0, desc: 'ERR_NONE', dat: 'x'.repeat(400) }));
const scratch = DATABASE_URL ? await createScratchPgDatabase(DATABASE_URL, 'sunwatch_throughput_cpu') : undefined;
// Log lines are formatted as in production and dropped (a collector reads stdout there).
const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
const base = server.loadConfig({ DATA_DIR: dataDir, DEMO_DATA: '1', DEMO_FLEET: '0', MQTT_ENABLED: '0' });
const app = await server.buildApp({
  ...base,
  webRoot,
  logLevel: LOG_LEVEL,
  logStream: sink,
  ...(scratch ? { databaseUrl: scratch.url } : { sqlitePath: path.join(dataDir, 'bench.db') }),
});
try {
  await server.seedDemo(app);
  const salt0 = String(Date.now());
  const loginTail = `&action=authSource&usr=owner_anna&company-key=${encodeURIComponent(WEB_COMPANY_KEY)}&source=1`;
  const login = (
    await app.inject({
      url: `/public/?sign=${signLogin(salt0, sha1Hex('Owner_2026'), loginTail)}&salt=${salt0}${loginTail}`,
    })
  ).json<Envelope<AuthDat>>();
  if (login.err !== 0) throw new Error(`login failed: ${login.err}`);
  const { token, secret } = login.dat!;
  const tail = '&action=queryAccountInfo&source=1';
  let n = Date.now();
  const signedUrl = () => {
    const salt = String(++n);
    return `/public/?sign=${signCall(salt, secret, token, tail)}&salt=${salt}&token=${token}${tail}`;
  };
  // The client's signing is measured apart and taken off.
  const s0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) signedUrl();
  const signUs = ((d) => (d.user + d.system) / CALLS)(process.cpuUsage(s0));

  async function measure(url: () => string, ok: (body: string) => boolean): Promise<number> {
    for (let i = 0; i < Math.min(2000, CALLS); i++) await app.inject({ url: url() }); // warm-up
    const c0 = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) {
      const res = await app.inject({ url: url() });
      if (!ok(res.body)) throw new Error(`bad answer: ${res.body.slice(0, 200)}`);
    }
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / CALLS;
  }
  const staticUs = await measure(
    () => '/static.json',
    (b) => b.startsWith('{"err":0'),
  );
  const signedUs = (await measure(signedUrl, (b) => b.startsWith('{"err":0'))) - signUs;
  await app.ctx.services.actionLog.flush();
  console.log(
    `${scratch ? 'PostgreSQL' : 'SQLite'}, LOG_LEVEL=${LOG_LEVEL}, ${CALLS} calls each, server ${root}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  console.log('| call (app.inject, one at a time) | CPU µs per call | calls per CPU-second |');
  console.log('| --- | ---: | ---: |');
  console.log(`| static file | ${staticUs.toFixed(0)} | ${Math.round(1e6 / staticUs).toLocaleString('en')} |`);
  console.log(
    `| signed queryAccountInfo | ${signedUs.toFixed(0)} | ${Math.round(1e6 / signedUs).toLocaleString('en')} |`,
  );
} finally {
  await app.close();
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
