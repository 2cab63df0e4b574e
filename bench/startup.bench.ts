/**
 * Start-up time and resident memory of the server: TypeScript through tsx at run time (before issue 16)
 * against the compiled bundle (`apps/server/dist/main.js`, what `npm start` runs now).
 *
 *   npx tsx bench/startup.bench.ts [--runs 5] [--settle 3]
 *
 * Each variant starts `--runs` times (after one unmeasured warm-up start that creates and migrates its
 * database) on its own SQLite data dir, without demo data: time from spawn until `GET /healthz` answers
 * 200, the CPU time used until then (the robust figure on a shared machine), resident memory (VmRSS of the process and its children: the tsx CLI runs the server in a child
 * node process) when ready and `--settle` seconds later, then SIGTERM. Variants alternate run by run.
 * Prints the figures; never fails on a time.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'apps/server');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = arg('runs', 5);
const SETTLE_S = arg('settle', 3);

interface Variant {
  name: string;
  command: string[];
  dataDir: string;
  ready: number[];
  cpu: number[];
  rssReady: number[];
  rssSettled: number[];
}

const tsxCli = path.join(ROOT, 'node_modules/.bin/tsx');
const variants: Variant[] = [
  { name: 'tsx CLI (before: `tsx src/main.ts`)', command: [tsxCli, 'src/main.ts'] },
  { name: 'node --import tsx (one process)', command: [process.execPath, '--import', 'tsx', 'src/main.ts'] },
  { name: 'compiled (`node dist/main.js`)', command: [process.execPath, '--enable-source-maps', 'dist/main.js'] },
].map((v) => ({
  ...v,
  dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-startup-')),
  ready: [],
  cpu: [],
  rssReady: [],
  rssSettled: [],
}));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function childrenOf(pid: number): number[] {
  let children: number[] = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const list = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
    if (list) children = children.concat(list.split(/\s+/).map(Number));
  }
  return children;
}

/** VmRSS (bytes) of a process and all its descendants (Linux /proc; 0 elsewhere). */
function treeRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb * 1024 + childrenOf(pid).reduce((n, c) => n + treeRss(c), 0);
  } catch {
    return 0;
  }
}

/** CPU time (ms, user + system) a process and its descendants used so far (Linux /proc; 0 elsewhere). */
function treeCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return ticks * 10 + childrenOf(pid).reduce((n, c) => n + treeCpuMs(c), 0);
  } catch {
    return 0;
  }
}

async function startOnce(
  v: Variant,
): Promise<{ readyMs: number; cpuMs: number; rssReady: number; rssSettled: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(v.command[0]!, v.command.slice(1), {
    cwd: SERVER,
    env: {
      ...process.env,
      DATA_DIR: v.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let readyMs = 0;
  let cpuMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${v.name}: exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) {
        readyMs = performance.now() - started;
        cpuMs = treeCpuMs(child.pid!);
        break;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const rssReady = treeRss(child.pid!);
  await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
  const rssSettled = treeRss(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { readyMs, cpuMs, rssReady, rssSettled };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

execFileSync(process.execPath, [path.join(SERVER, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`);
for (const v of variants) await startOnce(v); // warm-up: creates and migrates the database, fills the page cache
for (let run = 0; run < RUNS; run++) {
  for (const v of variants) {
    const r = await startOnce(v);
    v.ready.push(r.readyMs);
    v.cpu.push(r.cpuMs);
    v.rssReady.push(r.rssReady);
    v.rssSettled.push(r.rssSettled);
  }
}
console.log(`\n${RUNS} starts each (existing SQLite database, no demo data); median (min–max)\n`);
console.log(
  `| variant | start → /healthz 200 (ms) | CPU until ready (ms) | RSS when ready (MB) | RSS after ${SETTLE_S} s (MB) |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const v of variants) {
  const range = (xs: number[], f: (x: number) => string) =>
    `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
  console.log(
    `| ${v.name} | ${range(v.ready, (x) => x.toFixed(0))} | ${range(v.cpu, (x) => x.toFixed(0))} | ${range(v.rssReady, mb)} | ${range(v.rssSettled, mb)} |`,
  );
}
for (const v of variants) fs.rmSync(v.dataDir, { recursive: true, force: true });
console.log(`\nload average after: ${os.loadavg()[0]!.toFixed(2)}`);
