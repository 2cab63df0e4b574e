import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 16, web error reporting (spec §9; docs/operations.md "Web error reporting"): the events the
 * web app reports to the collector actions (reportWebEvents, reportWebEventsPublic).
 * - web_events: one row per fingerprint per tab session (`sid`): repeats of the same error in one
 *   tab raise `count` and `ts` (last seen) instead of adding rows. `kind` error | trace | replay,
 *   `source`, message, stack, page address and route (secrets scrubbed), release, user agent, the
 *   account (null before sign-in) and its manufacturer (`tenant_id`), trace duration, the breadcrumb
 *   trail (JSON), first seen. Pruned by age (`ts`) with the action log's retention.
 */
export function webEvents(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('web_events'))
        /** Last seen (epoch ms): the retention and the lists order by it. */
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('first_seen', d.bigint, (c) => c.notNull())
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('source', 'varchar(32)', (c) => c.notNull())
        .addColumn('fingerprint', 'varchar(40)', (c) => c.notNull())
        .addColumn('sid', 'varchar(64)', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('stack', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('route', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('release', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        /** No foreign key: the event outlives a deleted account. */
        .addColumn('account_id', 'integer')
        .addColumn('usr', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('tenant_id', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('breadcrumbs', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema.createIndex('web_events_ts_idx').on('web_events').column('ts').execute();
      await db.schema.createIndex('web_events_fp_ts_idx').on('web_events').columns(['fingerprint', 'ts']).execute();
      await db.schema.createIndex('web_events_fold_idx').on('web_events').columns(['fingerprint', 'sid']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('web_events').execute();
    },
  };
}
