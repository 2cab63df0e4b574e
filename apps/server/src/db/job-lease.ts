import { sql } from 'kysely';
import { ApiError } from '@sunwatch/protocol';
import type { Db } from './db.js';

/** A job's lease: another instance takes an export over when its builder stops renewing it. */
export const JOB_LEASE_MS = 60_000;
/** Attempts before an export is marked failed. */
export const JOB_MAX_ATTEMPTS = 3;

/**
 * A durable background job kind the `ReportRunner` drains: `next` claims one job (atomically,
 * through `JobLease.claim`) and builds it to its end; false when none is waiting. `onQueued` is set
 * by the runner so that a new job starts without waiting for its poll.
 */
export interface LeasedQueue {
  next(owner: string): Promise<boolean>;
  onQueued: () => void;
}

/** The tables whose rows are leased jobs (each has `lease_owner`, `lease_until`, `attempts`, `progress`). */
export type LeasedTable = 'report_files' | 'export_files' | 'upgrade_batches';

/**
 * The one lease protocol of export jobs (issue 11 report files, issue 10 device report exports):
 * a row is claimable while its state is one of `waiting` and its lease has expired (a new or
 * requeued row has `lease_until` 0); claiming is one conditional UPDATE, so two instances never
 * build the same job, and a job whose instance died is taken over once its lease runs out.
 * Progress renews the lease; a builder that lost its lease (row gone or taken over) stops.
 */
export class JobLease {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly table: LeasedTable,
    private readonly state: { column: string; waiting: ReadonlyArray<string | number>; running: string | number },
  ) {}

  private claimable(now: number) {
    const { column, waiting } = this.state;
    return sql`${sql.ref(column)} in (${sql.join([...waiting])}) and lease_until < ${now}`;
  }

  /** Claims the oldest claimable job for `owner` (attempts + 1); its id, or undefined. */
  async claim(owner: string): Promise<number | undefined> {
    const now = this.now();
    const t = sql.table(this.table);
    const candidates = await sql<{ id: number }>`select id from ${t} where ${this.claimable(now)} order by id limit 5`.execute(
      this.db,
    );
    for (const c of candidates.rows) {
      const res = await sql`update ${t}
           set ${sql.ref(this.state.column)} = ${this.state.running}, lease_owner = ${owner},
               lease_until = ${now + JOB_LEASE_MS}, attempts = attempts + 1
         where id = ${c.id} and ${this.claimable(now)}`.execute(this.db);
      if (Number(res.numAffectedRows ?? 0) === 1) return Number(c.id);
    }
    return undefined;
  }

  /** Progress 0..99 of a claimed job, renewing its lease; false when the row is gone or no longer ours. */
  async renew(id: number, owner: string, pct: number): Promise<boolean> {
    const res = await sql`update ${sql.table(this.table)}
         set progress = ${Math.max(0, Math.min(99, Math.floor(pct)))}, lease_until = ${this.now() + JOB_LEASE_MS}
       where id = ${id} and lease_owner = ${owner} and ${sql.ref(this.state.column)} = ${this.state.running}`.execute(this.db);
    return Number(res.numAffectedRows ?? 0) === 1;
  }
}

/** Whether a failed attempt is the last: after JOB_MAX_ATTEMPTS, or at once for a refusal (ApiError). */
export function lastAttempt(attempts: number, e: unknown): boolean {
  return attempts >= JOB_MAX_ATTEMPTS || e instanceof ApiError;
}
