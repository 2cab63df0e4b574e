import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Reports and exports (issue 11): `report_files`, one row per report export and the durable state
 * of its background job (queued → exporting with progress and a lease → done / failed). The xlsx
 * lives under `<dataDir>/reports/` (`path`), removed with the row.
 */
export function reports(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('report_files'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        /** 'plant' | 'device'. */
        .addColumn('scope', 'text', (c) => c.notNull())
        /** REPORT_PERIODS. */
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sdate', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('edate', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('project_id', 'integer')
        .addColumn('device_id', 'integer')
        .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('pn', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sn', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('devcode', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('devaddr', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en_US'))
        .addColumn('name', 'text', (c) => c.notNull())
        /** Job state: 'queued' | 'exporting' | 'done' | 'failed'. */
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
        /** File name under `<dataDir>/reports/` once done. */
        .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('finished_at', d.bigint)
        .execute();
      await db.schema.createIndex('report_files_account_idx').on('report_files').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('report_files_state_idx').on('report_files').columns(['state', 'lease_until']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
