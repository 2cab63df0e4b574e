import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 15, payments (docs/money/payments.md):
 * - payments: one checkout attempt of an order (kind + order number) at a provider: its session
 *   id (the hosted page's), method, amount (minor units), state, the provider's reference, the
 *   web path to return to, and why it failed;
 * - payment_events: every webhook event accepted, unique by (provider, event id): a duplicate
 *   callback finds its id here and changes nothing;
 * - recharge_orders.credit_due_at: when the credit must have arrived (paid + 24 h + the delay),
 *   after which an order still paid/recharging turns overdue;
 * - recharge_order_items: the renewal as applied (expiry before/after, when the credit takes
 *   effect under the 25th–5th and overdue-card delays).
 */
export function payments(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('payments'))
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(32)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('method', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount_minor', d.bigint, (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_ref', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('return_path', 'varchar(300)', (c) => c.notNull().defaultTo(''))
        .addColumn('locale', 'varchar(8)', (c) => c.notNull().defaultTo(''))
        .addColumn('fail_reason', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_order_idx').on('payments').columns(['kind', 'order_no']).execute();

      await d
        .addIdColumn(db.schema.createTable('payment_events'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('event_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        /** What the event did: applied, failed, unapplied, ignored. */
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('received_at', d.bigint, (c) => c.notNull())
        .addUniqueConstraint('payment_events_uq', ['provider', 'event_id'])
        .execute();

      await db.schema.alterTable('recharge_orders').addColumn('credit_due_at', d.bigint).execute();
      await db.schema.alterTable('recharge_order_items').addColumn('expire_before', d.bigint).execute();
      await db.schema.alterTable('recharge_order_items').addColumn('expire_after', d.bigint).execute();
      await db.schema.alterTable('recharge_order_items').addColumn('effective_at', d.bigint).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('recharge_order_items').dropColumn('effective_at').execute();
      await db.schema.alterTable('recharge_order_items').dropColumn('expire_after').execute();
      await db.schema.alterTable('recharge_order_items').dropColumn('expire_before').execute();
      await db.schema.alterTable('recharge_orders').dropColumn('credit_due_at').execute();
      await db.schema.dropTable('payment_events').execute();
      await db.schema.dropTable('payments').execute();
    },
  };
}
