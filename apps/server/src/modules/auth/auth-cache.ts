import { performance } from 'node:perf_hooks';
import type { Caller } from '../../context.js';
import type { AccountRow } from '../accounts/accounts.repository.js';

/** Settings of the session cache (AUTH_CACHE_TTL_MS, AUTH_CACHE_CHECK_MS, AUTH_CACHE_MAX). */
export interface AuthCacheConfig {
  /** Longest time an authenticated session is served from memory (0 = no cache: every call reads the database). */
  ttlMs: number;
  /**
   * How old the last read of the shared auth epoch may be when a cached session is used: the
   * bound on how long another instance's revocation or account change can go unseen here
   * (0 = read it on every call).
   */
  checkMs: number;
  /** Sessions kept; the oldest are dropped beyond it. */
  maxEntries: number;
}

export const DEFAULT_AUTH_CACHE: AuthCacheConfig = { ttlMs: 30_000, checkMs: 200, maxEntries: 20_000 };

/** An authenticated session as `AuthService.authenticate` answers it. */
export interface AuthenticatedSession {
  caller: Caller;
  /** The unwrapped session secret (kept in memory only, never logged). */
  secret: string;
  /**
   * The caller's account row as read with the session (frozen, shared by every hit): the epoch
   * moves on a change of any of its columns but the sign-in bookkeeping (migration 0049), so it is
   * as fresh as the caller itself. `queryAccountInfo` of the caller answers from it.
   */
  account: Readonly<AccountRow>;
}

interface Entry extends AuthenticatedSession {
  /** The epoch known before the rows behind this entry were read. */
  epoch: number;
  /** performance.now() when it was read. */
  at: number;
  /** The session's expiry (epoch ms on the app clock), checked on every use. */
  expiresAt: number;
}

interface EpochRead {
  /** performance.now() when the read started: it sees every change committed before. */
  start: number;
  promise: Promise<number>;
}

/**
 * The per-instance cache of authenticated sessions (token hash → caller and unwrapped secret),
 * kept correct across instances by the database's auth epoch (migrations 0043, 0049): triggers
 * raise it in the transaction of every session revocation or deletion and of every change to an
 * account column but the sign-in bookkeeping (last_login_*). An entry is used only while it was read under the epoch
 * most recently seen, and that epoch was read at most `checkMs` ago (or after the last
 * `recheck()`); when the epoch moved, every entry is dropped. So a change made through any
 * instance is honoured here within `checkMs` (plus one read of one row), and immediately after
 * a state-changing call of this instance (the dispatcher calls `recheck()` once it committed).
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private knownEpoch: number | undefined;
  /** Start of the read that gave knownEpoch. */
  private readAt = -Infinity;
  /** No read that started before this may be trusted (recheck()). */
  private staleBefore = -Infinity;
  private inflight: EpochRead | undefined;

  constructor(
    private readonly config: AuthCacheConfig,
    private readonly readEpoch: () => Promise<number>,
  ) {}

  get enabled(): boolean {
    return this.config.ttlMs > 0;
  }

  /** The session behind `tokenHash` if cached and still valid, with the epoch a miss must be stored under. */
  async lookup(tokenHash: string, now: number): Promise<{ hit?: AuthenticatedSession; epoch: number }> {
    const epoch = await this.currentEpoch();
    const e = this.entries.get(tokenHash);
    if (!e) return { epoch };
    if (e.epoch !== epoch || performance.now() - e.at > this.config.ttlMs || e.expiresAt <= now) {
      this.entries.delete(tokenHash);
      return { epoch };
    }
    return { hit: { caller: { ...e.caller }, secret: e.secret, account: e.account }, epoch };
  }

  /** Keeps a session read from the database under the epoch `lookup` answered before the read. */
  store(tokenHash: string, session: AuthenticatedSession, expiresAt: number, epoch: number): void {
    if (epoch !== this.knownEpoch) return; // the epoch moved while the rows were read
    if (this.entries.size >= this.config.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { ...session, caller: { ...session.caller }, epoch, at: performance.now(), expiresAt });
  }

  /** The next lookup reads the epoch again (after this instance changed sessions or accounts). */
  recheck(): void {
    this.staleBefore = performance.now();
  }

  /** Drops everything (tests, shutdown). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private async currentEpoch(): Promise<number> {
    const now = performance.now();
    const needed = Math.max(now - this.config.checkMs, this.staleBefore);
    if (this.knownEpoch !== undefined && this.readAt >= needed) return this.knownEpoch;
    // Join a read in flight only if it started late enough to see what must be seen.
    let read = this.inflight;
    if (!read || read.start < needed) {
      const start = now;
      const promise = this.readEpoch().then((epoch) => {
        if (start > this.readAt) {
          if (epoch !== this.knownEpoch) this.entries.clear();
          this.knownEpoch = epoch;
          this.readAt = start;
        }
        return epoch;
      });
      read = { start, promise };
      this.inflight = read;
      void promise.then(
        () => {
          if (this.inflight === read) this.inflight = undefined;
        },
        () => {
          if (this.inflight === read) this.inflight = undefined;
        },
      );
    }
    await read.promise;
    // The freshest epoch known (a later read may have finished first).
    return this.knownEpoch!;
  }
}
