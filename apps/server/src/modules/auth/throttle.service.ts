import crypto from 'node:crypto';
import { ApiError } from '@sunwatch/protocol';
import type { LoginThrottleConfig } from '../../config.js';
import type { ThrottleRepository } from './throttle.repository.js';
import type { DbHandle } from '../../db/transaction.js';

/**
 * Whose sign-in failed: an account id, or, for a username that does not exist, that name.
 * Unknown names are throttled exactly like accounts (same queries, same writes), so neither
 * the answer time nor the throttle reveals whether an account exists.
 */
export type ThrottleSubject = number | { unknownUsr: string };

const subjectId = (s: ThrottleSubject) =>
  typeof s === 'number' ? String(s) : `?${crypto.createHash('sha256').update(s.unknownUsr).digest('hex').slice(0, 32)}`;
const pairKey = (s: ThrottleSubject, ip: string) => `pair:${subjectId(s)}:${ip}`;
const addrKey = (ip: string) => `addr:${ip}`;
const acctKey = (s: ThrottleSubject) => `acct:${subjectId(s)}`;

export function throttled(ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(13, undefined, { seconds }, 'special.loginThrottled');
}

/**
 * Brute-force throttling of sign-in, kept in the database so that every instance sees it:
 * - one account from one address: after `accountAddressLimit` failures within the window, that
 *   address is blocked for that account, for a delay that doubles with each block;
 * - one address across accounts: after `addressLimit` failures the address is blocked;
 * - one account from everywhere: after `accountLimit` failures, addresses that never signed in
 *   to it successfully are refused while known addresses still get in (the owner keeps access).
 */
export class LoginThrottle {
  constructor(
    private readonly repo: ThrottleRepository,
    private readonly config: LoginThrottleConfig,
    private readonly now: () => number,
    /** Failures are counted durably: they stay when the failing call's transaction rolls back. */
    private readonly tx?: Pick<DbHandle, 'durable'>,
  ) {}

  /** Throws err 13 when the address is blocked outright. */
  async checkAddress(ip: string): Promise<void> {
    const now = this.now();
    const row = (await this.repo.get([addrKey(ip)])).get(addrKey(ip));
    if (row && row.blocked_until > now) throw throttled(row.blocked_until - now);
  }

  /** Throws err 13 when this address may not try this account now. */
  async checkAccount(subject: ThrottleSubject, ip: string): Promise<void> {
    const now = this.now();
    const rows = await this.repo.get([pairKey(subject, ip), acctKey(subject)]);
    const pair = rows.get(pairKey(subject, ip));
    if (pair && pair.blocked_until > now) throw throttled(pair.blocked_until - now);
    const acct = rows.get(acctKey(subject));
    if (
      acct &&
      acct.window_start + this.config.windowMs > now &&
      acct.failures >= this.config.accountLimit &&
      !(await this.repo.isKnownAddress(typeof subject === 'number' ? subject : -1, ip))
    ) {
      throw throttled(acct.window_start + this.config.windowMs - now);
    }
  }

  /** Counts a failed sign-in (or a wrong old password) against the subject, the pair and the address. */
  async recordFailure(subject: ThrottleSubject, ip: string): Promise<void> {
    const c = this.config;
    const count = async () => {
      await this.bump(pairKey(subject, ip), c.accountAddressLimit);
      await this.bump(acctKey(subject), undefined);
      await this.bump(addrKey(ip), c.addressLimit);
    };
    // Inside a mutating action's transaction the call is about to fail and roll back: the count
    // must stay, so it is written right after the rollback (DbHandle.durable).
    if (this.tx) await this.tx.durable(count);
    else await count();
  }

  /** A successful sign-in clears that pair's counter and makes the address a known one. */
  async recordSuccess(accountId: number, ip: string): Promise<void> {
    await this.repo.delete(pairKey(accountId, ip));
    await this.repo.rememberAddress(accountId, ip, this.now());
  }

  /**
   * Counts a failure atomically; every `limit` failures (within the window) become one block
   * whose length doubles with each block. Parallel failures all count and each full `limit`
   * of them blocks once, exactly as if they had come one after another.
   */
  private async bump(key: string, limit: number | undefined): Promise<void> {
    const now = this.now();
    const c = this.config;
    let row = await this.repo.increment(key, now, c.windowMs, 4 * c.windowMs);
    if (limit === undefined || limit <= 0) return;
    for (let attempt = 0; attempt < 20 && row.failures >= limit; attempt++) {
      const until = now + Math.min(c.baseDelayMs * 2 ** row.blocks, c.maxDelayMs);
      await this.repo.block(key, limit, row.blocks, until, now);
      const fresh = (await this.repo.get([key])).get(key);
      if (!fresh) return;
      row = fresh;
    }
  }
}
