import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Datalogger orders (issue 9, "assign dataloggers by order number", spec §8 "Order allocation"):
 * an order a manufacturer sold to a distributor, its PNs, and to whom it was allocated.
 */
export function distribution(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('datalogger_orders'))
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        /** Manufacturer code printed on the order (matched against the manufacturer account's vendor_code). */
        .addColumn('vendor_code', 'text', (c) => c.notNull())
        /** The distributor (or manufacturer) the order was sold to. */
        .addColumn('dist_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        /** ORDER_STATUS: 0 open, 1 rejected (cancelled by the manufacturer). */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bound_to', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
        .addColumn('bound_at', d.bigint)
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('datalogger_orders_dist_idx').on('datalogger_orders').column('dist_id').execute();
      await db.schema
        .createTable('datalogger_order_items')
        .addColumn('order_id', 'integer', (c) => c.notNull().references('datalogger_orders.id').onDelete('cascade'))
        .addColumn('pn', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('datalogger_order_items_pk', ['order_id', 'pn'])
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
