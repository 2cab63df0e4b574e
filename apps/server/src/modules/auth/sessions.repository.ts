import type { Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { RememberTokensTable, SessionsTable } from '../../db/schema.js';

export type SessionRow = Selectable<SessionsTable>;
export type RememberRow = Selectable<RememberTokensTable>;

/** Sessions (token + secret) and remember-me tokens; tokens are stored as SHA-256 hashes only. */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

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

  async revokeSession(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of the account, except `exceptId` if given. */
  async revokeAccountSessions(accountId: number, now: number, exceptId?: number): Promise<void> {
    let q = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    await q.execute();
  }

  async insertRemember(row: Omit<RememberRow, 'id' | 'revoked_at' | 'rotated_at'>): Promise<void> {
    await this.db
      .insertInto('remember_tokens')
      .values({ ...row, revoked_at: null, rotated_at: null })
      .execute();
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

  async revokeRememberFamily(family: string, now: number): Promise<void> {
    await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now })
      .where('family', '=', family)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAccountRemember(accountId: number, now: number): Promise<void> {
    await this.db
      .updateTable('remember_tokens')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Replay refusal (wire-protocol.md §4a): records a sign until `expiresAt`; false when it is
   * already recorded and unexpired. The insert-if-absent is one statement on the sign's primary
   * key, so of two instances racing with the same sign exactly one gets true. Expired rows are
   * pruned first (an expired row therefore never blocks a sign).
   */
  async recordSign(sign: string, now: number, expiresAt: number): Promise<boolean> {
    await this.db.deleteFrom('seen_signs').where('expires_at', '<=', now).execute();
    const res = await this.db
      .insertInto('seen_signs')
      .values({ sign: sign.toLowerCase(), seen_at: now, expires_at: expiresAt })
      .onConflict((oc) => oc.column('sign').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
