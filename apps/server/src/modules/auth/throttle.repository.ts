import type { Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { LoginThrottleTable } from '../../db/schema.js';

export type ThrottleRow = Selectable<LoginThrottleTable>;

/** Login failure counters and the addresses an account signed in from successfully. */
export class ThrottleRepository {
  constructor(private readonly db: Db) {}

  async get(keys: string[]): Promise<Map<string, ThrottleRow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.selectFrom('login_throttle').selectAll().where('key', 'in', keys).execute();
    return new Map(rows.map((r) => [r.key, r]));
  }

  async put(row: ThrottleRow): Promise<void> {
    await this.db
      .insertInto('login_throttle')
      .values(row)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: row.failures,
          window_start: row.window_start,
          blocked_until: row.blocked_until,
          blocks: row.blocks,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', '=', key).execute();
  }

  async isKnownAddress(accountId: number, ip: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('known_addresses')
      .select('ip')
      .where('account_id', '=', accountId)
      .where('ip', '=', ip)
      .executeTakeFirst();
    return row !== undefined;
  }

  async rememberAddress(accountId: number, ip: string, now: number): Promise<void> {
    await this.db
      .insertInto('known_addresses')
      .values({ account_id: accountId, ip, last_success_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'ip']).doUpdateSet({ last_success_at: now }))
      .execute();
  }
}
