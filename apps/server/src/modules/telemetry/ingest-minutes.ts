import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';

export const MINUTE_MS = 60_000;
/** How long `ingest_minutes` rows are kept (the `prune-ingest-minutes` job). */
export const INGEST_MINUTES_KEEP_MS = 7 * 24 * 3600_000;
export const PRUNE_INGEST_MINUTES_EVERY_MS = 3600_000;

interface Bucket {
  frames: number;
  points: number;
}

/** This process's id in `ingest_minutes.instance_id`: host, pid and a random part (≤ 64 characters). */
export function newInstanceId(): string {
  return `${os.hostname().slice(0, 40)}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
}

/**
 * Per-minute ingest counters of this server instance (issue 14, operator home): the batch writer
 * adds the frames and datapoints of each committed batch to the bucket of its minute (a map
 * update per batch, nothing per frame); once a minute the finished buckets are written to
 * `ingest_minutes` as one upsert (adding to a row already there, so a partial flush at shutdown
 * and a later one of the same minute sum up). Several instances write their own rows.
 * A failed write keeps the counts for the next flush.
 */
export class IngestMinutes {
  private buckets = new Map<number, Bucket>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly now: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    readonly instanceId: string = newInstanceId(),
  ) {}

  /** Counts a committed batch at `at` (epoch ms). */
  add(at: number, frames: number, points: number): void {
    if (frames === 0 && points === 0) return;
    const minute = at - (at % MINUTE_MS);
    const b = this.buckets.get(minute);
    if (b) {
      b.frames += frames;
      b.points += points;
    } else this.buckets.set(minute, { frames, points });
  }

  /** Counts not written yet, by minute (tests, diagnostics). */
  pending(): ReadonlyMap<number, Readonly<Bucket>> {
    return this.buckets;
  }

  /**
   * Writes the buckets of finished minutes (`all`: the current one too, at shutdown). One
   * statement for all of them; concurrent calls wait for the write under way.
   */
  async flush(all = false): Promise<void> {
    while (this.writing) await this.writing;
    const current = this.now() - (this.now() % MINUTE_MS);
    const rows: Array<{ minute: number; instance_id: string; frames: number; points: number }> = [];
    for (const [minute, b] of this.buckets) {
      if (!all && minute >= current) continue;
      rows.push({ minute, instance_id: this.instanceId, frames: b.frames, points: b.points });
      this.buckets.delete(minute);
    }
    if (rows.length === 0) return;
    this.writing = this.db
      .insertInto('ingest_minutes')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['minute', 'instance_id']).doUpdateSet((eb) => ({
          frames: eb('ingest_minutes.frames', '+', eb.ref('excluded.frames')),
          points: eb('ingest_minutes.points', '+', eb.ref('excluded.points')),
        })),
      )
      .execute()
      .then(
        () => undefined,
        (err: unknown) => {
          this.log.warn({ err, rows: rows.length }, 'ingest minutes: write failed, kept for the next flush');
          for (const r of rows) this.add(r.minute, r.frames, r.points);
        },
      )
      .finally(() => {
        this.writing = undefined;
      });
    await this.writing;
  }

  /** Flushes a second after every minute boundary (real time) until `close`. */
  start(): void {
    if (this.timer) return;
    const schedule = () => {
      const wait = MINUTE_MS - (Date.now() % MINUTE_MS) + 1000;
      this.timer = setTimeout(() => {
        void this.flush().finally(() => {
          if (this.timer) schedule();
        });
      }, wait);
      this.timer.unref();
    };
    schedule();
  }

  /** Stops the timer and writes every count, the current minute's included. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush(true);
  }
}

/** Deletes the rows older than `keepMs` (every instance's). */
export async function pruneIngestMinutes(db: Db, now: number, keepMs = INGEST_MINUTES_KEEP_MS): Promise<number> {
  const r = await db
    .deleteFrom('ingest_minutes')
    .where('minute', '<', now - keepMs)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
