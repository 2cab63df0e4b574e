import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import { AUTH_ACCOUNT_COLUMNS } from './0043-auth-epoch.js';

/**
 * Issue 16, signed-action throughput: the session cache (modules/auth/auth-cache.ts) now keeps
 * the whole account row it reads at authentication, and `queryAccountInfo` of the caller itself
 * answers from it without a query. So the auth epoch must move on a change of ANY column of
 * `accounts` that the answer shows, not only of the columns the caller is made of (0043): profile
 * fields (qname, email, mobile, photo, …), codes, the data permission, the password digest.
 *
 * Excluded: the sign-in bookkeeping `last_login_at` / `last_login_ip`, which every sign-in writes.
 * Raising the epoch there would empty every instance's cache at every sign-in of anyone. A new
 * session reads its row after the sign-in wrote them, so its own answer is exact; another, older
 * session of the same account may show the previous sign-in for up to AUTH_CACHE_TTL_MS
 * (docs/decisions.md, "Session 31").
 *
 * The list is explicit (a trigger compares named columns). `test/auth/auth-cache.test.ts` fails
 * when `accounts` has a column that is neither here nor excluded, so a migration that adds one
 * must widen the trigger as well.
 */
export const ACCOUNT_ROW_EPOCH_EXCLUDED = ['id', 'last_login_at', 'last_login_ip'] as const;
export const ACCOUNT_ROW_COLUMNS = [
  ...AUTH_ACCOUNT_COLUMNS,
  'qname',
  'email',
  'mobile',
  'photo',
  'qq',
  'wx',
  'cname',
  'caddr',
  'ctel',
  'bomb',
  'description',
  'vendor_code',
  'dealer_code',
  'can_add_datalogger',
  'group_id',
  'role_permission_id',
  'data_permission',
  'member_group_id',
  'created_by',
  'created_at',
  'updated_at',
  'pwd_cipher',
  'data_key',
] as const;

const BUMP = 'UPDATE auth_epoch SET epoch = epoch + 1 WHERE id = 1';

function recreate(d: SqlDialect, columns: readonly string[]): string[] {
  if (d.engine === 'sqlite') {
    const changed = columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
    return [
      'DROP TRIGGER IF EXISTS auth_epoch_accounts_update',
      `CREATE TRIGGER auth_epoch_accounts_update AFTER UPDATE ON accounts WHEN ${changed} BEGIN ${BUMP}; END`,
    ];
  }
  const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
  return [
    'DROP TRIGGER IF EXISTS auth_epoch_accounts_update ON accounts',
    `CREATE TRIGGER auth_epoch_accounts_update AFTER UPDATE ON accounts FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION auth_epoch_bump()`,
  ];
}

export function accountRowEpoch(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const stmt of recreate(d, ACCOUNT_ROW_COLUMNS)) await sql.raw(stmt).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const stmt of recreate(d, AUTH_ACCOUNT_COLUMNS)) await sql.raw(stmt).execute(db);
    },
  };
}
