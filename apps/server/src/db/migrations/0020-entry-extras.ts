import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Entry-page extras (issue 12): experience codes and their applications, QR sign-in keys, and
 * the read-only flag of demo sessions (`sessions.demo`, 1 = opened by an experience code).
 */
export function entryExtras(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await d
        .addIdColumn(db.schema.createTable('inv_codes'))
        /** Upper case; unique. */
        .addColumn('code', 'text', (c) => c.notNull().unique())
        /** The account its demo sessions open. */
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('valid_from', d.bigint, (c) => c.notNull())
        .addColumn('valid_to', d.bigint, (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_by', 'integer')
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
      await d
        .addIdColumn(db.schema.createTable('inv_code_applies'))
        .addColumn('apply_name', 'text', (c) => c.notNull())
        .addColumn('company_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('company_address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('phone_number', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('sys_type', 'text', (c) => c.notNull())
        .addColumn('create_time', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('received_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('inv_code_applies_received_idx').on('inv_code_applies').column('received_at').execute();
      await d
        .addIdColumn(db.schema.createTable('qr_logins'))
        /** SHA-256 of the key (the key itself signs a session in: never stored). */
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        /** 'waiting' | 'scanned' | 'confirmed' | 'refused' | 'used'. */
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('waiting'))
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('expires_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('qr_logins_expires_idx').on('qr_logins').column('expires_at').execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
