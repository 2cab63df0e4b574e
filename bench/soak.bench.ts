/**
 * Soak (issue 16): the compiled server as its own process, for `--minutes` (default 30), with
 *   - the demo fleet publishing live over MQTT (DEMO_FLEET=1: the seeded demo dataloggers of
 *     owner_anna and owner_ben, so the dashboards below show moving data), and
 *   - a paced ingest load of `--dataloggers` extra MQTT dataloggers (the publishing code of
 *     bench/ingest.bench.ts, in a forked child process) at HALF the measured ingest capacity:
 *     unless `--rate <datapoints/s>` is given, the same load generator first runs unpaced for
 *     `--capacity-seconds` (default 20, the first 5 s not counted) and the rate is half of what the
 *     server stored per second then (`--fraction 0.5`), and
 *   - `--users` (default 50) web users polling dashboards with signed action calls, as the web app
 *     does: the fleet home (webQueryFleetOverview, webQueryPlants), a plant page (queryPlantInfo,
 *     queryPlantCurrentData, webQueryPlants by name, queryPlantActiveOuputPowerOneDay,
 *     queryPlantDeviceStatus, queryPlantDeviceView, queryPlantEnvMonitor) and a device page
 *     (querySPDeviceLastData, webQueryDeviceEnergyFlowEs, webQueryDeviceStatistic). A user shows
 *     one screen, refreshes it every `--poll-ms` (default 45,000: PLANT_REFRESH_MS and
 *     LIVE_REFRESH_MS of apps/web; the home refreshes every 60 s), and moves on to the next screen
 *     every third refresh. A screen's queries go out at once, as TanStack Query sends them.
 *
 *   npx tsx bench/soak.bench.ts [--minutes 30] [--rate <dp/s>] [--fraction 0.5] [--capacity-seconds 20]
 *                               [--users 50] [--poll-ms 45000] [--dataloggers 100] [--devices 2]
 *                               [--window-seconds 30] [--settle-seconds <a third of the run>] [--log-level info]
 *                               [--database-url postgres://…] [--server-node-options "<node options>"]
 *
 * Every `--window-seconds` it prints a row: server RSS (/proc/<pid>/status) and V8 heap used
 * (/metrics, nodejs_heap_size_used_bytes), both the LOWEST of samples taken every 2 s in the window
 * (the floor a collection leaves: a median or a single sample swings ±40 % with the collector's
 * timing, a leak lifts the floor), the live heap (sunwatch_heap_live_bytes: heap used right after
 * the last major collection), the
 * dashboard calls with p50 / p99, errors (HTTP errors, a non-zero err other than the "no data
 * yet" answers the web app itself accepts, MQTT publish errors, bad frames), and the ingest rate
 * the server achieved (sunwatch_ingest_datapoints_total). At the end: the verdict — memory growth
 * from the first quarter of the windows after `--settle-seconds` to the last quarter (RSS floor and
 * live-heap median, each ≤ 10 %; heap used is printed, not judged), p99 of the last window
 * against the first, and the error count (must be 0). Never fails on time; exits 1 only if
 * the verdict fails (memory or errors).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEB_COMPANY_KEY, sha1Hex, signCall, signLogin } from '@sunwatch/protocol';
import type { AuthDat, Envelope } from '@sunwatch/protocol';
import mqtt from 'mqtt';
import { loadConfig, startServer } from '../apps/server/src/index.js';
import { createScratchPgDatabase } from '../apps/server/test/factories/telemetry-rows.js';
import { framePayload, frameVariants, numArg, percentile, strArg } from './lib/fleet.js';

const num = numArg;
const str = strArg;

// ------------------------------------------------------------------ load generator (child)

interface LoadSpec {
  port: number;
  loggers: Array<{ pn: string; token: string }>;
  window: number;
  devices: number;
  baseTs: number;
}
/** Parent → child: publish unpaced (capacity), at `fps` frames/s, or stop. */
type LoadCommand = { type: 'max' } | { type: 'pace'; fps: number } | { type: 'stop' };
interface LoadCounters {
  type: 'counters';
  sent: number;
  acked: number;
  errors: number;
  /** Frames the pacer wanted out but every datalogger's window was full (the rate was not met). */
  behind: number;
}

async function runLoad(spec: LoadSpec): Promise<void> {
  // As bench/ingest.bench.ts (bench/lib/fleet.ts): a few register-encoded variants, the timestamp spliced in.
  const variants = frameVariants(spec.devices);
  const clients = await Promise.all(
    spec.loggers.map((l) =>
      mqtt.connectAsync(`mqtt://127.0.0.1:${spec.port}`, {
        username: l.pn,
        password: l.token,
        clientId: `dl-${l.pn}`,
        reconnectPeriod: 1000,
        connectTimeout: 30_000,
      }),
    ),
  );
  const c: LoadCounters = { type: 'counters', sent: 0, acked: 0, errors: 0, behind: 0 };
  const seq = spec.loggers.map(() => 0);
  const inflight = spec.loggers.map(() => 0);
  let mode: LoadCommand = { type: 'stop' };
  let rr = 0;
  /** Publishes one frame of datalogger i; returns false when its window is full. */
  const publish = (i: number): boolean => {
    if (inflight[i]! >= spec.window) return false;
    const pn = spec.loggers[i]!.pn;
    const payload = framePayload(variants, pn, spec.baseTs, seq[i]!++);
    inflight[i]! += 1;
    c.sent += 1;
    clients[i]!.publish(`sw/dl/${pn}/data`, payload, { qos: 1 }, (err) => {
      inflight[i]! -= 1;
      if (err) c.errors += 1;
      else c.acked += 1;
      if (mode.type === 'max') publish(i);
    });
    return true;
  };
  // Paced: every 50 ms, send what the rate owes since the pace started, round-robin over the fleet.
  let paceStart = 0;
  let paceSent = 0;
  const pacer = setInterval(() => {
    if (mode.type !== 'pace') return;
    const owed = Math.floor(((performance.now() - paceStart) / 1000) * mode.fps) - paceSent;
    for (let k = 0; k < owed; k++) {
      let sent = false;
      for (let tries = 0; tries < clients.length && !sent; tries++) {
        sent = publish(rr);
        rr = (rr + 1) % clients.length;
      }
      if (!sent) {
        c.behind += owed - k;
        paceSent += owed - k;
        break;
      }
      paceSent += 1;
    }
  }, 50);
  const reporter = setInterval(() => process.send?.(c), 1000);
  process.on('message', (m: LoadCommand) => {
    mode = m;
    if (m.type === 'max') for (let i = 0; i < clients.length; i++) while (publish(i));
    if (m.type === 'pace') {
      paceStart = performance.now();
      paceSent = 0;
    }
    if (m.type === 'stop') {
      clearInterval(pacer);
      clearInterval(reporter);
      process.send?.(c);
      void Promise.all(clients.map((cl) => cl.endAsync())).then(() => process.exit(0));
    }
  });
  process.send?.({ type: 'ready' });
}

// ------------------------------------------------------------------ the soak (this process)

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pct = percentile;

/** Demo accounts the users sign in as (seed-demo.ts), round-robin: owners, a viewer, dealers, the maker, the operator. */
const ACCOUNTS: Array<[string, string]> = [
  ['owner_anna', 'Owner_2026'],
  ['owner_ben', 'Owner_2026'],
  ['viewer_cara', 'Viewer_2026'],
  ['dealer_north', 'Dealer_2026'],
  ['dealer_south', 'Dealer_2026'],
  ['sunmaker', 'Maker_2026'],
  ['operator', 'Operator_2026'],
];

/** Non-zero answers the web app itself treats as "no data yet" (orEmpty: 12; the env monitor also 265). */
const ACCEPTED: Record<string, number[]> = {
  queryPlantActiveOuputPowerOneDay: [12],
  queryPlantEnvMonitor: [12, 265],
  querySPDeviceLastData: [12],
  webQueryDeviceEnergyFlowEs: [12],
};

async function main(): Promise<void> {
  const MINUTES = num('minutes', 30);
  const RATE = str('rate') !== undefined ? num('rate', 0) : undefined;
  const FRACTION = num('fraction', 0.5);
  const CAPACITY_S = num('capacity-seconds', 20);
  const USERS = num('users', 50);
  const POLL_MS = num('poll-ms', 45_000);
  const LOGGERS = num('dataloggers', 100);
  const DEVICES = num('devices', 2);
  const WINDOW_S = num('window-seconds', 30);
  // The warm-up left out of the memory verdict: a third of the run by default. Under this load V8
  // sizes its old generation over the first 10–13 minutes (committed old space ≈ 150 → 240 MB while
  // the live heap stays at 70–78 MB; bench/README "Soak", session 31), and RSS follows it; a
  // settle of 2 minutes (sessions 30–31) judged that sizing, not a leak.
  const SETTLE_S = num('settle-seconds', Math.max(60, (MINUTES * 60) / 3));
  const LOG_LEVEL = str('log-level') ?? 'info';
  const DATABASE_URL = str('database-url');
  const root = path.resolve(import.meta.dirname, '..');
  const serverDir = path.join(root, 'apps/server');

  // 1. The compiled server (as `npm start` builds it).
  execFileSync(process.execPath, [path.join(serverDir, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });

  // 2. A database with the load dataloggers (made in-process through the telemetry service, which
  //    also issues their device tokens); the compiled server then seeds the demo data on it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-soak-'));
  const scratch = DATABASE_URL ? await createScratchPgDatabase(DATABASE_URL, 'sunwatch_soak') : undefined;
  const dbEnv: Record<string, string> = scratch
    ? { DATABASE_URL: scratch.url }
    : { SQLITE_PATH: path.join(dataDir, 'sunwatch.db') };
  const loggers: Array<{ pn: string; token: string }> = [];
  {
    const prep = await startServer(
      loadConfig({
        DATA_DIR: dataDir,
        ...dbEnv,
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: '0',
        MQTT_HOST: '127.0.0.1',
        DEMO_DATA: '0',
        JOBS_ENABLED: '0',
        LOG_LEVEL: 'silent',
      }),
    );
    const now = Date.now();
    for (let i = 0; i < LOGGERS; i++) {
      const pn = `K${String(i).padStart(6, '0')}${crypto.randomBytes(2).toString('hex').toUpperCase()}`;
      await prep.app.ctx.db
        .insertInto('dataloggers')
        .values({ pn, tz_offset: 3600, created_at: now, updated_at: now } as never)
        .execute();
      loggers.push({ pn, token: await prep.app.ctx.services.telemetry.issueDeviceToken(pn) });
    }
    await prep.close();
  }

  const port = await freePort();
  const mqttPort = await freePort();
  const metricsToken = crypto.randomBytes(16).toString('hex');
  const webRoot = path.join(dataDir, 'web');
  fs.mkdirSync(webRoot);
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>soak</title>');
  // `--server-node-options "--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp/x"`: extra Node options of the
  // server process, e.g. to take heap snapshots of a growing heap with `kill -USR2 <server pid>`.
  const serverNodeOptions = (str('server-node-options') ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...serverNodeOptions, '--enable-source-maps', path.join(serverDir, 'dist', 'main.js')], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      ...dbEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
      DEMO_DATA: '1',
      DEMO_FLEET: '1',
      DEMO_HISTORY_DAYS: '1',
      WEB_ROOT: webRoot,
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Logs are read and dropped, as a collector would; the tail is kept for a failure message.
  let tail = '';
  const keep = (d: Buffer) => (tail = (tail + d.toString('utf8')).slice(-8192));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let serverExited = false;
  child.once('exit', () => (serverExited = true));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (!tail.includes('Sunwatch is running at')) {
    if (serverExited || Date.now() > deadline) throw new Error(`the server did not start:\n${tail}`);
    await sleep(100);
  }

  let load: ReturnType<typeof fork> | undefined;
  const stopAll = async () => {
    load?.send({ type: 'stop' } satisfies LoadCommand);
    if (!serverExited) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // ---- sign-ins (one session per account, shared by its users: a login per user would only
    //      exercise the login throttle)
    const sessions = new Map<string, AuthDat>();
    for (const [usr, password] of ACCOUNTS) {
      for (;;) {
        const salt = String(Date.now());
        const t = `&action=authSource&usr=${usr}&company-key=${encodeURIComponent(WEB_COMPANY_KEY)}&source=1`;
        const res = (await (
          await fetch(`${baseUrl}/public/?sign=${signLogin(salt, sha1Hex(password), t)}&salt=${salt}${t}`)
        ).json()) as Envelope<AuthDat>;
        if (res.err === 0) {
          sessions.set(usr, res.dat!);
          break;
        }
        if (res.err !== 261 || Date.now() > deadline) throw new Error(`login ${usr}: ${res.err} ${res.desc}`);
        await sleep(300);
      }
    }

    // ---- metrics and memory
    const metrics = async (): Promise<Map<string, number>> => {
      const text = await (
        await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
      ).text();
      const m = new Map<string, number>();
      for (const line of text.split('\n')) {
        if (!line || line.startsWith('#')) continue;
        const sp = line.lastIndexOf(' ');
        const key = line.slice(0, sp);
        m.set(key, (m.get(key) ?? 0) + Number(line.slice(sp + 1)));
      }
      return m;
    };
    const rssBytes = (): number => {
      const s = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(s)![1]) * 1024;
    };
    const badFrames = (m: Map<string, number>) =>
      [...m].filter(([k]) => k.startsWith('sunwatch_ingest_bad_frames_total')).reduce((n, [, v]) => n + v, 0);
    const dpOf = (m: Map<string, number>) => m.get('sunwatch_ingest_datapoints_total') ?? 0;

    // ---- the load generator
    const loadCounters: LoadCounters = { type: 'counters', sent: 0, acked: 0, errors: 0, behind: 0 };
    load = fork(fileURLToPath(import.meta.url), ['--load-child'], { stdio: 'inherit' });
    const loadReady = new Promise<void>((resolve, reject) => {
      load!.on('message', (m: { type: string }) => {
        if (m.type === 'ready') resolve();
        if (m.type === 'counters') Object.assign(loadCounters, m);
      });
      load!.once('exit', (code) => (code ? reject(new Error(`load generator exited with ${code}`)) : undefined));
    });
    load.send({
      port: mqttPort,
      loggers,
      window: 8,
      devices: DEVICES,
      // Inside the server's backfill window (INGEST_BACKFILL_DAYS, 30): 5 s apart, a logger reaches now after 480k frames.
      baseTs: Date.now() - 28 * 86400_000,
    } satisfies LoadSpec);
    await loadReady;

    // Datapoints per frame: the values the decoder stores per device (measured on the first frames).
    let rate: number;
    let capacity: number | undefined;
    {
      const m0 = await metrics();
      const s0 = m0.get('sunwatch_ingest_samples_stored_total') ?? 0;
      if (RATE === undefined) {
        load.send({ type: 'max' } satisfies LoadCommand);
        await sleep(5000);
        const a = await metrics();
        const ta = performance.now();
        await sleep(Math.max(1, CAPACITY_S - 5) * 1000);
        const b = await metrics();
        capacity = ((dpOf(b) - dpOf(a)) / (performance.now() - ta)) * 1000;
        rate = capacity * FRACTION;
      } else {
        load.send({ type: 'pace', fps: LOGGERS } satisfies LoadCommand);
        await sleep(3000);
        rate = RATE;
      }
      load.send({ type: 'pace', fps: 0 } satisfies LoadCommand);
      await sleep(3000);
      const m1 = await metrics();
      const dpPerFrame =
        ((dpOf(m1) - dpOf(m0)) / Math.max(1, (m1.get('sunwatch_ingest_samples_stored_total') ?? 0) - s0)) * DEVICES;
      const fps = rate / dpPerFrame;
      console.log(
        `soak: ${MINUTES} min, ${USERS} web users (poll ${POLL_MS / 1000} s), ${LOGGERS} load dataloggers × ${DEVICES} devices ` +
          `(${dpPerFrame.toFixed(0)} datapoints/frame) + the demo fleet, ${scratch ? 'PostgreSQL' : 'SQLite'}, LOG_LEVEL=${LOG_LEVEL}\n` +
          (capacity !== undefined
            ? `measured capacity ${Math.round(capacity).toLocaleString('en')} datapoints/s (${CAPACITY_S} s unpaced, first 5 s not counted); `
            : '') +
          `soak rate ${Math.round(rate).toLocaleString('en')} datapoints/s = ${fps.toFixed(0)} frames/s; server pid ${child.pid}, windows of ${WINDOW_S} s`,
      );
      load.send({ type: 'pace', fps } satisfies LoadCommand);
    }

    // ---- web users
    interface Call {
      at: number;
      ms: number;
      ok: boolean;
    }
    const calls: Call[] = [];
    const errors = new Map<string, number>();
    const addError = (k: string) => errors.set(k, (errors.get(k) ?? 0) + 1);
    let salt = Date.now();
    const call = async <T>(
      usr: string,
      action: string,
      params: Record<string, string | number>,
    ): Promise<T | undefined> => {
      const s = sessions.get(usr)!;
      const tail =
        `&action=${action}` +
        Object.entries({ ...params, source: 1 })
          .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
          .join('');
      const sl = String(salt++);
      const t0 = performance.now();
      let ok = false;
      let dat: T | undefined;
      try {
        const res = await fetch(
          `${baseUrl}/public/?sign=${signCall(sl, s.secret, s.token, tail)}&salt=${sl}&token=${s.token}${tail}`,
        );
        const env = (await res.json()) as Envelope<T>;
        if (res.status !== 200) addError(`${action}: HTTP ${res.status}`);
        else if (env.err === 0 || ACCEPTED[action]?.includes(env.err)) {
          ok = true;
          dat = env.dat;
        } else addError(`${action}: err ${env.err} ${env.desc ?? ''} (${usr})`);
      } catch (e) {
        addError(`${action}: ${(e as Error).message}`);
      }
      calls.push({ at: Date.now(), ms: performance.now() - t0, ok });
      return dat;
    };
    const today = () => new Date().toISOString().slice(0, 10);
    type Plant = { pid: number; plantName: string };
    type Dev = { pn: string; devcode: number; devaddr: number; sn: string };
    const screens = {
      async home(usr: string): Promise<Plant[]> {
        const [, list] = await Promise.all([
          call(usr, 'webQueryFleetOverview', { timezone: 0 }),
          call<{ plant: Plant[] }>(usr, 'webQueryPlants', { page: 0, pagesize: 20 }),
        ]);
        return list?.plant ?? [];
      },
      async plant(usr: string, p: Plant): Promise<Dev[]> {
        const results = await Promise.all([
          call(usr, 'queryPlantInfo', { plantid: p.pid }),
          call(usr, 'queryPlantCurrentData', {
            plantid: p.pid,
            par: 'CURRENT_POWER,ENERGY_TODAY,ENERGY_MONTH,ENERGY_YEAR,ENERGY_TOTAL,ENERGY_PROCEEDS,ENERGY_CO2,ENERGY_COAL,BATTERY_SOC,CURRENT_RADIANT,CURRENT_TEMP',
          }),
          call(usr, 'webQueryPlants', { page: 0, pagesize: 50, plantName: p.plantName }),
          call(usr, 'queryPlantActiveOuputPowerOneDay', { plantid: p.pid, date: today() }),
          call(usr, 'queryPlantDeviceStatus', { plantid: p.pid }),
          call<{ collector: Array<{ pn: string; device: Dev[] }> }>(usr, 'queryPlantDeviceView', { plantid: p.pid }),
          call(usr, 'queryPlantEnvMonitor', { plantid: p.pid }),
        ]);
        const view = results[5] as { collector: Array<{ pn: string; device: Dev[] }> } | undefined;
        return (view?.collector ?? []).flatMap((c) => c.device.map((d) => ({ ...d, pn: c.pn })));
      },
      async device(usr: string, d: Dev): Promise<void> {
        const t = { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn };
        await Promise.all([
          call(usr, 'querySPDeviceLastData', t),
          call(usr, 'webQueryDeviceEnergyFlowEs', t),
          call(usr, 'webQueryDeviceStatistic', t),
        ]);
      },
    };
    const endAt = Date.now() + MINUTES * 60_000;
    let running = true;
    const user = async (k: number) => {
      const usr = ACCOUNTS[k % ACCOUNTS.length]![0];
      await sleep(Math.random() * POLL_MS); // users arrive spread over one poll interval
      let plants: Plant[] = [];
      let devs: Dev[] = [];
      // Users start on different screens and part-way through them, so every window has the same mix.
      let refresh = Math.floor(Math.random() * 3);
      for (let visit = k; running; visit++, refresh = 0) {
        const screen = visit % 3;
        for (; refresh < 3 && running; refresh++) {
          const t0 = Date.now();
          if (screen === 0 || plants.length === 0) plants = await screens.home(usr);
          else if (screen === 1 || devs.length === 0) {
            devs = await screens.plant(usr, plants[Math.floor(Math.random() * plants.length)]!);
          } else await screens.device(usr, devs[Math.floor(Math.random() * devs.length)]!);
          const wait = (screen === 0 ? Math.max(POLL_MS, 60_000 * (POLL_MS / 45_000)) : POLL_MS) - (Date.now() - t0);
          const until = Date.now() + wait;
          while (running && Date.now() < until) await sleep(Math.min(1000, until - Date.now()));
        }
      }
    };
    const users = Array.from({ length: USERS }, (_, k) => user(k));

    // ---- sampling
    interface Window {
      end: number;
      rss: number;
      heap: number;
      /** sunwatch_heap_live_bytes at the window's end: heap used right after the last major collection. */
      live: number;
      calls: number;
      p50: number;
      p99: number;
      errors: number;
      dpPerSec: number;
      behind: number;
      load: number;
    }
    const windows: Window[] = [];
    const started = Date.now();
    let mPrev = await metrics();
    let tPrev = performance.now();
    let dpPrev = dpOf(mPrev);
    let errPrev = 0;
    let behindPrev = loadCounters.behind;
    const errTotal = () => [...errors.values()].reduce((a, b) => a + b, 0) + loadCounters.errors + badFrames(mPrev);
    console.log(
      '\n| window end (min) | RSS MB | heap used MB | live heap MB | dashboard calls | p50 ms | p99 ms | errors | ingest datapoints/s | frames behind | load avg |',
    );
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    while (Date.now() < endAt) {
      const wEnd = Math.min(endAt, Date.now() + WINDOW_S * 1000);
      const rss: number[] = [];
      const heap: number[] = [];
      while (Date.now() < wEnd) {
        if (serverExited) throw new Error(`the server exited during the soak:\n${tail}`);
        rss.push(rssBytes());
        const m = await metrics();
        heap.push(m.get('nodejs_heap_size_used_bytes') ?? NaN);
        await sleep(Math.min(2000, Math.max(0, wEnd - Date.now())));
      }
      const m = await metrics();
      const t = performance.now();
      const inWindow = calls.splice(0);
      const lat = inWindow.map((c) => c.ms).sort((a, b) => a - b);
      mPrev = m;
      const errNow = errTotal();
      const w: Window = {
        end: (Date.now() - started) / 60_000,
        rss: Math.min(...rss) / 1e6,
        heap: Math.min(...heap) / 1e6,
        live: (m.get('sunwatch_heap_live_bytes') ?? NaN) / 1e6,
        calls: inWindow.length,
        p50: pct(lat, 50),
        p99: pct(lat, 99),
        errors: errNow - errPrev,
        dpPerSec: ((dpOf(m) - dpPrev) / (t - tPrev)) * 1000,
        behind: loadCounters.behind - behindPrev,
        load: os.loadavg()[0]!,
      };
      dpPrev = dpOf(m);
      errPrev = errNow;
      behindPrev = loadCounters.behind;
      tPrev = t;
      windows.push(w);
      console.log(
        `| ${w.end.toFixed(1)} | ${w.rss.toFixed(0)} | ${w.heap.toFixed(0)} | ${w.live.toFixed(1)} | ${w.calls} | ${w.p50.toFixed(0)} | ${w.p99.toFixed(0)} | ` +
          `${w.errors} | ${Math.round(w.dpPerSec).toLocaleString('en')} | ${w.behind} | ${w.load.toFixed(1)} |`,
      );
    }
    running = false;
    await Promise.all(users);

    // ---- verdict
    // Memory, judged on two figures, the first quarter of the steady windows against the last
    // quarter (at least one window each):
    //  - RSS, the floor (lowest window value): one window's floor still depends on whether a major
    //    collection fell into it; a leak lifts every floor;
    //  - the live heap (sunwatch_heap_live_bytes: heap used right after a major collection), the
    //    median of each quarter: what survives a full collection, the leak indicator of the JS heap.
    // "heap used" (read at any moment, garbage included) is printed, not judged: it swings ±40 %
    // with the collector's timing (session 31: a heap-snapshot diff of minute 2.5 against minute 12
    // found +2.2 MB live, +3 %, while the floor of heap used moved +12 %).
    const steadyAt = windows.findIndex((w) => w.end * 60 >= SETTLE_S + WINDOW_S);
    const steadyWs = windows.slice(steadyAt >= 0 && steadyAt < windows.length - 1 ? steadyAt : 0);
    const q = Math.max(1, Math.floor(steadyWs.length / 4));
    const head = steadyWs.slice(0, q);
    const rear = steadyWs.slice(-q);
    const floorOf = (ws: Window[], k: 'rss' | 'heap') => Math.min(...ws.map((w) => w[k]));
    const medianOf = (ws: Window[]) => {
      const v = ws.map((w) => w.live).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
      return v.length ? v[Math.floor((v.length - 1) / 2)]! : NaN;
    };
    const first = {
      rss: floorOf(head, 'rss'),
      heap: floorOf(head, 'heap'),
      live: medianOf(head),
      p99: head[0]!.p99,
      end: head[q - 1]!.end,
    };
    const last = {
      rss: floorOf(rear, 'rss'),
      heap: floorOf(rear, 'heap'),
      live: medianOf(rear),
      p99: rear[q - 1]!.p99,
      end: rear[q - 1]!.end,
    };
    const growth = (a: number, b: number) => ((b - a) / a) * 100;
    const rssGrowth = growth(first.rss, last.rss);
    const heapGrowth = growth(first.heap, last.heap);
    const liveGrowth = growth(first.live, last.live);
    const totalErrors = errTotal();
    // No live-heap figure (no major collection in a quarter) counts as not shown flat.
    const memOk = rssGrowth <= 10 && liveGrowth <= 10;
    const achieved = windows.reduce((n, w) => n + w.dpPerSec, 0) / windows.length;
    console.log(
      `\nverdict (memory: RSS floor and live-heap median of the first ${q} steady window(s), to ${first.end.toFixed(1)} min, against the last ${q}, to ${last.end.toFixed(1)} min;` +
        ` p99: first steady window against the last):`,
    );
    console.log(
      `  memory: RSS ${first.rss.toFixed(0)} → ${last.rss.toFixed(0)} MB (${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} %), ` +
        `live heap ${first.live.toFixed(1)} → ${last.live.toFixed(1)} MB (${liveGrowth >= 0 ? '+' : ''}${liveGrowth.toFixed(1)} %): ` +
        `${memOk ? 'flat (≤ 10 %)' : 'GROWS (> 10 %)'}; heap used (not judged) ${first.heap.toFixed(0)} → ${last.heap.toFixed(0)} MB ` +
        `(${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} %)`,
    );
    console.log(
      `  dashboard p99: ${first.p99.toFixed(0)} → ${last.p99.toFixed(0)} ms (×${(last.p99 / first.p99).toFixed(2)}); ` +
        `p99 over all windows ${Math.min(...windows.map((w) => w.p99)).toFixed(0)}–${Math.max(...windows.map((w) => w.p99)).toFixed(0)} ms`,
    );
    console.log(
      `  ingest: ${Math.round(achieved).toLocaleString('en')} datapoints/s on average against ${Math.round(rate).toLocaleString('en')} asked` +
        ` (${loadCounters.acked.toLocaleString('en')} frames acknowledged, ${loadCounters.behind} not sent because the windows were full)`,
    );
    console.log(`  errors: ${totalErrors} ${totalErrors === 0 ? '(none)' : '— FAIL'}`);
    for (const [k, n] of errors) console.log(`    ${n} × ${k}`);
    if (loadCounters.errors) console.log(`    ${loadCounters.errors} × MQTT publish errors`);
    for (const [k, v] of mPrev)
      if (k.startsWith('sunwatch_ingest_bad_frames_total') && v > 0) console.log(`    ${v} × ${k}`);
    console.log(
      `  → ${memOk && totalErrors === 0 ? 'PASS' : 'FAIL'} (memory flat and 0 errors; timings are printed, never judged)`,
    );
    process.exitCode = memOk && totalErrors === 0 ? 0 : 1;
  } finally {
    await stopAll();
  }
}

// ------------------------------------------------------------------ entry (after every declaration above)

if (process.argv.includes('--load-child')) {
  process.once('message', (spec: LoadSpec) => {
    runLoad(spec).catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
  });
} else {
  await main();
}
