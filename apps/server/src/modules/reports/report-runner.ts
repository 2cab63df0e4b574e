import crypto from 'node:crypto';
import type { LeasedQueue } from '../../db/job-lease.js';

/** How often an idle runner looks for queued exports (new ones on this instance start at once). */
export const REPORT_POLL_MS = 2000;

/**
 * The background builder of exports. Never blocks a request: a request only queues a row; this
 * runner claims rows one at a time (`JobLease.claim`, atomic), builds them with progress and a
 * renewed lease, and on start-up picks up what a stopped instance left (queued rows, and exporting
 * rows whose lease expired). It drains every leased job kind in turn: issue 11's report files
 * (plant, device and alarm reports) and issue 10's device report exports. One export at a time per
 * instance keeps the two-core machine responsive.
 */
export class ReportRunner {
  readonly owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    /** The job kinds, read when the runner starts (services built after the runner may be among them). */
    private readonly queues: () => readonly LeasedQueue[],
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const q of this.queues()) q.onQueued = () => this.kick();
    this.timer = setInterval(() => this.kick(), REPORT_POLL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Runs the queue now (or right after the current pass). */
  kick(): void {
    if (this.stopped) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.current = this.drain()
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err }, 'report runner failed'))
      .finally(() => {
        this.current = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Builds claimed exports until none is left, one of each job kind in turn. */
  async drain(): Promise<number> {
    let n = 0;
    for (let more = true; more && !this.stopped; ) {
      more = false;
      for (const q of this.queues()) {
        if (this.stopped) break;
        if (await q.next(this.owner)) {
          n++;
          more = true;
        }
      }
    }
    return n;
  }

  /** Resolves when no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.current) await this.current;
  }

  /** Stops polling and waits for the export being built (its lease would otherwise hand it over). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const q of this.queues()) q.onQueued = () => undefined;
    await this.idle();
  }
}
