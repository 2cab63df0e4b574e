import type { Db } from './db.js';

/** Tables with an `id` and an epoch-ms `ts` whose old rows a retention job removes. */
export type PrunableTable = 'action_log' | 'datalogger_events' | 'web_events';

export interface PruneOptions {
  /** Rows per DELETE (default 5000): each statement is short, so writers are never held up for long. */
  batch?: number;
  /** At most this many batches per run (default 200); the rest goes at the next run. */
  maxBatches?: number;
}

/**
 * Deletes the rows of `table` older than `before` (epoch ms), one bounded batch per statement
 * (`delete … where id in (select id … where ts < ? limit n)`, on SQLite and PostgreSQL), yielding
 * between batches; a huge table is thinned over several statements instead of one long lock.
 * Returns the number of rows removed.
 */
export async function deleteOlderInBatches(
  db: Db,
  table: PrunableTable,
  before: number,
  opts: PruneOptions = {},
): Promise<number> {
  const batch = Math.max(1, opts.batch ?? 5000);
  const maxBatches = Math.max(1, opts.maxBatches ?? 200);
  let removed = 0;
  for (let i = 0; i < maxBatches; i++) {
    const res = await db
      .deleteFrom(table)
      .where('id', 'in', (eb) => eb.selectFrom(table).select('id').where('ts', '<', before).limit(batch))
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    removed += n;
    if (n < batch) break;
    await new Promise<void>((r) => setImmediate(r));
  }
  return removed;
}
