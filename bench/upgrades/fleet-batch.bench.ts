/**
 * Fleet upgrade benchmark (issue 13, session 27): a manufacturer with `--dataloggers` (default
 * 100,000) dataloggers, then
 * - a firmware batch by filter over the whole fleet: the action's answer (batch recorded, first
 *   page created) and the background job materialising every other target, page by page
 *   (targets per second);
 * - the latency of one `queryUpgradeableFirmware` page (first and a deep page), and of
 *   `queryFirmwareUpgradeBatch` over the batch's tasks.
 *
 *   npx tsx bench/upgrades/fleet-batch.bench.ts [--dataloggers 100000] [--page 500] [--iterations 30]
 *                                               [--database-url postgres://…]
 *
 * In process (the services, no HTTP), SQLite in a temp dir unless `--database-url`. The
 * background runner and the engine's sweep are stopped so that the job is timed alone; the
 * firmware's signature check is the engine's and is replaced by a no-op (the batch checks it once
 * per run, not per target). Ends with a check: one task per datalogger, no duplicates. Prints
 * figures; never fails on time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROLE } from '@sunwatch/protocol';
import { buildApp, loadConfig } from '@sunwatch/server';
import type { Db } from '../../apps/server/src/db/db.js';
import { UpgradesService } from '../../apps/server/src/modules/upgrades/upgrades.service.js';
import type { UpgradeEngineService } from '../../apps/server/src/modules/upgrades/upgrade-engine.js';
import { jobCaller } from '../../apps/server/src/modules/accounts/job-caller.js';
import { analyzeAfterBulkLoad, createScratchPgDatabase } from '../../apps/server/test/factories/telemetry-rows.js';

function arg(name: string, fallback: number): number;
function arg(name: string, fallback: string | undefined): string | undefined;
function arg(name: string, fallback: number | string | undefined): number | string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || i + 1 >= process.argv.length) return fallback;
  const v = process.argv[i + 1]!;
  return typeof fallback === 'number' ? Number(v) : v;
}

const N = arg('dataloggers', 100_000);
const PAGE = arg('page', 500);
const ITER = arg('iterations', 30);
const DATABASE_URL = arg('database-url', undefined);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-bench-upg-'));
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
  const scratch = await createScratchPgDatabase(DATABASE_URL, 'sunwatch_bench_upg');
  env.DATABASE_URL = scratch.url;
  dropDatabase = () => scratch.drop();
}
const app = await buildApp(loadConfig(env));
const ctx = app.ctx;
const db: Db = ctx.db;
const engine = ctx.dialect.engine;
// The job is timed alone: no runner picking it up, no sweep driving the tasks.
await ctx.services.reports.runner.stop();
await ctx.services.upgradeEngine.stop();

const ms = (t: number) => `${t.toFixed(1)} ms`;
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

console.log(`engine ${engine}; generating ${N.toLocaleString('en')} dataloggers …`);
let t0 = performance.now();
const maker = await ctx.services.accounts.create({
  usr: 'bench_maker',
  password: 'Bench_2026',
  role: ROLE.MANUFACTURER,
  vendorCode: 'BU',
});
const dealer = await ctx.services.accounts.create({
  usr: 'bench_dealer',
  password: 'Bench_2026',
  role: ROLE.DISTRIBUTOR,
  parentId: maker.id,
});
const now = Date.now();
for (let b = 0; b < N; b += 5000) {
  await db.transaction().execute(async (trx) => {
    const rows = [];
    for (let i = b; i < Math.min(N, b + 5000); i++)
      rows.push({
        pn: `UPG${String(i).padStart(9, '0')}`,
        alias: `UPG ${i}`,
        type_code: i % 2 === 0 ? 'BENCH-A' : 'BENCH-B',
        model: 'SW-DL1',
        comm_method: 'wifi',
        comm_address: '',
        devcode: null,
        online_domain: '',
        // offline: the batch's tasks wait (the sweep is stopped anyway)
        status: 1,
        active: 1,
        firmware: '1.0.0',
        signal: 80,
        load_count: 1,
        comm_balance: 0,
        owner_id: dealer.id,
        admin_id: dealer.id,
        vendor_id: maker.id,
        project_id: null,
        tz_offset: 0,
        collect_interval: 300,
        heartbeat_interval: 60,
        storage_days: 30,
        poll_start: 0,
        poll_end: 0,
        min_addr: 1,
        max_addr: 8,
        transparent: 0,
        protocol_set: '',
        country: '',
        province: '',
        city: '',
        county: '',
        district: '',
        address: '',
        lon: null,
        lat: null,
        device_token_hash: null,
        last_seen_at: now,
        ccid: '',
        card_status: 4,
        card_expire_at: null,
        gprs_traffic: 0,
        bad_frames: 0,
        created_at: now,
        updated_at: now,
      });
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('dataloggers')
        .values(rows.slice(i, i + 500) as never)
        .execute();
  });
}
const fw = await db
  .insertInto('firmwares')
  .values({
    code: 'b0b0b0b0b0b00001',
    vendor_id: maker.id,
    name: 'bench',
    version: '2.0.0',
    type: 0,
    baud_rate: null,
    file_name: 'fw.bin',
    size: 65536,
    sha256: '0'.repeat(64),
    blob_key: 'bench/fw',
    created_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('default_firmwares')
  .values({
    vendor_id: maker.id,
    datalogger_type: 'BENCH-A',
    firmware_id: Number(fw.id),
    updated_by: maker.id,
    updated_at: now,
  })
  .execute();
await analyzeAfterBulkLoad(db, engine);
console.log(`generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const real = ctx.services.upgrades as unknown as { deps: ConstructorParameters<typeof UpgradesService>[0] };
const svc = new UpgradesService({
  ...real.deps,
  engine: { distributable: () => Promise.resolve() } as unknown as UpgradeEngineService,
  batchPageSize: PAGE,
});
const caller = await jobCaller(ctx.repos.accounts, (a) => ctx.services.access.roleFunctions(a), maker.id);

// queryUpgradeableFirmware before the batch (no tasks) and the first / a deep page.
const timeIt = async (fn: () => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < ITER; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return `p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}`;
};
const deep = Math.floor(N / 20 / 2);
console.log(
  `queryUpgradeableFirmware page 0 (20 rows):          ${await timeIt(() => svc.upgradeable(caller, { page: 0, pagesize: 20 } as never))}`,
);
console.log(
  `queryUpgradeableFirmware page 0 (100 rows):         ${await timeIt(() => svc.upgradeable(caller, { page: 0, pagesize: 100 } as never))}`,
);
console.log(
  `queryUpgradeableFirmware page ${deep} (20 rows, mid-fleet): ${await timeIt(() => svc.upgradeable(caller, { page: deep, pagesize: 20 } as never))}`,
);

// The batch by filter over the whole fleet.
t0 = performance.now();
const answer = await ctx.dbh.transaction(() => svc.batch(caller, { firmware: 'b0b0b0b0b0b00001' } as never));
const tAnswer = performance.now() - t0;
console.log(
  `firmwareUpgradeBatch answer: ${ms(tAnswer)} (batch ${answer.batch}, total ${answer.total}, materialised ${answer.materialised}, state ${answer.state})`,
);
t0 = performance.now();
const id = answer.batch;
let turns = 0;
// The job hands the runner back every BATCH_SLICE_MS; claim it again until it is done.
for (
  let claimed = await svc.batches.claim('bench');
  claimed !== undefined;
  claimed = await svc.batches.claim('bench')
) {
  if (claimed !== id) throw new Error(`claimed ${claimed}, expected ${id}`);
  await svc.batches.run(claimed, 'bench');
  turns++;
}
const tJob = (performance.now() - t0) / 1000;
const rest = N - (answer.materialised ?? 0);
console.log(
  `materialisation job: ${rest.toLocaleString('en')} targets in ${tJob.toFixed(1)} s = ${Math.round(rest / tJob).toLocaleString('en')} targets/s (page ${PAGE}, ${turns} runner turns)`,
);
const progress = await svc.batchProgress(caller, { batch: id } as never);
console.log(`queryFirmwareUpgradeBatch: ${await timeIt(() => svc.batchProgress(caller, { batch: id } as never))}`);
console.log(
  `queryUpgradeableFirmware page 0 (20 rows, with tasks): ${await timeIt(() => svc.upgradeable(caller, { page: 0, pagesize: 20 } as never))}`,
);
console.log(
  `queryUpgradeableFirmware page ${deep} (20 rows, with tasks): ${await timeIt(() => svc.upgradeable(caller, { page: deep, pagesize: 20 } as never))}`,
);

// Check: one task per datalogger, nothing twice.
const tasks = Number(
  (
    await db
      .selectFrom('upgrade_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('batch_id', '=', id)
      .executeTakeFirstOrThrow()
  ).n,
);
const dup = await svc.batches.duplicates(id);
console.log(
  `check: state ${progress.state}, materialised ${progress.materialised}, tasks ${tasks}, duplicates ${dup}, waiting ${progress.waiting}`,
);
if (tasks !== N || dup !== 0 || progress.state !== 'ready') console.log('CHECK FAILED');

await app.close();
await dropDatabase();
fs.rmSync(dataDir, { recursive: true, force: true });
