import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * The audit log (issue 7, "every write is audited"): one row per change a mutating action made,
 * written in the action's transaction: who (account_id, usr), what (action, entity, entity_id)
 * and the change (before → after, JSON text; secrets never stored).
 */
export function audit(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('audit_log'))
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('account_id', 'integer')
        .addColumn('usr', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      await db.schema.createIndex('audit_log_ts_idx').on('audit_log').column('ts').execute();
      await db.schema.createIndex('audit_log_account_idx').on('audit_log').columns(['account_id', 'ts']).execute();
      await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
