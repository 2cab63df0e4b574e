import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/** Accounts and the tenant tree, sessions, remember-me, login throttle, action log, company keys. */
export function foundation(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('accounts'))
        .addColumn('usr', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('role', 'integer', (c) => c.notNull())
        .addColumn('parent_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('path', 'varchar(512)', (c) => d.binaryText(c).notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('qname', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('mobile', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('photo', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
        .addColumn('qq', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('wx', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('cname', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('caddr', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .addColumn('ctel', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('bomb', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('description', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
        .addColumn('vendor_code', 'varchar(64)')
        .addColumn('dealer_code', 'varchar(64)')
        .addColumn('can_add_datalogger', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('group_id', 'integer')
        .addColumn('role_permission_id', 'integer')
        .addColumn('data_permission', 'text')
        .addColumn('permissions', 'text')
        .addColumn('admin_of', 'integer', (c) => c.references('accounts.id'))
        .addColumn('created_by', 'integer', (c) => c.references('accounts.id'))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('last_login_at', d.bigint)
        .addColumn('last_login_ip', 'varchar(64)')
        .addColumn('pwd_cipher', 'text', (c) => c.notNull())
        .addColumn('data_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('accounts_path_idx').on('accounts').column('path').execute();
      await db.schema.createIndex('accounts_parent_idx').on('accounts').column('parent_id').execute();
      await db.schema.createIndex('accounts_admin_of_idx').on('accounts').column('admin_of').execute();

      await db.schema
        .createTable('group_members')
        .addColumn('group_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'member_id'])
        .execute();
      await db.schema.createIndex('group_members_member_idx').on('group_members').column('member_id').execute();

      await d
        .addIdColumn(db.schema.createTable('sessions'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('secret_cipher', 'text', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('expires_at', d.bigint, (c) => c.notNull())
        .addColumn('revoked_at', d.bigint)
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sessions_account_idx').on('sessions').column('account_id').execute();

      await d
        .addIdColumn(db.schema.createTable('remember_tokens'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('family', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('expires_at', d.bigint, (c) => c.notNull())
        .addColumn('revoked_at', d.bigint)
        .addColumn('rotated_at', d.bigint)
        .execute();
      await db.schema.createIndex('remember_tokens_account_idx').on('remember_tokens').column('account_id').execute();
      await db.schema.createIndex('remember_tokens_family_idx').on('remember_tokens').column('family').execute();

      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'varchar(160)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_start', d.bigint, (c) => c.notNull())
        .addColumn('blocked_until', d.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('blocks', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('known_addresses')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('last_success_at', d.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('known_addresses_pk', ['account_id', 'ip'])
        .execute();

      await d
        .addIdColumn(db.schema.createTable('action_log'))
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('account_id', 'integer')
        .addColumn('usr', 'varchar(64)')
        .addColumn('action', 'varchar(128)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('err', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('action_log_ts_idx').on('action_log').column('ts').execute();
      await db.schema.createIndex('action_log_account_idx').on('action_log').columns(['account_id', 'ts']).execute();

      await db.schema
        .createTable('company_keys')
        .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('vendor_code', 'varchar(64)')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('seen_signs')
        .addColumn('sign', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('seen_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('seen_signs_seen_idx').on('seen_signs').column('seen_at').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of [
        'seen_signs',
        'company_keys',
        'action_log',
        'known_addresses',
        'login_throttle',
        'remember_tokens',
        'sessions',
        'group_members',
        'accounts',
      ]) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
