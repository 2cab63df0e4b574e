import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 16, signed-action throughput: every server instance keeps the sessions it has
 * authenticated in memory (modules/auth/auth-cache.ts) and must drop them as soon as any
 * instance revokes a session, disables, cancels, deletes or moves an account, or changes the
 * role or permissions it holds. `auth_epoch` is one row whose counter the database itself
 * raises in the same transaction as such a change, through triggers on `sessions` and
 * `accounts` (so no code path, present or future, can forget it); an instance re-reads the
 * counter at most every AUTH_CACHE_CHECK_MS and empties its cache when it moved.
 *
 * Columns of `accounts` that the authenticated caller is made of (auth.service.ts
 * `authenticate`, permissionSet): a change of any of them raises the epoch. Sign-in
 * bookkeeping (last_login_*), profile fields and the password digest do not (a password
 * change revokes the account's sessions, which does).
 */
export const AUTH_ACCOUNT_COLUMNS = ['usr', 'role', 'path', 'status', 'admin_of', 'permissions', 'parent_id'] as const;

export function authEpoch(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('auth_epoch')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('epoch', d.bigint, (c) => c.notNull())
        .execute();
      await db.insertInto('auth_epoch').values({ id: 1, epoch: 0 }).execute();
      const bump = 'UPDATE auth_epoch SET epoch = epoch + 1 WHERE id = 1';
      if (d.engine === 'sqlite') {
        const changed = AUTH_ACCOUNT_COLUMNS.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
        await sql
          .raw(`CREATE TRIGGER auth_epoch_accounts_update AFTER UPDATE ON accounts WHEN ${changed} BEGIN ${bump}; END`)
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER auth_epoch_accounts_delete AFTER DELETE ON accounts BEGIN ${bump}; END`)
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER auth_epoch_sessions_update AFTER UPDATE ON sessions WHEN OLD.revoked_at IS NOT NEW.revoked_at OR OLD.expires_at IS NOT NEW.expires_at OR OLD.account_id IS NOT NEW.account_id BEGIN ${bump}; END`,
          )
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER auth_epoch_sessions_delete AFTER DELETE ON sessions BEGIN ${bump}; END`)
          .execute(db);
      } else {
        await sql
          .raw(
            `CREATE FUNCTION auth_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump}; RETURN NULL; END $$`,
          )
          .execute(db);
        const changed = AUTH_ACCOUNT_COLUMNS.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
        await sql
          .raw(
            `CREATE TRIGGER auth_epoch_accounts_update AFTER UPDATE ON accounts FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION auth_epoch_bump()`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER auth_epoch_accounts_delete AFTER DELETE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION auth_epoch_bump()`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER auth_epoch_sessions_update AFTER UPDATE ON sessions FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION auth_epoch_bump()`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER auth_epoch_sessions_delete AFTER DELETE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION auth_epoch_bump()`,
          )
          .execute(db);
      }
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of ['auth_epoch_accounts_update', 'auth_epoch_accounts_delete']) {
        await sql.raw(`DROP TRIGGER IF EXISTS ${t}${d.engine === 'sqlite' ? '' : ' ON accounts'}`).execute(db);
      }
      for (const t of ['auth_epoch_sessions_update', 'auth_epoch_sessions_delete']) {
        await sql.raw(`DROP TRIGGER IF EXISTS ${t}${d.engine === 'sqlite' ? '' : ' ON sessions'}`).execute(db);
      }
      if (d.engine !== 'sqlite') await sql.raw('DROP FUNCTION IF EXISTS auth_epoch_bump()').execute(db);
      await db.schema.dropTable('auth_epoch').execute();
    },
  };
}
