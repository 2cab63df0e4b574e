import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Self-service (issue 12, s22-cd):
 * - `verification_codes`: one row per code sent (signup, password reset, bind, unbind), the code
 *   stored as a salted SHA-256 only, with its expiry, wrong attempts and the moment it was used;
 *   the rows of the last hour also drive the per-address and per-IP send limits;
 * - `picture_codes`: the picture codes of password retrieval (hashed, single use, short-lived).
 */
export function selfservice(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('verification_codes'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('channel', 'integer', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('expires_at', d.bigint, (c) => c.notNull())
        .addColumn('used_at', d.bigint)
        .execute();
      await db.schema
        .createIndex('verification_codes_target_idx')
        .on('verification_codes')
        .columns(['purpose', 'target', 'created_at'])
        .execute();
      await db.schema.createIndex('verification_codes_ip_idx').on('verification_codes').columns(['ip', 'created_at']).execute();
      await db.schema
        .createTable('picture_codes')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('expires_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('picture_codes_ip_idx').on('picture_codes').columns(['ip', 'created_at']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('picture_codes').execute();
      await db.schema.dropTable('verification_codes').execute();
    },
  };
}
