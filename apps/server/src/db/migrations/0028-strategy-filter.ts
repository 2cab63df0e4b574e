import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 13, fleet-sized upgrade strategies (session 27, docs/firmware/strategies.md "By filter"):
 * - `upgrade_strategies.filter`: the strategy's target filter as JSON ('' = an explicit list only);
 * - `resolved_at`: when the rollout froze the filter's population into `upgrade_strategy_devices`
 *   (null until then; strategies without a filter are resolved when written);
 * - `resolve_cursor`: the last target key written while resolving, so an interrupted resolution
 *   resumes page by page instead of starting over;
 * - `upgrade_strategy_devices.rank`: a stable pseudo-random rank of (code, PN, SN), so the canary
 *   is chosen in SQL (`order by rank limit n`) over a population that never sits in memory.
 */
export function strategyFilter(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('upgrade_strategies')
        .addColumn('filter', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('upgrade_strategies').addColumn('resolved_at', d.bigint).execute();
      await db.schema
        .alterTable('upgrade_strategies')
        .addColumn('resolve_cursor', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // Strategies written before: their lists are complete.
      await db.updateTable('upgrade_strategies').set({ resolved_at: 0 }).execute();
      await db.schema
        .alterTable('upgrade_strategy_devices')
        .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('upgrade_strategy_devices_rank_idx')
        .on('upgrade_strategy_devices')
        .columns(['strategy_id', 'rank'])
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
