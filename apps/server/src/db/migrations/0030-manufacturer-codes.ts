import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, factoryCode: PN rules. A rule gives the PNs starting with `prefix` (manufacturer code
 * 2-3 characters + type code 1 letter, upper case) to a manufacturer at registration.
 */
export function manufacturerCodes(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('manufacturer_codes'))
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('code', 'varchar(3)', (c) => c.notNull())
        .addColumn('type_code', 'varchar(1)', (c) => c.notNull())
        .addColumn('prefix', 'varchar(4)', (c) => c.notNull().unique())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_by', 'varchar(64)')
        .execute();
      await db.schema
        .createIndex('manufacturer_codes_vendor_idx')
        .on('manufacturer_codes')
        .column('vendor_id')
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('manufacturer_codes').execute();
    },
  };
}
