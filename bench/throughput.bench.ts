/**
 * Signed-action throughput (issue 16): how many signed `queryAccountInfo` calls per second the
 * server answers, next to the ceiling of the same server answering a small static file.
 *
 *   npx tsx bench/throughput.bench.ts [--duration 10] [--connections 32] [--warmup 3]
 *                                     [--database-url postgres://…] [--policy compatible|strict]
 *                                     [--log-level info] [--pool 200000] [--cpu-prof <dir>]
 *                                     [--server-root <checkout>] [--runtime compiled|tsx]
 *                                     [--instances 1]
 *
 * The real server runs as its own process (by default the compiled bundle `node apps/server/dist/main.js`,
 * what `npm start` and the image run, rebuilt when stale; `--runtime tsx` runs the sources) on the embedded
 * defaults (SQLite in a temp dir, embedded MQTT broker on a free port, jobs on, demo accounts
 * without the simulated fleet); `--database-url` runs it on a scratch PostgreSQL database made
 * (and dropped) on that server. The load generator is autocannon in this process. Every signed
 * request carries its own salt and sign from a pool made before the run (wire-protocol.md §3:
 * sign = sha1(salt + secret + token + tail)), so the strict policy, which never accepts a sign
 * twice, can be measured as well. Every answer is checked (`"err":0`); the run prints requests/s,
 * p50 / p99 latency and the server process's CPU time per 1,000 requests (the robust figure on a
 * shared machine). Never fails on time.
 *
 * `--instances N` (PostgreSQL only: SQLite allows one instance, docs/deploy.md) starts N server
 * processes on the same database and master key, each with its own port and embedded broker, and
 * spreads the connections over them evenly, as the load balancer of compose.yaml does: the
 * scale-out figure on one machine. CPU is then the sum over the instances.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type AutocannonResult } from 'autocannon';
import { WEB_COMPANY_KEY, sha1Hex, signCall, signLogin, type AuthDat, type Envelope } from '@sunwatch/protocol';
import { createScratchPgDatabase } from '../apps/server/test/factories/telemetry-rows.js';

function arg(name: string, fallback: number): number;
function arg(name: string, fallback: string | undefined): string | undefined;
function arg(name: string, fallback: number | string | undefined): number | string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const v = process.argv[i + 1]!;
  return typeof fallback === 'number' ? Number(v) : v;
}

const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 32);
const WARMUP = arg('warmup', 3);
const DATABASE_URL = arg('database-url', undefined);
const POLICY = arg('policy', undefined) ?? 'compatible';
const LOG_LEVEL = arg('log-level', undefined);
const POOL = arg('pool', 200_000);
/** Write a V8 CPU profile of the server process into this directory (node --cpu-prof). */
const CPU_PROF = arg('cpu-prof', undefined);
/** Run the server of another checkout (e.g. main, for a before/after pair); default this one. */
const SERVER_ROOT = arg('server-root', undefined);
/** `compiled` (default): the production bundle; `tsx`: the TypeScript sources through tsx. */
const RUNTIME = arg('runtime', undefined) ?? 'compiled';
const INSTANCES = arg('instances', 1);
const USR = 'owner_anna';
const PASSWORD = 'Owner_2026';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-throughput-'));
const webRoot = path.join(dataDir, 'web');
fs.mkdirSync(webRoot);
fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>bench</title>');
// About the size of the signed answer, so both runs move the same bytes.
fs.writeFileSync(path.join(webRoot, 'static.json'), JSON.stringify({ err: 0, desc: 'ERR_NONE', dat: 'x'.repeat(400) }));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

if (INSTANCES > 1 && !DATABASE_URL) {
  console.error('--instances > 1 needs --database-url: SQLite allows one instance (docs/deploy.md)');
  process.exit(2);
}
const scratch = DATABASE_URL ? await createScratchPgDatabase(DATABASE_URL, 'sunwatch_throughput') : undefined;
const root = path.resolve(SERVER_ROOT ?? path.resolve(import.meta.dirname, '..'));
const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [];
if (RUNTIME === 'compiled') {
  execFileSync(process.execPath, [path.join(root, 'apps/server/scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
}
const entry =
  RUNTIME === 'compiled'
    ? ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')]
    : ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')];

interface Instance {
  child: ReturnType<typeof spawn>;
  baseUrl: string;
  /** Resolves once the server printed its address (after seeding the demo data, main.ts). */
  ready: Promise<void>;
}

/** One server process; the first seeds the demo accounts, the others find them in the shared database. */
async function startInstance(seed: boolean): Promise<Instance> {
  const port = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DEMO_DATA: seed ? '1' : '0',
    DEMO_FLEET: '0',
    WEB_ROOT: webRoot,
    SIGN_POLICY: POLICY,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...(LOG_LEVEL ? { LOG_LEVEL } : {}),
  };
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The server prints its address once the demo data is seeded (main.ts): measure only after that,
  // so seeding never runs beside the load. Its log lines are read and dropped, as a collector would.
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (seen === 'done') return;
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (seen.includes('Sunwatch is running at')) {
        seen = 'done';
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the server process exited (${code}) before it was ready`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, ready };
}

const instances: Instance[] = [await startInstance(true)];
const first = instances[0]!;

async function stop(): Promise<void> {
  for (const { child: c } of instances) {
    if (c.exitCode === null) {
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      });
    }
  }
  await scratch?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** CPU seconds (user + system) the server processes used so far (Linux /proc). */
function serverCpuSeconds(): number {
  let sum = 0;
  for (const { child: c } of instances) {
    const stat = fs.readFileSync(`/proc/${c.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    sum += (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
  }
  return sum;
}

async function login(): Promise<AuthDat> {
  await first.ready;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const salt = String(Date.now());
      const tail = `&action=authSource&usr=${USR}&company-key=${encodeURIComponent(WEB_COMPANY_KEY)}&source=1`;
      const sign = signLogin(salt, sha1Hex(PASSWORD), tail);
      const res = (await (
        await fetch(`${first.baseUrl}/public/?sign=${sign}&salt=${salt}${tail}`)
      ).json()) as Envelope<AuthDat>;
      if (res.err === 0) return res.dat!;
      // 261 while the demo accounts are still being seeded
      if (res.err !== 261) throw new Error(`login failed: ${res.err} ${res.desc}`);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e; // fetch failed: not listening yet
    }
    if (Date.now() > deadline || first.child.exitCode !== null) throw new Error('the server process did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  cpuPer1k: number;
}

async function load(
  name: string,
  seconds: number,
  paths: () => string,
  ok: (body: string) => boolean,
): Promise<Figures> {
  let bad = 0;
  const cpu0 = serverCpuSeconds();
  // One autocannon per instance, the connections split evenly: what a round-robin load balancer does.
  const results: AutocannonResult[] = await Promise.all(
    instances.map((inst, i) =>
      autocannon({
        url: inst.baseUrl,
        connections: Math.floor(CONNECTIONS / instances.length) + (i < CONNECTIONS % instances.length ? 1 : 0),
        duration: seconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: paths() }),
            onResponse: (status, body) => {
              if (status !== 200 || !ok(body)) bad++;
            },
          },
        ],
      }),
    ),
  );
  const cpu = serverCpuSeconds() - cpu0;
  const total = results.reduce((t, r) => t + r.requests.total, 0);
  return {
    name,
    rps: total / seconds,
    // Several instances: the slowest instance's percentile (a conservative merge).
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    bad: bad + results.reduce((t, r) => t + r.errors + r.timeouts, 0),
    cpuPer1k: total > 0 ? (cpu / total) * 1_000_000 : 0, // ms of CPU per 1,000 requests
  };
}

try {
  const session = await login();
  for (let i = 1; i < INSTANCES; i++) instances.push(await startInstance(false));
  await Promise.all(instances.map((inst) => inst.ready));
  console.log(
    `server ${instances.map((inst) => `${inst.baseUrl} (process ${inst.child.pid})`).join(', ')}, ${RUNTIME}, on ${scratch ? 'PostgreSQL' : 'SQLite'}, sign policy ${POLICY}` +
      `${LOG_LEVEL ? `, LOG_LEVEL=${LOG_LEVEL}` : ''}; ${CONNECTIONS} connections, ${DURATION} s per run`,
  );

  // A pool of signed URLs, each with its own salt (epoch ms, counting up from now: strict-policy valid).
  const tail = '&action=queryAccountInfo&source=1';
  const base = Date.now();
  const pool: string[] = new Array<string>(POOL);
  for (let i = 0; i < POOL; i++) {
    const salt = String(base + i);
    pool[i] =
      `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  }
  let next = 0;
  const signedPath = () => {
    if (next >= POOL) throw new Error(`--pool ${POOL} used up: raise it`);
    return pool[next++]!;
  };
  const signedOk = (body: string) => body.startsWith('{"err":0');
  const staticOk = (body: string) => body.startsWith('{"err":0');
  const healthOk = (body: string) => body.startsWith('{"status":"ok"');

  await load('warm-up', WARMUP, () => '/static.json', staticOk);
  await load('warm-up', WARMUP, signedPath, signedOk);
  const rows = [
    await load('static file (ceiling)', DURATION, () => '/static.json', staticOk),
    // The same server's whole HTTP stack (hooks, security headers, request log) answering from memory.
    await load('GET /healthz (HTTP stack, from memory)', DURATION, () => '/healthz', healthOk),
    await load('signed queryAccountInfo', DURATION, signedPath, signedOk),
  ];
  const ceiling = rows[0]!.rps;
  console.log('\n| run | requests/s | p50 ms | p99 ms | server CPU ms / 1k req | of ceiling | bad answers |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of rows) {
    console.log(
      `| ${f.name} | ${Math.round(f.rps).toLocaleString('en')} | ${f.p50} | ${f.p99} | ${f.cpuPer1k.toFixed(0)} | ` +
        `${Math.round((f.rps / ceiling) * 100)} % | ${f.bad} |`,
    );
  }
  console.log(
    `\nload average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
} finally {
  await stop();
}
