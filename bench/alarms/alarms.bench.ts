/**
 * Alarm list benchmark (issue 11): 1,000 plants × 1 year of alarms, then the latency of the alarm
 * actions over HTTP (this process's server on loopback, signed calls) as a manufacturer who sees
 * every plant and as one plant owner.
 *
 *   npx tsx bench/alarms/alarms.bench.ts [--plants 1000] [--per-day 1] [--iterations 200]
 *                                        [--database-url postgres://…]
 *
 * Every plant gets 1 datalogger + 1 devcode-5121 inverter and `--per-day` alarms per day over 365
 * days (default 365,000 alarms), levels and codes spread over the inverter's fault table, 10 %
 * still ongoing, half processed. Written straight through SQL in big transactions. Prints p50 /
 * p99 per case; never fails on time.
 */
import type net from 'node:net';
import fs from 'node:fs';
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
import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/db.js';
import {
  analyzeAfterBulkLoad,
  createScratchPgDatabase,
  insertDatalogger,
  insertDevice,
  insertPlant,
} from '../../apps/server/test/factories/telemetry-rows.js';

function arg(name: string, fallback: number): number;
function arg(name: string, fallback: string | undefined): string | undefined;
function arg(name: string, fallback: number | string | undefined): number | string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const v = process.argv[i + 1]!;
  return typeof fallback === 'number' ? Number(v) : v;
}

const PLANTS = arg('plants', 1000);
const PER_DAY = arg('per-day', 1);
const ITER = arg('iterations', 200);
const DATABASE_URL = arg('database-url', undefined);
/** Name prefix of the scratch PostgreSQL database (a random suffix is added). */
const DB_PREFIX = arg('database-prefix', 'sunwatch_bench_alarms') ?? 'sunwatch_bench_alarms';
/** Keep the generated database (to EXPLAIN queries by hand); prints where it is. */
const KEEP = process.argv.includes('--keep');
const DAYS = 365;
const TZ = 3600;
const PASSWORD = 'Bench_2026';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-bench-alarms-'));
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  SQLITE_PATH: path.join(dataDir, 'bench.db'),
  DEMO_DATA: '0',
  MQTT_ENABLED: '0',
  JOBS_ENABLED: '0',
  LOG_LEVEL: 'silent',
};
let dropDatabase = async () => {};
if (DATABASE_URL) {
  const scratch = await createScratchPgDatabase(DATABASE_URL, DB_PREFIX);
  env.DATABASE_URL = scratch.url;
  dropDatabase = () => scratch.drop();
}
const app = await buildApp(loadConfig(env));
const ctx = app.ctx;
const db: Db = ctx.db;
const engine = ctx.dialect.engine;
console.log(`engine ${engine}; generating ${PLANTS} plants × ${DAYS} days × ${PER_DAY} alarms/day …`);

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
const owner0 = await ctx.services.accounts.create({
  usr: 'bench_owner',
  password: PASSWORD,
  role: ROLE.OWNER,
  parentId: dealer.id,
});
const now = Date.now();
const faults = DEVCODE_5121.faults;
interface BenchDevice {
  dl: number;
  id: number;
  pn: string;
  sn: string;
  plant: number;
}
const devices: BenchDevice[] = [];
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < PLANTS; i++) {
    // plant 0 belongs to bench_owner, the others to the dealer's subtree as well (one owner is enough
    // to measure an owner's list; the manufacturer sees all)
    const ownerId = i === 0 ? owner0.id : dealer.id;
    const plant = await insertPlant(trx, { owner_id: ownerId, name: `Bench plant ${i}`, now, tz_offset: TZ });
    const pn = `BENCH${String(i).padStart(9, '0')}`;
    const dl = await insertDatalogger(trx, {
      pn,
      now,
      owner_id: ownerId,
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
    devices.push({ dl, id, pn, sn, plant });
  }
});
let rows = 0;
const BATCH = 50;
for (let b = 0; b < devices.length; b += BATCH) {
  await db.transaction().execute(async (trx) => {
    const values = [];
    for (const d of devices.slice(b, b + BATCH)) {
      for (let day = 0; day < DAYS; day++)
        for (let k = 0; k < PER_DAY; k++) {
          const f = faults[(d.id * 7 + day * 3 + k) % faults.length]!;
          const started = now - day * 86_400_000 - ((d.id * 997 + k * 3_600_000) % 86_400_000);
          const ongoing = day === 0 && k === 0 && d.id % 10 === 0;
          values.push({
            datalogger_id: d.dl,
            device_id: d.id,
            level: f.level,
            code: f.code,
            description: f.description,
            started_at: started,
            ended_at: ongoing ? null : started + 600_000,
            handled: day % 2,
          });
        }
    }
    for (let i = 0; i < values.length; i += 500)
      await trx
        .insertInto('alarms')
        .values(values.slice(i, i + 500))
        .execute();
    rows += values.length;
  });
}
await analyzeAfterBulkLoad(db, engine);
// The bulk load updated each counter row of alarm_counts hundreds of times in a few seconds; a
// running server's autovacuum reclaims those versions as they come. Do it once here, and set the
// visibility map so counts can be index-only as they would be on a settled database.
if (engine === 'postgres') {
  await sql`vacuum analyze alarm_counts`.execute(db);
  await sql`vacuum analyze alarms`.execute(db);
}
console.log(`generated ${rows.toLocaleString('en')} alarms in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;

async function login(usr: string): Promise<AuthDat> {
  const salt = String(Date.now());
  const tail = `&action=authSource&usr=${usr}&company-key=${encodeURIComponent(WEB_COMPANY_KEY)}&source=1`;
  const sign = signLogin(salt, sha1Hex(PASSWORD), tail);
  const res = (await (await fetch(`${baseUrl}/public/?sign=${sign}&salt=${salt}${tail}`)).json()) as Envelope<AuthDat>;
  if (res.err !== 0) throw new Error(`login failed: ${res.desc}`);
  return res.dat!;
}
const sessions = { maker: await login('bench_maker'), owner: await login('bench_owner') };
let saltSeq = Date.now();
async function call(who: AuthDat, action: string, params: Record<string, string | number>) {
  const salt = String(saltSeq++);
  const tail =
    `&action=${action}` +
    Object.entries({ source: 1, i18n: 'de_DE', ...params })
      .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('');
  const sign = signCall(salt, who.secret, who.token, tail);
  const t = performance.now();
  const res = await fetch(`${baseUrl}/public/?sign=${sign}&salt=${salt}&token=${who.token}${tail}`);
  const body = (await res.json()) as Envelope<{ total?: number }>;
  return { ms: performance.now() - t, err: body.err, total: body.dat?.total };
}

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const cases: Array<{ name: string; who: AuthDat; params: () => [string, Record<string, string | number>] }> = [
  {
    name: 'fleet list, newest page (webQueryPlantsWarning)',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20 }],
  },
  {
    name: 'fleet list, page 50',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20, page: 50 }],
  },
  {
    name: 'fleet list, untreated faults',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20, level: '2', handle: 0 }],
  },
  {
    name: 'fleet list, ongoing',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20, state: 1 }],
  },
  {
    name: 'fleet list, last 7 days',
    who: sessions.maker,
    params: () => [
      'webQueryPlantsWarning',
      { pagesize: 20, sdate: utc(now - 7 * 86_400_000), edate: utc(now + 60_000) },
    ],
  },
  {
    name: 'fleet list, one plant',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20, plantid: pick(devices).plant }],
  },
  {
    name: 'fleet list, search by SN',
    who: sessions.maker,
    params: () => ['webQueryPlantsWarning', { pagesize: 20, sn: pick(devices).sn }],
  },
  { name: 'owner list (1 plant)', who: sessions.owner, params: () => ['webQueryPlantsWarning', { pagesize: 20 }] },
  {
    name: 'device alarms (queryDeviceWarning)',
    who: sessions.maker,
    params: () => {
      const d = pick(devices);
      return ['queryDeviceWarning', { pn: d.pn, devcode: 5121, devaddr: 1, sn: d.sn, pagesize: 20 }];
    },
  },
  { name: '7-day statistics, fleet', who: sessions.maker, params: () => ['webQueryWarningStatistic', { tz: TZ }] },
  { name: 'devices in alarm, fleet', who: sessions.maker, params: () => ['queryPlantsWarningDeviceCount', {}] },
];

const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const results: string[] = [];
const runCases = async (label: string) => {
  for (const c of cases) {
    const times: number[] = [];
    let total: number | undefined;
    for (let i = 0; i < Math.min(10, ITER); i++) await call(c.who, ...c.params()); // warm-up
    for (let i = 0; i < ITER; i++) {
      const r = await call(c.who, ...c.params());
      if (r.err !== 0 && r.err !== 264) throw new Error(`${c.name}: err ${r.err}`);
      times.push(r.ms);
      total = typeof r.total === 'number' ? r.total : undefined;
    }
    times.sort((a, b) => a - b);
    results.push(
      `| ${label}${c.name} | ${q(times, 50).toFixed(1)} | ${q(times, 99).toFixed(1)} | ${total === undefined ? '' : total.toLocaleString('en')} |`,
    );
  }
};
await runCases('');
// The same lists with a hiding rule of the manufacturer (level 1, a time slot): the rule becomes SQL.
// The slot wraps midnight and always holds the alarms' local time of day (they start within ~17
// minutes before `now`'s time of day), so the rule hides every error whenever the bench runs.
const localHour = Math.floor(((now + TZ * 1000) % 86_400_000) / 3_600_000);
const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
const rule = await call(sessions.maker, 'addWarningRule', {
  name: 'bench hide',
  level: '1',
  stime: hh(localHour + 2),
  etime: hh(localHour + 1),
  hide: 1,
});
if (rule.err !== 0) throw new Error(`addWarningRule: ${rule.err}`);
cases.splice(3);
await runCases('with a hiding rule: ');

console.log(`\n${engine}, ${rows.toLocaleString('en')} alarms, ${PLANTS} plants, ${ITER} calls per case\n`);
console.log('| case | p50 ms | p99 ms | total |\n| --- | --- | --- | --- |');
for (const r of results) console.log(r);
await app.close();
if (KEEP) console.log(`kept: ${env.DATABASE_URL ?? env.SQLITE_PATH}`);
else {
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
