import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Mobile-data recharge orders (spec §3 "Recharge order", §4 "Recharge"): built by issue 14 for
 * its rechargeRemedy page, the model issue 15's checkout and payment write. States and their
 * moves are packages/protocol/src/recharge.ts; amounts are integers in minor units.
 * - recharge_orders: one order (number unique), who placed it, the manufacturer it belongs to,
 *   package, months, amount, discount, currency, payment method, channel, area, state and times;
 * - recharge_order_items: its cards (PN, CCID, load count and card status at order time) and
 *   each card's renewal state once the order succeeded;
 * - recharge_order_remedies: every manual correction (from → to, reason, operator, time).
 */
export function rechargeOrders(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('recharge_orders'))
        .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        /** Account name when ordered (the list shows and searches it without a join). */
        .addColumn('account_usr', 'varchar(64)', (c) => c.notNull())
        /** The manufacturer (role 1) of the order's dataloggers: whose tree may see the order. */
        .addColumn('vendor_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('months', 'integer', (c) => c.notNull())
        .addColumn('package', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('amount_minor', d.bigint, (c) => c.notNull())
        .addColumn('discount_minor', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('channel', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('area', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_ref', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('paid_at', d.bigint)
        .addColumn('finished_at', d.bigint)
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('recharge_orders_created_idx').on('recharge_orders').column('created_at').execute();
      await db.schema
        .createIndex('recharge_orders_status_idx')
        .on('recharge_orders')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema.createIndex('recharge_orders_account_idx').on('recharge_orders').column('account_id').execute();
      await db.schema.createIndex('recharge_orders_vendor_idx').on('recharge_orders').column('vendor_id').execute();

      await d
        .addIdColumn(db.schema.createTable('recharge_order_items'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('recharge_orders.id').onDelete('cascade'))
        .addColumn('pn', 'varchar(32)', (c) => c.notNull())
        .addColumn('ccid', 'varchar(32)', (c) => c.notNull())
        .addColumn('load_count', 'integer', (c) => c.notNull().defaultTo(0))
        /** dataloggers.card_status at order time (recharge.ts CARD_STATUSES). */
        .addColumn('card_status', 'integer', (c) => c.notNull().defaultTo(4))
        /** none → pending (order succeeded) → applied (issue 15 extended the card's expiry). */
        .addColumn('credit_state', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
        .addUniqueConstraint('recharge_order_items_card_uq', ['order_id', 'ccid'])
        .execute();
      await db.schema.createIndex('recharge_order_items_pn_idx').on('recharge_order_items').column('pn').execute();
      await db.schema.createIndex('recharge_order_items_ccid_idx').on('recharge_order_items').column('ccid').execute();

      await d
        .addIdColumn(db.schema.createTable('recharge_order_remedies'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('recharge_orders.id').onDelete('cascade'))
        .addColumn('from_status', 'varchar(16)', (c) => c.notNull())
        .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(500)', (c) => c.notNull())
        .addColumn('operator_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('operator_usr', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('recharge_order_remedies_order_idx')
        .on('recharge_order_remedies')
        .column('order_id')
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('recharge_order_remedies').execute();
      await db.schema.dropTable('recharge_order_items').execute();
      await db.schema.dropTable('recharge_orders').execute();
    },
  };
}
