import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/db.js';

/**
 * A tiny job runner. Each run first takes the job's lease in the `jobs` table (an UPDATE that
 * succeeds only when the lease has expired or is already ours), so with several instances on one
 * database a job runs in one of them per interval; if that instance dies, another takes over once
 * the lease expires. A run that outlasts half its lease renews it (guarded by the owner), so a
 * slow run is never joined by a second instance (issue 16, docs/operations.md "Several instances").
 */
export class JobRunner {
  readonly owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private timers: NodeJS.Timeout[] = [];
  private running = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Takes the lease of `name` for `leaseMs`; true when this instance holds it now. */
  async acquire(name: string, leaseMs: number): Promise<boolean> {
    const now = this.now();
    await this.db
      .insertInto('jobs')
      .values({ name, lease_owner: '', lease_until: 0, last_run_at: null, last_error: '' })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const res = await this.db
      .updateTable('jobs')
      .set({ lease_owner: this.owner, lease_until: now + leaseMs })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('lease_until', '<=', now), eb('lease_owner', '=', this.owner)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Extends the lease of `name` while a run is still going; false when it is no longer ours. */
  async renew(name: string, leaseMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('jobs')
      .set({ lease_until: this.now() + leaseMs })
      .where('name', '=', name)
      .where('lease_owner', '=', this.owner)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Runs `fn` if the lease is ours; records the outcome. Returns whether it ran. */
  async runOnce(name: string, leaseMs: number, fn: () => Promise<void>): Promise<boolean> {
    if (this.running.has(name)) return false;
    this.running.add(name);
    try {
      if (!(await this.acquire(name, leaseMs))) return false;
      let error = '';
      const renew = setInterval(() => {
        this.renew(name, leaseMs).catch((err: unknown) => this.log.error({ err, job: name }, 'job lease renewal failed'));
      }, Math.max(50, Math.floor(leaseMs / 2)));
      renew.unref();
      try {
        await fn();
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        this.log.error({ err, job: name }, 'job failed');
      } finally {
        clearInterval(renew);
      }
      await this.db
        .updateTable('jobs')
        .set({ last_run_at: this.now(), last_error: error.slice(0, 2000) })
        .where('name', '=', name)
        .execute();
      return true;
    } finally {
      this.running.delete(name);
    }
  }

  /** Runs `fn` every `intervalMs` (lease = the interval, so once per interval across instances). */
  every(name: string, intervalMs: number, fn: () => Promise<void>): void {
    const tick = () => {
      this.runOnce(name, Math.max(1000, intervalMs - 500), fn).catch((err: unknown) =>
        this.log.error({ err, job: name }, 'job lease failed'),
      );
    };
    const t = setInterval(tick, intervalMs);
    t.unref();
    this.timers.push(t);
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }
}
