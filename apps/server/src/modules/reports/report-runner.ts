import crypto from 'node:crypto';
import type { ReportFilesService } from './report-files.service.js';

/** How often an idle runner looks for queued exports (new ones on this instance start at once). */
export const REPORT_POLL_MS = 2000;

/**
 * The background builder of report exports. Never blocks a request: a request only queues a row;
 * this runner claims rows one at a time (`ReportFilesService.claim`, atomic), builds them with
 * progress and a renewed lease, and on start-up picks up what a stopped instance left (queued
 * rows, and exporting rows whose lease expired). One export at a time per instance keeps the
 * two-core machine responsive.
 */
export class ReportRunner {
  readonly owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly files: ReportFilesService,
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.files.onQueued = () => this.kick();
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

  /** Builds claimed exports until none is left. */
  async drain(): Promise<number> {
    let n = 0;
    while (!this.stopped) {
      const row = await this.files.claim(this.owner);
      if (!row) break;
      await this.files.build(row, this.owner);
      n++;
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
    this.files.onQueued = () => undefined;
    await this.idle();
  }
}
