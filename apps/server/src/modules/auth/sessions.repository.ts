import type { Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { RememberTokensTable, SessionsTable } from '../../db/schema.js';

export type SessionRow = Selectable<SessionsTable>;
export type RememberRow = Selectable<RememberTokensTable>;

/** Sessions (token + secret) and remember-me tokens; tokens are stored as SHA-256 hashes only. */
/** How often expired seen signs are deleted (per instance; expiry itself is decided per insert). */
const SIGN_PRUNE_INTERVAL_MS = 60_000;

export class SessionsRepository {
  private prunedAt = -Infinity;

  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  async insertSession(row: Omit<SessionRow, 'id' | 'revoked_at'>): Promise<number> {
    const { id } = await this.db
      .insertInto('sessions')
      .values({ ...row, revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  findSessionByHash(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Revokes one session; false when it was already revoked. */
  async revokeSession(id: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Revokes every live session of the account, except `exceptId` if given. */
  /** Returns how many were revoked. */
  async revokeAccountSessions(accountId: number, now: number, exceptId?: number): Promise<number> {
    let q = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return Number((await q.executeTakeFirst()).numUpdatedRows);
  }

  async insertRemember(row: Omit<RememberRow, 'id' | 'revoked_at' | 'rotated_at'>): Promise<number> {
    const { id } = await this.db
      .insertInto('remember_tokens')
      .values({ ...row, revoked_at: null, rotated_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  findRememberByHash(tokenHash: string): Promise<RememberRow | undefined> {
    return this.db.selectFrom('remember_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks a remember token as used up by rotation; false when someone else rotated it first. */
  async markRotated(id: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now, rotated_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async revokeRemember(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes the live tokens of a remember-me family; returns how many. */
  async revokeRememberFamily(family: string, now: number): Promise<number> {
    const res = await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now })
      .where('family', '=', family)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Revokes every live remember-me token of the account; returns how many. */
  async revokeAccountRemember(accountId: number, now: number): Promise<number> {
    const res = await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * Replay refusal (wire-protocol.md §4a): records a sign until `expiresAt`; false when it is
   * already recorded and unexpired. The insert-if-absent is one statement on the sign's primary
   * key, so of two instances racing with the same sign exactly one gets true. Expired rows are
   * pruned first (an expired row therefore never blocks a sign).
   */
  async recordSign(sign: string, now: number, expiresAt: number): Promise<boolean> {
    // One statement decides: a new sign is inserted, an expired row is taken over, a live one
    // refuses (no row changed). Expired rows are only housekeeping, pruned at most once a minute.
    const res = await this.db
      .insertInto('seen_signs')
      .values({ sign: sign.toLowerCase(), seen_at: now, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('sign')
          .doUpdateSet({ seen_at: now, expires_at: expiresAt })
          .where('seen_signs.expires_at', '<=', now),
      )
      .executeTakeFirst();
    if (now - this.prunedAt >= SIGN_PRUNE_INTERVAL_MS) {
      this.prunedAt = now;
      await this.db.deleteFrom('seen_signs').where('expires_at', '<=', now).execute();
    }
    return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
