import type { AuthDat, UpgradeBatchDat, UpgradeBatchProgressDat, UpgradeableRow } from '@sunwatch/protocol';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LEASE_MS } from '../../src/db/job-lease.js';
import { jobCaller } from '../../src/modules/accounts/job-caller.js';
import { ReportRunner } from '../../src/modules/reports/report-runner.js';
import { UpgradesService } from '../../src/modules/upgrades/upgrades.service.js';
import type { UpgradeEngineService } from '../../src/modules/upgrades/upgrade-engine.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { idOf, prepare } from '../distribution/helpers.js';

/**
 * Issue 13, session 27: fleet-sized batches by filter and a bounded queryUpgradeableFirmware.
 * A batch by filter over many pages (page size lowered through deps) is recorded at once, its
 * first page created by the action, the rest by the background job; the job is interrupted (its
 * runner dies holding the lease) and taken over by a second runner once the lease expires, and
 * every target ends with exactly one task; another distributor's dataloggers never join. On
 * SQLite and PostgreSQL; the engine is a recorder for the firmware check (the transfers are
 * upgrade-engine.test.ts's).
 */

type Deps = ConstructorParameters<typeof UpgradesService>[0];
const PAGE = 4;
const CLONES = 23;

/** Counts the statements a Kysely instance runs. */
class CountQueries implements KyselyPlugin {
  n = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.n += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

describe.each(engines)('fleet-sized upgrade batches ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let svc: UpgradesService;
  let fwCode = '';
  let fwId = 0;
  let northPns: string[] = [];
  let southPns: string[] = [];
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  /** Clones `pn` as `n` new dataloggers (same owner, distributor, manufacturer), offline. */
  const clone = async (pn: string, prefix: string, n: number) => {
    const src = await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', pn).executeTakeFirstOrThrow();
    const { id: _id, ...rest } = src;
    void _id;
    for (let i = 0; i < n; i++)
      await s.ctx.db
        .insertInto('dataloggers')
        .values({ ...rest, pn: `${prefix}${String(i).padStart(4, '0')}`, status: 1, model: 'FLEET-X' })
        .execute();
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    sessions = await prepare(s);
    // The runner of this instance stays still: the test drives the job's runners itself.
    await s.ctx.services.reports.runner.stop();
    const maker = await idOf(s, 'sunmaker');
    fwCode = '7a7a7a7a7a7a0027';
    fwId = Number(
      (
        await s.ctx.db
          .insertInto('firmwares')
          .values({
            code: fwCode,
            vendor_id: maker,
            name: 'fw-fleet',
            version: '27.0.0',
            type: 0,
            baud_rate: 9600,
            file_name: 'fw.bin',
            size: 1024,
            sha256: '0'.repeat(64),
            blob_key: `test/${fwCode}`,
            created_at: s.ctx.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const real = s.ctx.services.upgrades as unknown as { deps: Deps };
    const engineStub = { distributable: () => Promise.resolve() } as unknown as UpgradeEngineService;
    svc = new UpgradesService({ ...real.deps, engine: engineStub, batchPageSize: PAGE });
    (s.ctx.services as { upgrades: UpgradesService }).upgrades = svc;
    // Fleets of two distributors of the same manufacturer, model FLEET-X.
    const dls = await s.ctx.db
      .selectFrom('dataloggers as d')
      .innerJoin('accounts as a', 'a.id', 'd.admin_id')
      .select(['d.pn', 'a.usr'])
      .where('d.vendor_id', '=', maker)
      .execute();
    const north = dls.find((d) => d.usr === 'dealer_north')!.pn;
    const south = dls.find((d) => d.usr === 'dealer_south')!.pn;
    await clone(north, 'FLN', CLONES);
    await clone(south, 'FLS', CLONES);
    const fleet = async (prefix: string) =>
      (
        await s.ctx.db.selectFrom('dataloggers').select('pn').where('pn', 'like', `${prefix}%`).orderBy('pn').execute()
      ).map((r) => r.pn);
    northPns = await fleet('FLN');
    southPns = await fleet('FLS');
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a batch by filter over many pages: recorded at once, materialised exactly once across an interrupted job and a takeover', async () => {
    const r = await call<UpgradeBatchDat>('dealer_north', 'firmwareUpgradeBatch', {
      firmware: fwCode,
      model: 'FLEET-X',
    });
    expect(r.err).toBe(0);
    const batch = r.dat!.batch;
    // The answer: the whole count, the first page only, the rest left to the job.
    expect(r.dat!).toMatchObject({
      total: CLONES,
      materialised: PAGE,
      waiting: PAGE,
      started: 0,
      state: 'materialising',
    });
    const progress = async (usr = 'dealer_north') =>
      (await call<UpgradeBatchProgressDat>(usr, 'queryFirmwareUpgradeBatch', { batch })).dat!;
    expect(await progress()).toMatchObject({
      state: 'materialising',
      total: CLONES,
      materialised: PAGE,
      waiting: PAGE,
    });
    // Another distributor does not see the batch (12, as for a missing one).
    expect((await call('dealer_south', 'queryFirmwareUpgradeBatch', { batch })).err).toBe(12);

    // Runner A claims it, materialises two pages, then dies holding its lease.
    const jobs = svc.batches;
    expect(await jobs.claim('runner-a')).toBe(batch);
    await jobs.run(batch, 'runner-a', { maxPages: 2 });
    expect((await progress()).materialised).toBe(3 * PAGE);
    // While A's lease runs, nobody else may take the batch.
    expect(await jobs.claim('runner-b')).toBeUndefined();
    s.clock.advance(JOB_LEASE_MS + 1);
    // A second runner takes it over once the lease expired and finishes it.
    const runnerB = new ReportRunner(() => [jobs], { error: () => undefined });
    runnerB.start();
    await runnerB.stop();
    expect((await progress()).state).toBe('ready');
    // The stale runner A wakes up: its pages are refused (the batch moved on), nothing is added.
    await jobs.run(batch, 'runner-a', { maxPages: 1 });
    const done = await progress();
    expect(done).toMatchObject({
      state: 'ready',
      total: CLONES,
      materialised: CLONES,
      refused: 0,
      waiting: CLONES,
      error: '',
    });
    const tasks = await s.ctx.db.selectFrom('upgrade_tasks').select('pn').where('batch_id', '=', batch).execute();
    expect(tasks.map((t) => t.pn).sort()).toEqual(northPns);
    expect(await jobs.duplicates(batch)).toBe(0);
    expect(tasks.some((t) => southPns.includes(t.pn))).toBe(false);
    // The operator sees every batch.
    expect((await progress('operator')).materialised).toBe(CLONES);

    // A second batch over the same fleet: every datalogger is upgrading already, all refused.
    const again = await call<UpgradeBatchDat>('dealer_north', 'firmwareUpgradeBatch', {
      firmware: fwCode,
      model: 'FLEET-X',
    });
    expect(again.err).toBe(0);
    expect(again.dat!.refused).toHaveLength(PAGE);
    const runnerC = new ReportRunner(() => [jobs], { error: () => undefined });
    runnerC.start();
    await runnerC.stop();
    const p2 = (
      await call<UpgradeBatchProgressDat>('dealer_north', 'queryFirmwareUpgradeBatch', { batch: again.dat!.batch })
    ).dat!;
    expect(p2).toMatchObject({ state: 'ready', materialised: CLONES, refused: CLONES, waiting: 0 });
  });

  it('two runners materialising the same batch at the same moment: never a target twice', async () => {
    // The earlier batches' tasks end, so the fleet may be upgraded again.
    await s.ctx.db
      .updateTable('upgrade_tasks')
      .set({ ended_at: s.ctx.now(), status: 4, phase: 'done' })
      .where('pn', 'in', northPns)
      .execute();
    const r = await call<UpgradeBatchDat>('dealer_north', 'firmwareUpgradeBatch', {
      firmware: fwCode,
      model: 'FLEET-X',
    });
    expect(r.err).toBe(0);
    const batch = r.dat!.batch;
    const jobs = svc.batches;
    s.clock.advance(JOB_LEASE_MS + 1);
    expect(await jobs.claim('runner-x')).toBe(batch);
    // Two page loops of the same lease holder at once (as two instances racing on one lease would):
    // each page commits only if the cursor it started from is still the batch's.
    await Promise.all([jobs.run(batch, 'runner-x', { maxPages: 1 }), jobs.run(batch, 'runner-x', { maxPages: 1 })]);
    const mid = await s.ctx.db
      .selectFrom('upgrade_batches')
      .selectAll()
      .where('id', '=', batch)
      .executeTakeFirstOrThrow();
    const count = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('upgrade_tasks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('batch_id', '=', batch)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(Number(mid.materialised)).toBeGreaterThan(PAGE);
    expect((await count()) + Number(mid.refused)).toBe(Number(mid.materialised));
    expect(await jobs.duplicates(batch)).toBe(0);
    // A turn ends after its time slice: one page, the lease handed back at once (no expiry wait).
    const before = Number(mid.materialised);
    await jobs.run(batch, 'runner-x', { sliceMs: 0 });
    const sliced = await s.ctx.db
      .selectFrom('upgrade_batches')
      .selectAll()
      .where('id', '=', batch)
      .executeTakeFirstOrThrow();
    expect([sliced.state, Number(sliced.materialised), Number(sliced.lease_until)]).toEqual([
      'materialising',
      before + PAGE,
      0,
    ]);
    expect(await jobs.claim('runner-y')).toBe(batch);
    await jobs.run(batch, 'runner-y');
    const end = await s.ctx.db
      .selectFrom('upgrade_batches')
      .selectAll()
      .where('id', '=', batch)
      .executeTakeFirstOrThrow();
    expect([end.state, Number(end.materialised), Number(end.refused), await count()]).toEqual([
      'ready',
      CLONES,
      0,
      CLONES,
    ]);
    expect(await jobs.duplicates(batch)).toBe(0);
  });

  it('queryUpgradeableFirmware: a page costs the same number of queries whatever its size, and pages cover the fleet once', async () => {
    const maker = await idOf(s, 'sunmaker');
    await s.ctx.db
      .insertInto('default_firmwares')
      .values({
        vendor_id: maker,
        datalogger_type: 'FLEET-T',
        firmware_id: fwId,
        updated_by: maker,
        updated_at: s.ctx.now(),
      })
      .execute();
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ type_code: 'FLEET-T' })
      .where('pn', 'in', northPns.slice(0, 10))
      .execute();
    const caller = await jobCaller(
      s.ctx.repos.accounts,
      (a) => s.ctx.services.access.roleFunctions(a),
      await idOf(s, 'dealer_north'),
    );
    const counted = async (pagesize: number, page = 0) => {
      const counter = new CountQueries();
      const real = s.ctx.services.upgrades as unknown as { deps: Deps };
      const local = new UpgradesService({ ...real.deps, db: s.ctx.db.withPlugin(counter) });
      const r = await local.upgradeable(caller, { page, pagesize } as never);
      return { n: counter.n, r };
    };
    const small = await counted(3);
    const large = await counted(40);
    expect(large.r.item.length).toBeGreaterThan(small.r.item.length * 5);
    expect(large.n).toBe(small.n);
    expect(large.n).toBeLessThanOrEqual(6);
    // Paging through with a small page gives the large page's rows, in order, each once.
    const seen: UpgradeableRow[] = [];
    for (let page = 0; page < 30; page++) {
      const { r } = await counted(3, page);
      seen.push(...r.item);
      if (r.item.length < 3) break;
    }
    expect(seen.map((x) => x.pn)).toEqual(large.r.item.map((x) => x.pn));
    expect(seen.length).toBe(large.r.total);
    // The default-firmware offer and the batch's waiting task, as the per-row queries gave them.
    const fln = seen.filter((x) => northPns.slice(0, 10).includes(x.pn));
    expect(fln).toHaveLength(10);
    expect(fln.every((x) => x.offer?.firmware.code === fwCode && x.offer.from === 'default')).toBe(true);
    expect(fln.every((x) => x.task !== null && x.task.status === 0)).toBe(true);
    expect(seen.filter((x) => southPns.includes(x.pn))).toHaveLength(0);
  });
});
