import { sql } from 'kysely';
import type { Db } from './db.js';
import type { Engine } from './dialect.js';

/**
 * Retention of the raw samples (issue 16). Day rollups (`device_days`) and the latest values are
 * never touched here.
 *
 * - SQLite: `samples` is one plain table; rows older than the cut-off go in bounded DELETEs, one
 *   device at a time along the primary key (device_id, ts), yielding to the event loop between
 *   statements so ingestion (same connection) interleaves. No extra index on `ts` is needed: the
 *   next device is found with a loose index scan (`device_id > ? order by device_id limit 1`).
 * - PostgreSQL: `samples` is partitioned by month on `ts` (migration 0044): `samples_pYYYYMM`
 *   holds [first ms of the month, first ms of the next) in UTC, `samples_default` catches any
 *   other time (a datalogger with a wrong clock, a month not created yet). A month goes whole
 *   (DETACH + DROP, no row deletes) once its END is at or before the cut-off, so samples stay
 *   between the retention and the retention plus one month. The default partition is thinned by
 *   the same bounded deletes as SQLite. Months are created ahead by `ensurePartitions`.
 *
 * DDL runs with a short `lock_timeout`: it never queues behind a long query (which would make every
 * insert queue behind it); a month that cannot be locked now is done at the next run.
 */

export const SAMPLES_DEFAULT_PARTITION = 'samples_default';
const PARTITION_RE = /^samples_p(\d{4})(\d{2})$/;

/** First epoch ms of the UTC month that holds `ms`, moved by `add` months. */
export function monthStart(ms: number, add = 0): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1);
}

/** `samples_pYYYYMM` of the UTC month starting at `start`. */
export function partitionName(start: number): string {
  const d = new Date(start);
  return `samples_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface SamplePartition {
  name: string;
  /** Inclusive lower bound, epoch ms. */
  from: number;
  /** Exclusive upper bound, epoch ms. */
  to: number;
}

function parsePartition(name: string): SamplePartition | undefined {
  const m = PARTITION_RE.exec(name);
  if (!m) return undefined;
  const from = Date.UTC(Number(m[1]), Number(m[2]) - 1, 1);
  return { name, from, to: monthStart(from, 1) };
}

export interface SamplePruneOptions {
  /** Rows per DELETE (default: the configured batch). */
  batch?: number;
  /** At most this many non-empty DELETEs per run (default 500); the rest goes at the next run. */
  maxBatches?: number;
  /** Called after each non-empty DELETE with its row count (tests, bench). */
  onBatch?: (rows: number) => void;
}

export interface SamplePruneResult {
  /** Rows removed by DELETEs (SQLite; PostgreSQL's default partition). */
  rows: number;
  /** Non-empty DELETE statements run. */
  batches: number;
  /** Month partitions dropped whole (PostgreSQL). */
  dropped: string[];
  /** True when `maxBatches` stopped the run before everything old was gone. */
  more: boolean;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export class SampleRetention {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly opts: { batch: number; partitionsAhead: number; lockTimeoutMs?: number } = {
      batch: 2000,
      partitionsAhead: 2,
    },
  ) {}

  get partitioned(): boolean {
    return this.engine === 'postgres';
  }

  /** The month partitions of `samples`, oldest first (PostgreSQL; [] on SQLite). */
  async partitions(): Promise<SamplePartition[]> {
    if (!this.partitioned) return [];
    const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = 'samples'::regclass`.execute(this.db);
    return r.rows
      .map((x) => parsePartition(x.name))
      .filter((p): p is SamplePartition => p !== undefined)
      .sort((a, b) => a.from - b.from);
  }

  /**
   * Creates the month partitions of the month of `now` and the `partitionsAhead` next ones that
   * do not exist yet (PostgreSQL). Each is built as a plain table, filled with the rows of its
   * month that sat in the default partition, then attached (ATTACH takes a lighter lock on
   * `samples` than CREATE … PARTITION OF: inserts go on). Returns the names created.
   */
  async ensurePartitions(now: number, ahead = this.opts.partitionsAhead): Promise<string[]> {
    if (!this.partitioned) return [];
    const have = new Set((await this.partitions()).map((p) => p.name));
    const created: string[] = [];
    for (let i = 0; i <= ahead; i++) {
      const from = monthStart(now, i);
      const name = partitionName(from);
      if (have.has(name)) continue;
      await this.createPartition(from);
      created.push(name);
    }
    return created;
  }

  /** Creates and attaches the month partition starting at `from` (PostgreSQL). */
  async createPartition(from: number): Promise<void> {
    const to = monthStart(from, 1);
    const name = partitionName(from);
    const t = sql.table(name);
    const def = sql.table(SAMPLES_DEFAULT_PARTITION);
    await this.db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = ${sql.lit(`${this.opts.lockTimeoutMs ?? 2000}ms`)}`.execute(trx);
      // No insert may land in the default partition between the move and the ATTACH (its check of
      // the default partition would then fail): hold it for the moment. Other partitions are free.
      await sql`lock table ${def} in exclusive mode`.execute(trx);
      await sql`create table ${t} (device_id integer not null, ts bigint not null, data bytea not null,
        primary key (device_id, ts))`.execute(trx);
      // The partition constraint as a CHECK lets ATTACH skip its validation scan of the new table.
      await sql`alter table ${t} add constraint ${sql.id(`${name}_ts_ck`)}
        check (ts >= ${sql.lit(from)} and ts < ${sql.lit(to)})`.execute(trx);
      await sql`with moved as (delete from ${def} where ts >= ${sql.lit(from)} and ts < ${sql.lit(to)} returning *)
        insert into ${t} select device_id, ts, data from moved`.execute(trx);
      await sql`alter table samples attach partition ${t} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
        trx,
      );
      await sql`alter table ${t} drop constraint ${sql.id(`${name}_ts_ck`)}`.execute(trx);
    });
  }

  /**
   * Removes the samples older than `before` (epoch ms): on PostgreSQL the months that end at or
   * before it (detach + drop) and the old rows of the default partition; on SQLite the old rows,
   * in bounded batches.
   */
  async prune(before: number, o: SamplePruneOptions = {}): Promise<SamplePruneResult> {
    const dropped: string[] = [];
    if (this.partitioned) {
      for (const p of await this.partitions()) {
        if (p.to > before) break;
        await this.db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = ${sql.lit(`${this.opts.lockTimeoutMs ?? 2000}ms`)}`.execute(trx);
          await sql`alter table samples detach partition ${sql.table(p.name)}`.execute(trx);
          await sql`drop table ${sql.table(p.name)}`.execute(trx);
        });
        dropped.push(p.name);
        await yieldToLoop();
      }
    }
    const table = this.partitioned ? SAMPLES_DEFAULT_PARTITION : 'samples';
    const res = await this.deleteOlder(table, before, o);
    return { ...res, dropped };
  }

  /** Bounded DELETEs of the rows of `table` older than `before`, device by device along the primary key. */
  private async deleteOlder(
    table: string,
    before: number,
    o: SamplePruneOptions,
  ): Promise<{ rows: number; batches: number; more: boolean }> {
    const batch = Math.max(1, o.batch ?? this.opts.batch);
    const maxBatches = Math.max(1, o.maxBatches ?? 500);
    const t = sql.table(table);
    let rows = 0;
    let batches = 0;
    let probes = 0;
    let after = -2_147_483_648; // device_id is a 32-bit integer
    for (;;) {
      const next = await sql<{ device_id: number }>`select device_id from ${t}
        where device_id > ${after} order by device_id limit 1`.execute(this.db);
      const dev = next.rows[0]?.device_id;
      if (dev === undefined) return { rows, batches, more: false };
      for (;;) {
        const r = await sql`delete from ${t} where device_id = ${dev} and ts in
          (select ts from ${t} where device_id = ${dev} and ts < ${before} order by ts limit ${batch})`.execute(
          this.db,
        );
        const n = Number(r.numAffectedRows ?? 0);
        if (n === 0) break;
        rows += n;
        batches += 1;
        o.onBatch?.(n);
        await yieldToLoop();
        if (batches >= maxBatches) return { rows, batches, more: true };
        if (n < batch) break;
      }
      after = Number(dev);
      if (++probes % 256 === 0) await yieldToLoop();
    }
  }
}
