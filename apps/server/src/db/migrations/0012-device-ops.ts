import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Device operations (issue 10):
 * - `device_ctrl_passwords`: the device-control password of a custom domain (spec §3: one per
 *   custom domain; Sunwatch's custom domain is a manufacturer's tenant), stored as a scrypt hash;
 * - `export_files`: report exports (spec §3 "Export file": name, size, status exporting →
 *   downloadable, progress), the file kept in the database so every server instance serves it.
 */
export function deviceOps(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('device_ctrl_passwords')
        .addColumn('vendor_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        /** `scrypt$<salt b64>$<hash b64>`. */
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await d
        .addIdColumn(db.schema.createTable('export_files'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        /** What it holds: 'device_report'. */
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('pn', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sn', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('device_id', 'integer')
        .addColumn('sdate', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('edate', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en_US'))
        /** EXPORT_STATUS: 0 exporting, 1 downloadable, 2 failed. */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', d.blob)
        .addColumn('error', 'text')
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('finished_at', d.bigint)
        .execute();
      await db.schema.createIndex('export_files_account_idx').on('export_files').columns(['account_id', 'created_at']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
