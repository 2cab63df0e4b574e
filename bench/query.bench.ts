/**
 * Query benchmark (issue 3, "Actions"): a fleet of plants with a year of 5-minute data, then the
 * latency of the dashboard actions over HTTP (real server on loopback, signed calls) as a
 * manufacturer who sees every plant.
 *
 *   npx tsx bench/query.bench.ts [--plants 1000] [--days 365] [--interval 300] [--raw-days 7]
 *                                [--iterations 200] [--database-url postgres://…]
 *
 * Data is written straight through SQL and the sample codec (no simulator, no ingestion), in big
 * transactions: every plant gets 1 datalogger + 1 SW-GT10K-3P inverter (devcode 5121). Day
 * rollups (`device_days`) cover all `--days`; raw samples cover the last `--raw-days` (a full year
 * of 5-minute samples for 1,000 devices is 105 M rows — pass `--raw-days 365` to generate it all
 * if the machine has the time and disk). Never fails on time; prints a table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  DEVCODE_5121,
  ROLE,
  WEB_COMPANY_KEY,
  sha1Hex,
  signCall,
  signLogin,
  type AuthDat,
  type Envelope,
} from '@sunwatch/protocol';
import { buildApp, loadConfig } from '@sunwatch/server';
import type { Db } from '../apps/server/src/db/db.js';
import {
  analyzeAfterBulkLoad,
  createScratchPgDatabase,
  dayRollups,
  insertDatalogger,
  insertDevice,
  insertPlant,
  type DayRollupRow,
} from '../apps/server/test/factories/telemetry-rows.js';
import { localDay } from '../apps/server/src/shared/local-time.js';
import { encodeSample } from '../apps/server/src/modules/telemetry/sample-codec.js';

function arg(name: string, fallback: number): number;
function arg(name: string, fallback: string | undefined): string | undefined;
function arg(name: string, fallback: number | string | undefined): number | string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const v = process.argv[i + 1]!;
  return typeof fallback === 'number' ? Number(v) : v;
}

const PLANTS = arg('plants', 1000);
const DAYS = arg('days', 365);
const INTERVAL = arg('interval', 300);
const RAW_DAYS = Math.min(arg('raw-days', 7), DAYS);
const ITER = arg('iterations', 200);
const DATABASE_URL = arg('database-url', undefined);
/** Measure against a server in this process instead of a separate `apps/server/src/main.ts` process. */
const IN_PROCESS = process.argv.includes('--in-process');
/** Keep the generated database (prints where) for EXPLAIN sessions. */
const KEEP = process.argv.includes('--keep');
const TZ = 28800;
const PASSWORD = 'Bench_2026';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-bench-'));
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  SQLITE_PATH: path.join(dataDir, 'bench.db'),
  PORT: '0',
  HOST: '127.0.0.1',
  DEMO_DATA: '0',
  MQTT_ENABLED: '0',
  JOBS_ENABLED: '0',
  LOG_LEVEL: 'silent',
};
// PostgreSQL: a fresh database on the given server, dropped at the end.
let dropDatabase = async () => {};
if (DATABASE_URL) {
  const scratch = await createScratchPgDatabase(DATABASE_URL, 'sunwatch_bench');
  env.DATABASE_URL = scratch.url;
  dropDatabase = () => scratch.drop();
}
const config = loadConfig(env);
// Generation goes through the app's own database handle and repositories (migrated by buildApp).
const app = await buildApp(config);
const ctx = app.ctx;
const db: Db = ctx.db;
const engine = ctx.dialect.engine;
console.log(`engine ${engine}${engine === 'sqlite' ? ` (${env.SQLITE_PATH})` : ''}`);
console.log(`generating ${PLANTS} plants × ${DAYS} days of rollups, ${RAW_DAYS} days of ${INTERVAL}-s raw samples …`);

// ------------------------------------------------------------------------------------------
// Accounts: a manufacturer, a distributor under it, one owner per plant.
// ------------------------------------------------------------------------------------------
const t0 = performance.now();
const maker = await ctx.services.accounts.create({
  usr: 'bench_maker',
  password: PASSWORD,
  role: ROLE.MANUFACTURER,
  vendorCode: 'BM',
});
const dealer = await ctx.services.accounts.create({
  usr: 'bench_dealer',
  password: PASSWORD,
  role: ROLE.DISTRIBUTOR,
  parentId: maker.id,
});
const now = Date.now();
const owners: number[] = [];
for (let i = 0; i < PLANTS; i++) {
  const o = await ctx.repos.accounts.insert({
    usr: `bench_owner_${i}`,
    role: ROLE.OWNER,
    parent_id: dealer.id,
    status: 0,
    qname: '',
    email: '',
    mobile: '',
    photo: '',
    qq: '',
    wx: '',
    cname: '',
    caddr: '',
    ctel: '',
    bomb: 0,
    description: '',
    vendor_code: null,
    dealer_code: null,
    can_add_datalogger: 1,
    group_id: null,
    role_permission_id: null,
    data_permission: null,
    permissions: null,
    admin_of: null,
    created_by: dealer.id,
    created_at: now,
    updated_at: now,
    last_login_at: null,
    last_login_ip: null,
    pwd_cipher: '',
    data_key: '',
  });
  owners.push(o.id);
}

// ------------------------------------------------------------------------------------------
// Plants, dataloggers, devices.
// ------------------------------------------------------------------------------------------
interface BenchDevice {
  id: number;
  plant: number;
  pn: string;
  sn: string;
  /** kWh per clear day. */
  daily: number;
}
const devices: BenchDevice[] = [];
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < PLANTS; i++) {
    const plant = await insertPlant(trx, {
      owner_id: owners[i]!,
      name: `Bench plant ${String(i).padStart(4, '0')}`,
      now,
      tz_offset: TZ,
      unit_profit: 0.8,
      currency: 'CNY',
      lon: 100 + (i % 40) * 0.5,
      lat: 20 + Math.floor(i / 40) * 0.5,
      nominal_power: 10,
      install_at: now - DAYS * 86400_000,
    });
    const pn = `BENCH${String(i).padStart(9, '0')}`;
    const dl = await insertDatalogger(trx, {
      pn,
      now,
      owner_id: owners[i]!,
      admin_id: dealer.id,
      vendor_id: maker.id,
      project_id: plant,
      tz_offset: TZ,
    });
    const sn = `BSN${String(i).padStart(9, '0')}`;
    const id = await insertDevice(trx, {
      datalogger_id: dl,
      pn,
      devcode: 5121,
      devaddr: 1,
      sn,
      now,
      project_id: plant,
    });
    devices.push({ id, plant, pn, sn, daily: 30 + (i % 17) });
  }
});
const tSetup = performance.now();

// ------------------------------------------------------------------------------------------
// Data: counters consistent between rollups and raw samples.
// ------------------------------------------------------------------------------------------
const today = localDay(now, TZ);
const dayStart = (day0: number) => Math.floor((now + TZ * 1000) / 86400000) * 86400000 - TZ * 1000 - day0 * 86400000;
/** Sun fraction of a local time of day (0 at night, 1 at noon). */
const sun = (secOfDay: number) => Math.max(0, Math.sin(((secOfDay / 3600 - 6) / 12) * Math.PI));
/** Fraction of a clear day's energy produced by that time of day. */
const sunCum = (secOfDay: number) => {
  const h = secOfDay / 3600;
  if (h <= 6) return 0;
  if (h >= 18) return 1;
  return (1 - Math.cos(((h - 6) / 12) * Math.PI)) / 2;
};
const weather = (dev: number, d: number) => 0.55 + 0.45 * Math.abs(Math.sin(dev * 12.9898 + d * 78.233));

let rollupRows = 0;
let sampleRows = 0;
const tData0 = performance.now();
const BATCH_DEVICES = 50;
for (let b = 0; b < devices.length; b += BATCH_DEVICES) {
  await db.transaction().execute(async (trx) => {
    const rollups: DayRollupRow[] = [];
    for (const dev of devices.slice(b, b + BATCH_DEVICES)) {
      let counter = 1000;
      const rawSamples: Array<{ ts: number; values: Record<string, number> }> = [];
      let latest: { ts: number; values: Record<string, number> } | undefined;
      for (let d = DAYS - 1; d >= 0; d--) {
        const start = dayStart(d);
        const e = dev.daily * weather(dev.id, d);
        if (d < RAW_DAYS) {
          for (let t = 0; t < 86400 && start + t * 1000 <= now; t += INTERVAL) {
            const values = {
              pv_output_power: Math.round(((e / 6) * 1000 * sun(t) * Math.PI) / 2),
              sy_energy_total: Math.round((counter + e * sunCum(t)) * 10) / 10,
              gd_l1_voltage: 230 + (t % 7) / 10,
              gd_frequency: 50,
              sy_inner_temperature: 25 + 15 * sun(t),
              sy_status: sun(t) > 0 ? 1 : 0,
            };
            const s = { ts: start + t * 1000, values };
            rawSamples.push(s);
            latest = s;
          }
        } else {
          // Rollup only: the counter's min/max of the day.
          rollups.push({
            device_id: dev.id,
            day: localDay(start, TZ),
            samples: Math.floor(86400 / INTERVAL),
            gen_min: counter,
            gen_max: Math.round((counter + e) * 10) / 10,
            peak_power: (e / 6) * (Math.PI / 2),
            first_ts: start,
            last_ts: start + 86400_000 - INTERVAL * 1000,
          });
        }
        counter = Math.round((counter + e) * 10) / 10;
      }
      for (let i = 0; i < rawSamples.length; i += 1000) {
        await trx
          .insertInto('samples')
          .values(
            rawSamples
              .slice(i, i + 1000)
              .map((s) => ({ device_id: dev.id, ts: s.ts, data: encodeSample(DEVCODE_5121, s.values) })),
          )
          .execute();
      }
      sampleRows += rawSamples.length;
      rollups.push(...dayRollups(DEVCODE_5121, dev.id, rawSamples, TZ));
      if (latest) {
        await trx
          .insertInto('device_latest')
          .values({ device_id: dev.id, ts: latest.ts, data: encodeSample(DEVCODE_5121, latest.values) })
          .execute();
      }
    }
    for (let i = 0; i < rollups.length; i += 500)
      await trx
        .insertInto('device_days')
        .values(rollups.slice(i, i + 500))
        .execute();
    rollupRows += rollups.length;
  });
  if ((b / BATCH_DEVICES) % 4 === 3)
    process.stdout.write(`  ${Math.min(b + BATCH_DEVICES, devices.length)}/${devices.length} devices\r`);
}
const tData = performance.now();
await analyzeAfterBulkLoad(db, engine);
const genSeconds = (tData - tData0) / 1000;
console.log(
  `generated in ${((tData - t0) / 1000).toFixed(1)} s (accounts+plants ${((tSetup - t0) / 1000).toFixed(1)} s): ` +
    `${sampleRows.toLocaleString('en')} samples + ${rollupRows.toLocaleString('en')} day rollups in ${genSeconds.toFixed(1)} s ` +
    `(${Math.round(sampleRows / genSeconds).toLocaleString('en')} samples/s)`,
);
if (RAW_DAYS < DAYS) {
  console.log(
    `note: raw 5-min samples only for the last ${RAW_DAYS} days; day rollups for all ${DAYS} days (use --raw-days ${DAYS} for the full year)`,
  );
}

// ------------------------------------------------------------------------------------------
// Measurements over HTTP: the real server on loopback, by default in its own process
// (`tsx apps/server/src/main.ts` on the same database) so the client's work and GC stay apart.
// ------------------------------------------------------------------------------------------
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

let child: ChildProcess | undefined;
let baseUrl: string;
let stopServer: () => Promise<void>;
if (IN_PROCESS) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
  stopServer = () => app.close();
} else {
  await app.close();
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '..');
  child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(`${baseUrl}/public/?action=none`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server process did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const proc = child;
  stopServer = () =>
    new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
}
console.log(`server ${baseUrl} (${IN_PROCESS ? 'in this process' : `process ${child?.pid}`})`);

async function login(): Promise<AuthDat> {
  const salt = String(Date.now());
  const tail = `&action=authSource&usr=bench_maker&company-key=${encodeURIComponent(WEB_COMPANY_KEY)}&source=1`;
  const sign = signLogin(salt, sha1Hex(PASSWORD), tail);
  const res = (await (await fetch(`${baseUrl}/public/?sign=${sign}&salt=${salt}${tail}`)).json()) as Envelope<AuthDat>;
  if (res.err !== 0) throw new Error(`login failed: ${res.desc}`);
  return res.dat!;
}
const session = await login();

async function call(action: string, params: Record<string, string | number>): Promise<{ ms: number; err: number }> {
  const salt = String(Date.now());
  const tail =
    `&action=${action}` +
    Object.entries({ source: 1, ...params })
      .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('');
  const sign = signCall(salt, session.secret, session.token, tail);
  const t = performance.now();
  const res = await fetch(`${baseUrl}/public/?sign=${sign}&salt=${salt}&token=${session.token}${tail}`);
  const body = (await res.json()) as Envelope<unknown>;
  return { ms: performance.now() - t, err: body.err };
}

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const fmtDay = (d: number) =>
  `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;
const yesterday = localDay(now - 86400_000, TZ);
const month = fmtDay(today).slice(0, 7);
const year = fmtDay(today).slice(0, 4);
const tuple = (d: BenchDevice) => ({ pn: d.pn, devcode: 5121, devaddr: 1, sn: d.sn });

const cases: Array<{
  name: string;
  target: number;
  iterations?: number;
  params: () => [string, Record<string, string | number>];
}> = [
  {
    name: 'latest values (querySPDeviceLastData)',
    target: 10,
    params: () => ['querySPDeviceLastData', tuple(pick(devices))],
  },
  {
    name: 'day curve (queryDeviceChartFieldDetailData)',
    target: 50,
    params: () => [
      'queryDeviceChartFieldDetailData',
      {
        ...tuple(pick(devices)),
        field: 'pv_output_power',
        precision: 4,
        sdate: `${fmtDay(yesterday)} 00:00:00`,
        edate: `${fmtDay(yesterday)} 23:59:59`,
      },
    ],
  },
  {
    name: 'day curve (querySPDeviceKeyParameterOneDay)',
    target: 50,
    params: () => [
      'querySPDeviceKeyParameterOneDay',
      { ...tuple(pick(devices)), parameter: 'PV_OUTPUT_POWER', date: fmtDay(yesterday) },
    ],
  },
  {
    name: 'month energy (queryPlantEnergyMonthPerDay)',
    target: 50,
    params: () => ['queryPlantEnergyMonthPerDay', { plantid: pick(devices).plant, date: month }],
  },
  {
    name: 'year energy (queryPlantEnergyYearPerMonth)',
    target: 50,
    params: () => ['queryPlantEnergyYearPerMonth', { plantid: pick(devices).plant, date: year }],
  },
  {
    name: 'fleet list (webQueryPlants page 0)',
    target: 50,
    params: () => ['webQueryPlants', { page: 0, pagesize: 10 }],
  },
  {
    name: 'fleet list (webQueryDeviceEs page 0)',
    target: 50,
    params: () => ['webQueryDeviceEs', { page: 0, pagesize: 10 }],
  },
  { name: 'plant list (queryPlants page 0)', target: 50, params: () => ['queryPlants', { page: 0, pagesize: 10 }] },
  {
    name: 'fleet overview (webQueryFleetOverview)',
    target: 50,
    params: () => ['webQueryFleetOverview', {}],
  },
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
// Warm every action first (JIT, caches), then measure each in turn.
for (const c of cases) for (let i = 0; i < 10; i++) await call(...c.params());
const measureStart = Date.now();
const rows: string[][] = [];
for (const c of cases) {
  const n = c.iterations ?? ITER;
  for (let i = 0; i < Math.min(20, n); i++) await call(...c.params()); // warm-up
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < n; i++) {
    const r = await call(...c.params());
    times.push(r.ms);
    if (r.err !== 0) errors++;
  }
  times.sort((a, b) => a - b);
  const p99 = pct(times, 99);
  rows.push([
    c.name,
    String(n),
    pct(times, 50).toFixed(2),
    p99.toFixed(2),
    times.at(-1)!.toFixed(2),
    Number.isNaN(c.target) ? '–' : `≤ ${c.target}`,
    Number.isNaN(c.target) ? '' : p99 <= c.target ? 'ok' : 'OVER',
    String(errors),
  ]);
}

const header = ['action', 'n', 'p50 ms', 'p99 ms', 'max ms', 'aim p99', '', 'errors'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
console.log(
  `\n${engine}, ${PLANTS} plants, ${DAYS} days, interval ${INTERVAL} s, raw days ${RAW_DAYS}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
);
console.log(line(header));
console.log('|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
for (const r of rows) console.log(line(r));

await stopServer();

// Server-side time of the same calls, from the action log (whole dispatch, rounded to 1 ms).
const after = await buildApp(config);
const logged = await after.ctx.db
  .selectFrom('action_log')
  .select(['action', 'duration_ms'])
  .where('account_id', '=', maker.id)
  .where('ts', '>=', measureStart)
  .execute();
await after.close();
const byAction = new Map<string, number[]>();
for (const r of logged) {
  const list = byAction.get(r.action) ?? [];
  list.push(Number(r.duration_ms));
  byAction.set(r.action, list);
}
console.log('\nserver-side (action_log.duration_ms, whole dispatch incl. sign/token check):');
console.log('| action | n | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|');
for (const [action, list] of [...byAction.entries()].sort()) {
  list.sort((a, b) => a - b);
  console.log(`| ${action} | ${list.length} | ${pct(list, 50)} | ${pct(list, 99)} |`);
}
console.log(
  `load average during the run: ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')}`,
);
if (KEEP) console.log(`kept: ${env.DATABASE_URL ?? env.SQLITE_PATH}`);
else {
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
