import type { Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { VerificationCodesTable } from '../../db/schema-selfservice.js';

export type CodeRow = Selectable<VerificationCodesTable>;

/** Tables `verification_codes` and `picture_codes` (migration 0019). */
export class CodeRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async insert(row: Omit<CodeRow, 'id' | 'attempts' | 'confirmed' | 'used_at'>): Promise<number> {
    const r = await this.db
      .insertInto('verification_codes')
      .values({ ...row, attempts: 0, confirmed: 0, used_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async countSince(by: { target: string } | { ip: string }, since: number): Promise<number> {
    let q = this.db.selectFrom('verification_codes').where('created_at', '>', since);
    q = 'target' in by ? q.where('target', '=', by.target) : q.where('ip', '=', by.ip);
    const r = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** The newest unused code of a purpose for a target (and account, when given). */
  async latest(purpose: string, target: string | undefined, accountId: number | null | undefined): Promise<CodeRow | undefined> {
    let q = this.db.selectFrom('verification_codes').selectAll().where('purpose', '=', purpose).where('used_at', 'is', null);
    if (target !== undefined) q = q.where('target', '=', target);
    if (accountId != null) q = q.where('account_id', '=', accountId);
    const r = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
    return r ? { ...r, id: Number(r.id), created_at: Number(r.created_at), expires_at: Number(r.expires_at) } : undefined;
  }

  async addAttempt(id: number): Promise<void> {
    await this.db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async markConfirmed(id: number): Promise<void> {
    await this.db.updateTable('verification_codes').set({ confirmed: 1 }).where('id', '=', id).execute();
  }

  async markUsed(id: number, now: number): Promise<void> {
    await this.db.updateTable('verification_codes').set({ used_at: now }).where('id', '=', id).execute();
  }

  async insertPicture(row: { key: string; code_hash: string; ip: string; created_at: number; expires_at: number }): Promise<void> {
    await this.db.insertInto('picture_codes').values(row).execute();
  }

  async picturesSince(ip: string, since: number): Promise<number> {
    const r = await this.db
      .selectFrom('picture_codes')
      .where('ip', '=', ip)
      .where('created_at', '>', since)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async picture(key: string): Promise<{ code_hash: string; expires_at: number } | undefined> {
    const r = await this.db.selectFrom('picture_codes').select(['code_hash', 'expires_at']).where('key', '=', key).executeTakeFirst();
    return r ? { code_hash: r.code_hash, expires_at: Number(r.expires_at) } : undefined;
  }

  async deletePicture(key: string): Promise<void> {
    await this.db.deleteFrom('picture_codes').where('key', '=', key).execute();
  }

  /**
   * Housekeeping: verification and picture codes created before `cutoff` (by then used or
   * expired: a code lives at most 5 minutes). Rows removed.
   */
  async purgeBefore(cutoff: number): Promise<{ codes: number; pictures: number }> {
    const codes = await this.db.deleteFrom('verification_codes').where('created_at', '<', cutoff).executeTakeFirst();
    const pictures = await this.db.deleteFrom('picture_codes').where('created_at', '<', cutoff).executeTakeFirst();
    return { codes: Number(codes.numDeletedRows), pictures: Number(pictures.numDeletedRows) };
  }

  /** Housekeeping: picture codes past their expiry. */
  async deleteExpiredPictures(now: number): Promise<void> {
    await this.db.deleteFrom('picture_codes').where('expires_at', '<', now).execute();
  }
}
