import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql, type Selectable } from 'kysely';
import { FIRMWARE_UPGRADE_STATUS, UPGRADE_BATCH_STATE, UPGRADE_REQUEST_RESULT } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import { dataloggerScopeSql } from '../../access/access.repository.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { JOB_LEASE_MS, JobLease, lastAttempt, type LeasedQueue } from '../../db/job-lease.js';
import type { UpgradeBatchesTable } from '../../db/schema-firmware.js';
import { currentDb, type DbHandle } from '../../db/transaction.js';

/** Targets one page of a batch by filter materialises in one transaction (tests lower it through deps). */
export const BATCH_PAGE_SIZE = 500;
/**
 * How long one runner turn materialises a batch before it hands the runner over to the other job
 * kinds (report files, device exports) and claims the batch again on its next turn.
 */
export const BATCH_SLICE_MS = 5_000;
/** Rows per INSERT statement (SQLite's bound-parameter limit: 26 columns × 200 rows stays well below it). */
const INSERT_CHUNK = 200;

/** The filter a batch by filter was chosen with (`upgrade_batches.filter`, JSON). */
export interface BatchFilter {
  pn?: string;
  plantid?: number;
  status?: number;
  model?: string;
  version?: string;
}

export type BatchRow = Selectable<UpgradeBatchesTable>;

/** What one page did: targets handled, tasks created (started = online, waiting = offline), refusals. */
export interface BatchPageResult {
  handled: number;
  started: number;
  waiting: number;
  refused: Array<{ pn: string; sn: string; ret: number; err: number }>;
  /** No target is left after this page: the batch is ready. */
  done: boolean;
}

/** Thrown inside a page's transaction when the batch moved on without us (lease lost, another page committed first). */
class LostBatch extends Error {
  constructor() {
    super('upgrade batch page abandoned: the batch moved on');
  }
}

export interface UpgradeBatchJobDeps {
  db: Db;
  dbh: DbHandle;
  access: Pick<AccessService, 'scopeOf'>;
  /** The firmware check of the engine (352 when deleted, unsigned or mis-signed). */
  engine: { distributable(firmwareId: number): Promise<unknown> };
  /** The batch's creator as a caller (its scope is evaluated again by the job). */
  caller: (accountId: number) => Promise<Caller>;
  log: { error(obj: unknown, msg?: string): void };
  now: () => number;
  pageSize?: number;
}

/**
 * Fleet-sized batches by filter (issue 13, session 27; docs/firmware/batches.md). A batch row
 * records the filter, the firmware and its owner; its targets are materialised page by page, in
 * keyset order (datalogger PN, or device id), each page in one transaction that creates the
 * page's tasks (as the engine's deferred start does: phase 'transfer' online, 'waiting' offline,
 * no lease, so the engine's sweep drives them) and moves the batch's cursor with a compare-and-
 * set on the old cursor and the lease. Two runners can therefore never materialise a page twice:
 * the second commit finds the cursor moved and rolls its page back. The first page runs inside the
 * action; the rest is a durable job of the background runner (db/job-lease.ts), taken over by
 * another instance when its runner stops renewing the lease. Never more than one page in memory.
 */
export class UpgradeBatchJobs implements LeasedQueue {
  onQueued: () => void = () => undefined;
  private readonly lease: JobLease;

  constructor(private readonly deps: UpgradeBatchJobDeps) {
    this.lease = new JobLease(deps.db, deps.now, 'upgrade_batches', {
      column: 'state',
      waiting: [UPGRADE_BATCH_STATE.materialising],
      running: UPGRADE_BATCH_STATE.materialising,
    });
  }

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  get pageSize(): number {
    return this.deps.pageSize ?? BATCH_PAGE_SIZE;
  }

  /** The datalogger filter of a batch over the caller's scope (the same predicate as checkAccess). */
  private dataloggers(scope: Awaited<ReturnType<AccessService['scopeOf']>>, vendorId: number, f: BatchFilter) {
    let q = this.db
      .selectFrom('dataloggers as d')
      .where('d.vendor_id', '=', vendorId)
      .where(dataloggerScopeSql(scope, 'd'));
    if (f.plantid !== undefined) q = q.where('d.project_id', '=', f.plantid);
    if (f.status !== undefined) q = q.where('d.status', '=', f.status);
    if (f.model) q = q.where('d.model', '=', f.model);
    if (f.version) q = q.where('d.firmware', '=', f.version);
    return q;
  }

  /** How many targets the filter matches now (datalogger batches: dataloggers; device batches: their devices of `devcode`). */
  async count(
    scope: Awaited<ReturnType<AccessService['scopeOf']>>,
    vendorId: number,
    f: BatchFilter,
    target: number,
    devcode: number | null,
  ): Promise<number> {
    const q =
      target === 0
        ? this.dataloggers(scope, vendorId, f)
        : this.dataloggers(scope, vendorId, f)
            .innerJoin('devices as v', 'v.pn', 'd.pn')
            .where('v.devcode', '=', devcode ?? -1);
    return Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  }

  /**
   * Materialises the next page of `batchId` in one transaction (joining the caller's, for the
   * action's first page): the tasks, then the batch's counts and cursor. `owner`: the runner
   * holding the lease (null for the action's own page). Throws LostBatch when the batch moved on.
   */
  async page(
    batchId: number,
    scope: Awaited<ReturnType<AccessService['scopeOf']>>,
    owner: string | null,
  ): Promise<BatchPageResult> {
    return this.deps.dbh.transaction(async () => {
      const db = this.db;
      const b = await db.selectFrom('upgrade_batches').selectAll().where('id', '=', batchId).executeTakeFirst();
      if (!b || b.state !== UPGRADE_BATCH_STATE.materialising) throw new LostBatch();
      if (owner !== null && b.lease_owner !== owner) throw new LostBatch();
      const fw = await db
        .selectFrom('firmwares')
        .select(['id', 'vendor_id', 'size', 'version', 'type', 'baud_rate'])
        .where('id', '=', b.firmware_id)
        .executeTakeFirstOrThrow();
      const filter = JSON.parse(b.filter || '{}') as BatchFilter;
      const size = this.pageSize;
      type Target = {
        pn: string;
        online: boolean;
        from: string;
        dev?: { id: number; devcode: number; devaddr: number; sn: string };
      };
      const targets: Target[] = [];
      if (Number(b.target) === 0) {
        let q = this.dataloggers(scope, Number(fw.vendor_id), filter).select(['d.pn', 'd.status', 'd.firmware']);
        if (b.cursor !== '') q = q.where('d.pn', '>', b.cursor);
        for (const r of await q.orderBy('d.pn').limit(size).execute())
          targets.push({ pn: r.pn, online: Number(r.status) === 0, from: r.firmware });
      } else {
        let q = this.dataloggers(scope, Number(fw.vendor_id), filter)
          .innerJoin('devices as v', 'v.pn', 'd.pn')
          .where('v.devcode', '=', b.devcode ?? -1)
          .select(['v.id', 'v.pn', 'v.devcode', 'v.devaddr', 'v.sn', 'v.firmware', 'd.status']);
        if (b.cursor !== '') q = q.where('v.id', '>', Number(b.cursor));
        for (const r of await q.orderBy('v.id').limit(size).execute())
          targets.push({
            pn: r.pn,
            online: Number(r.status) === 0,
            from: r.firmware,
            dev: { id: Number(r.id), devcode: Number(r.devcode), devaddr: Number(r.devaddr), sn: r.sn },
          });
      }
      const now = this.deps.now();
      const keyOf = new Map<string, Target>();
      const rows = targets.map((t) => {
        const key = randomBytes(12).toString('hex');
        keyOf.set(key, t);
        return {
          key,
          pn: t.pn,
          target: t.dev ? 1 : 0,
          devcode: t.dev ? t.dev.devcode : null,
          devaddr: t.dev ? t.dev.devaddr : null,
          sn: t.dev ? t.dev.sn : null,
          firmware_id: Number(fw.id),
          fw_type: Number(b.fw_type),
          baud_rate: b.baud_rate ?? (fw.baud_rate === null ? null : Number(fw.baud_rate)),
          status: FIRMWARE_UPGRADE_STATUS.running,
          phase: t.online ? 'transfer' : 'waiting',
          progress: 0,
          sent_bytes: 0,
          size: Number(fw.size),
          from_version: t.from,
          to_version: fw.version,
          error: '',
          attempts: 0,
          batch_id: batchId,
          strategy_id: null,
          account_id: Number(b.account_id),
          usr: b.usr,
          created_at: now,
          updated_at: now,
          ended_at: null,
          lease_owner: '',
          lease_until: 0,
        };
      });
      const out: BatchPageResult = {
        handled: targets.length,
        started: 0,
        waiting: 0,
        refused: [],
        done: targets.length < size,
      };
      const created = new Set<string>();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const ins = await db
          .insertInto('upgrade_tasks')
          .values(rows.slice(i, i + INSERT_CHUNK))
          // one running task per datalogger (migration 0023): a datalogger already upgrading is refused
          .onConflict((oc) => oc.column('pn').where('ended_at', 'is', null).doNothing())
          .returning(['key', 'phase'])
          .execute();
        for (const r of ins) {
          created.add(r.key);
          if (r.phase === 'waiting') out.waiting += 1;
          else out.started += 1;
        }
      }
      for (const r of rows)
        if (!created.has(r.key))
          out.refused.push({ pn: r.pn, sn: r.sn ?? '', ret: UPGRADE_REQUEST_RESULT.alreadyUpgrading, err: 0 });
      const last = targets.at(-1);
      const cursor = last ? (last.dev ? String(last.dev.id) : last.pn) : b.cursor;
      const materialised = Number(b.materialised) + targets.length;
      const total = out.done ? materialised : Math.max(Number(b.total), materialised);
      let upd = db
        .updateTable('upgrade_batches')
        .set({
          cursor,
          materialised,
          refused: Number(b.refused) + out.refused.length,
          total,
          progress: out.done ? 100 : Math.min(99, Math.floor((materialised * 100) / Math.max(1, total))),
          // attempts count the runs that failed in a row: a page that commits clears them
          attempts: owner !== null ? 1 : 0,
          ...(out.done
            ? { state: UPGRADE_BATCH_STATE.ready, finished_at: now, lease_until: 0 }
            : owner !== null
              ? { lease_until: now + JOB_LEASE_MS }
              : {}),
        })
        .where('id', '=', batchId)
        .where('state', '=', UPGRADE_BATCH_STATE.materialising)
        .where('cursor', '=', b.cursor);
      if (owner !== null) upd = upd.where('lease_owner', '=', owner);
      const res = await upd.executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new LostBatch();
      return out;
    });
  }

  /** Claims the oldest batch with pages left whose lease is free or expired (db/job-lease.ts). */
  claim(owner: string): Promise<number | undefined> {
    return this.lease.claim(owner);
  }

  /** The runner's step: claims one batch with pages left (or whose runner stopped renewing) and materialises it. */
  async next(owner: string): Promise<boolean> {
    const id = await this.claim(owner);
    if (id === undefined) return false;
    await this.run(id, owner);
    return true;
  }

  /**
   * Materialises a claimed batch to its end, page by page, as its creator (scope and firmware
   * checked again). After `sliceMs` (BATCH_SLICE_MS) it releases the lease and returns, so the
   * runner serves its other job kinds (report files, exports) before claiming the batch again;
   * `maxPages` stops early with the lease held (tests: an instance that dies).
   * A refusal (the account gone, the firmware no longer distributable) fails the batch at once;
   * another error requeues it until JOB_MAX_ATTEMPTS.
   */
  async run(id: number, owner: string, opts: { maxPages?: number; sliceMs?: number } = {}): Promise<void> {
    const until = performance.now() + (opts.sliceMs ?? BATCH_SLICE_MS);
    const b = await this.deps.db
      .selectFrom('upgrade_batches')
      .select(['account_id', 'firmware_id', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!b) return;
    try {
      const caller = await this.deps.caller(Number(b.account_id));
      await this.deps.engine.distributable(Number(b.firmware_id));
      const scope = await this.deps.access.scopeOf(caller);
      for (let pages = 0; opts.maxPages === undefined || pages < opts.maxPages; pages++) {
        if ((await this.page(id, scope, owner)).done) return;
        if (opts.maxPages === undefined && performance.now() > until) {
          // The slice is over: the batch waits for the runner's next turn (lease free at once).
          await this.deps.db
            .updateTable('upgrade_batches')
            .set({ lease_until: 0 })
            .where('id', '=', id)
            .where('lease_owner', '=', owner)
            .where('state', '=', UPGRADE_BATCH_STATE.materialising)
            .execute();
          return;
        }
      }
    } catch (e) {
      if (e instanceof LostBatch) return;
      this.deps.log.error({ err: e, batch: id }, 'upgrade batch materialisation failed');
      const message = e instanceof Error ? e.message : String(e);
      const code = (e as { code?: unknown }).code;
      await this.deps.db
        .updateTable('upgrade_batches')
        .set(
          lastAttempt(Number(b.attempts), e)
            ? {
                state: UPGRADE_BATCH_STATE.failed,
                error: (typeof code === 'number' ? `err ${code}` : message).slice(0, 500),
                finished_at: this.deps.now(),
                lease_until: 0,
              }
            : { error: message.slice(0, 500), lease_until: 0 },
        )
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('state', '=', UPGRADE_BATCH_STATE.materialising)
        .execute();
    }
  }

  /** Raw SQL helper for tests and the bench: how many tasks of a batch exist per target key. */
  async duplicates(batchId: number): Promise<number> {
    const r = await sql<{ n: number }>`select count(*) as n from (
        select pn, coalesce(sn, '') as s from upgrade_tasks where batch_id = ${batchId}
        group by pn, coalesce(sn, '') having count(*) > 1) x`.execute(this.deps.db);
    return Number(r.rows[0]?.n ?? 0);
  }
}
