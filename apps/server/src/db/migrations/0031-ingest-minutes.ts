import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, operator home: the ingest rate. Each server instance counts the frames it accepted and
 * the datapoints it stored per minute in memory and writes one row per minute it saw traffic
 * (`instance_id` keeps the instances' rows apart; the home sums them). Rows older than 7 days are
 * pruned by the `prune-ingest-minutes` job.
 */
export function ingestMinutes(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ingest_minutes')
        .addColumn('minute', d.bigint, (c) => c.notNull())
        .addColumn('instance_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('frames', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('points', d.bigint, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('ingest_minutes_pk', ['minute', 'instance_id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('ingest_minutes').execute();
    },
  };
}
