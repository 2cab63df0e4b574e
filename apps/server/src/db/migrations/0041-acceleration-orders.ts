import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Acceleration orders (issue 15; spec §3 "Acceleration order", §9 "Acceleration"): a faster
 * collection interval bought for a Wi-Fi datalogger. Vocabulary and price: packages/protocol/src/
 * acceleration.ts; docs/money/acceleration.md.
 * - acceleration_orders: one order (number unique), who ordered, the datalogger (and its owner when
 *   ordered: an owner's record shows the orders of its ownership), type, interval bought and the one
 *   it replaced, storage months, the price inputs (parameters, loads) and amount in minor units,
 *   payment method/channel/reference, state, when the terms were accepted, times;
 * - acceleration_changes: the interval change a paid order causes (old → new, pending → applied or
 *   refused), the commands sent, the last error, the ack, and a short lease so that one server
 *   instance at a time delivers it.
 */
export function accelerationOrders(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('acceleration_orders'))
        .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('account_usr', 'varchar(64)', (c) => c.notNull())
        /** No foreign key: the record outlives a deleted datalogger (the PN stays). */
        .addColumn('datalogger_id', 'integer', (c) => c.notNull())
        .addColumn('pn', 'varchar(32)', (c) => c.notNull())
        .addColumn('owner_id', 'integer')
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('interval_s', 'integer', (c) => c.notNull())
        .addColumn('from_interval_s', 'integer', (c) => c.notNull())
        .addColumn('storage_months', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('parameters', 'integer', (c) => c.notNull())
        .addColumn('loads', 'integer', (c) => c.notNull())
        .addColumn('amount_minor', d.bigint, (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('channel', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_ref', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('fail_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('terms_accepted_at', d.bigint, (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('paid_at', d.bigint)
        .addColumn('finished_at', d.bigint)
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('acceleration_orders_created_idx')
        .on('acceleration_orders')
        .column('created_at')
        .execute();
      await db.schema
        .createIndex('acceleration_orders_dl_idx')
        .on('acceleration_orders')
        .columns(['datalogger_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('acceleration_orders_status_idx')
        .on('acceleration_orders')
        .columns(['status', 'created_at'])
        .execute();

      await d
        .addIdColumn(db.schema.createTable('acceleration_changes'))
        .addColumn('order_id', 'integer', (c) =>
          c.notNull().unique().references('acceleration_orders.id').onDelete('cascade'),
        )
        .addColumn('datalogger_id', 'integer', (c) => c.notNull())
        .addColumn('pn', 'varchar(32)', (c) => c.notNull())
        .addColumn('from_interval_s', 'integer', (c) => c.notNull())
        .addColumn('to_interval_s', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('ack_interval_s', 'integer')
        .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('applied_at', d.bigint)
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('acceleration_changes_status_idx')
        .on('acceleration_changes')
        .columns(['status', 'lease_until'])
        .execute();
      await db.schema
        .createIndex('acceleration_changes_dl_idx')
        .on('acceleration_changes')
        .columns(['datalogger_id', 'created_at'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('acceleration_changes').execute();
      await db.schema.dropTable('acceleration_orders').execute();
    },
  };
}
