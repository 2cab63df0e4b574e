import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, factoryAccount (spec §3 "Manufacturer: id, name, code, account, enabled, visible
 * devcode, ecoin"). A manufacturer is a role-1 account (its code is `accounts.vendor_code`, its
 * enabled state the account's status); this adds what the account lacks:
 * - `manufacturers`: the display name and the ecoin balance (integer, never negative), one row
 *   per manufacturer account, written on the first edit;
 * - `manufacturer_devcodes`: the devcodes the manufacturer's area may see (no row = all);
 * - `manufacturer_ecoin_log`: every ecoin adjustment with its reason (the ledger the balance sums).
 */
export function manufacturers(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('manufacturers')
        .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('ecoin', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_by', 'varchar(64)')
        .execute();
      await db.schema
        .createTable('manufacturer_devcodes')
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('devcode', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('manufacturer_devcodes_pk', ['vendor_id', 'devcode'])
        .execute();
      await d
        .addIdColumn(db.schema.createTable('manufacturer_ecoin_log'))
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('delta', d.bigint, (c) => c.notNull())
        .addColumn('balance', d.bigint, (c) => c.notNull())
        .addColumn('reason', 'varchar(200)', (c) => c.notNull())
        .addColumn('usr', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('manufacturer_ecoin_log_vendor_idx')
        .on('manufacturer_ecoin_log')
        .columns(['vendor_id', 'id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('manufacturer_ecoin_log').execute();
      await db.schema.dropTable('manufacturer_devcodes').execute();
      await db.schema.dropTable('manufacturers').execute();
    },
  };
}
