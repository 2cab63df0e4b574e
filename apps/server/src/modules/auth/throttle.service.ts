import { ApiError } from '@sunwatch/protocol';
import type { LoginThrottleConfig } from '../../config.js';
import type { ThrottleRepository } from './throttle.repository.js';

const pairKey = (accountId: number, ip: string) => `pair:${accountId}:${ip}`;
const addrKey = (ip: string) => `addr:${ip}`;
const acctKey = (accountId: number) => `acct:${accountId}`;

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
  ) {}

  /** Throws err 13 when the address is blocked outright. */
  async checkAddress(ip: string): Promise<void> {
    const now = this.now();
    const row = (await this.repo.get([addrKey(ip)])).get(addrKey(ip));
    if (row && row.blocked_until > now) throw throttled(row.blocked_until - now);
  }

  /** Throws err 13 when this address may not try this account now. */
  async checkAccount(accountId: number, ip: string): Promise<void> {
    const now = this.now();
    const rows = await this.repo.get([pairKey(accountId, ip), acctKey(accountId)]);
    const pair = rows.get(pairKey(accountId, ip));
    if (pair && pair.blocked_until > now) throw throttled(pair.blocked_until - now);
    const acct = rows.get(acctKey(accountId));
    if (
      acct &&
      acct.window_start + this.config.windowMs > now &&
      acct.failures >= this.config.accountLimit &&
      !(await this.repo.isKnownAddress(accountId, ip))
    ) {
      throw throttled(acct.window_start + this.config.windowMs - now);
    }
  }

  async recordFailure(accountId: number | undefined, ip: string): Promise<void> {
    const c = this.config;
    if (accountId !== undefined) {
      await this.bump(pairKey(accountId, ip), c.accountAddressLimit);
      await this.bump(acctKey(accountId), undefined);
    }
    await this.bump(addrKey(ip), c.addressLimit);
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
