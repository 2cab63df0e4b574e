import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 10: device report exports (`export_files`) become durable jobs of the reports runner, with
 * the lease of issue 11's report files (db/job-lease.ts): `lease_owner` (the instance
 * building it), `lease_until` (when another instance may take it over; 0 = waiting), `attempts`.
 * A row left "exporting" by the in-process builder before this migration has `lease_until` 0, so
 * the first runner after the upgrade builds it.
 */
export function deviceExportLease(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('export_files').addColumn('lease_owner', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema.alterTable('export_files').addColumn('lease_until', d.bigint, (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('export_files').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('export_files_status_idx').on('export_files').columns(['status', 'lease_until']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
