import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { LoginThrottleTable } from '../../db/schema.js';

export type ThrottleRow = Selectable<LoginThrottleTable>;

/** Login failure counters and the addresses an account signed in from successfully. */
export class ThrottleRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  async get(keys: string[]): Promise<Map<string, ThrottleRow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.selectFrom('login_throttle').selectAll().where('key', 'in', keys).execute();
    return new Map(rows.map((r) => [r.key, r]));
  }

  /**
   * Counts one failure atomically (one INSERT … ON CONFLICT DO UPDATE … RETURNING, on both
   * engines): parallel failures are never lost. A window that ended starts over at 1; a long
   * quiet spell (`quietMs` since the last failure) also forgets earlier blocks.
   */
  async increment(key: string, now: number, windowMs: number, quietMs: number): Promise<ThrottleRow> {
    const expired = sql<boolean>`${sql.ref('login_throttle.window_start')} + ${windowMs} <= ${now}`;
    return this.db
      .insertInto('login_throttle')
      .values({ key, failures: 1, window_start: now, blocked_until: 0, blocks: 0, updated_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`case when ${expired} then 1 else ${sql.ref('login_throttle.failures')} + 1 end`,
          window_start: sql<number>`case when ${expired} then ${now} else ${sql.ref('login_throttle.window_start')} end`,
          blocks: sql<number>`case when ${expired} and ${sql.ref('login_throttle.updated_at')} + ${quietMs} <= ${now} then 0 else ${sql.ref('login_throttle.blocks')} end`,
          updated_at: now,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Turns `limit` counted failures into one block, only if the row still has them and nobody
   * blocked it in between (`blocks` unchanged); false when another request won the race.
   */
  async block(key: string, limit: number, seenBlocks: number, blockedUntil: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('login_throttle')
      .set((eb) => ({
        failures: eb('failures', '-', limit),
        blocks: seenBlocks + 1,
        blocked_until: blockedUntil,
        window_start: now,
        updated_at: now,
      }))
      .where('key', '=', key)
      .where('blocks', '=', seenBlocks)
      .where('failures', '>=', limit)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
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
