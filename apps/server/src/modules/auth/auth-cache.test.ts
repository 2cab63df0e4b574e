import { describe, expect, it } from 'vitest';
import type { Caller } from '../../context.js';
import type { AccountRow } from '../accounts/accounts.repository.js';
import { AuthCache } from './auth-cache.js';

const caller: Caller = {
  accountId: 1,
  usr: 'u',
  role: 0,
  path: '1/',
  status: 0,
  adminOf: null,
  permissions: null,
  sessionId: 7,
};
const account = { id: 1, usr: 'u', role: 0, path: '1/', status: 0, qname: 'U' } as AccountRow;
const session = { caller, secret: 's'.repeat(40), account };

/** An epoch source whose reads are counted and can be held open. */
function epochSource() {
  let value = 0;
  let reads = 0;
  let hold: Promise<void> | undefined;
  return {
    set: (v: number) => (value = v),
    get reads() {
      return reads;
    },
    holdNext(): () => void {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return release;
    },
    read: async () => {
      reads += 1;
      const seen = value; // the value committed when the read started
      const h = hold;
      hold = undefined;
      if (h) await h;
      return seen;
    },
  };
}

describe('AuthCache', () => {
  it('serves a stored session while the epoch stands, and drops it when the epoch moved', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 0, maxEntries: 10 }, src.read);
    const miss = await cache.lookup('h', 0);
    expect(miss.hit).toBeUndefined();
    cache.store('h', session, 1000, miss.epoch);
    expect((await cache.lookup('h', 0)).hit?.secret).toBe(session.secret);
    src.set(1);
    expect((await cache.lookup('h', 0)).hit).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('refuses an expired session and one past its time to live', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 0, maxEntries: 10 }, src.read);
    cache.store('h', session, 1000, (await cache.lookup('h', 0)).epoch);
    expect((await cache.lookup('h', 1000)).hit).toBeUndefined();
    const short = new AuthCache({ ttlMs: 1, checkMs: 0, maxEntries: 10 }, src.read);
    short.store('h', session, 10_000, (await short.lookup('h', 0)).epoch);
    await new Promise((r) => setTimeout(r, 5));
    expect((await short.lookup('h', 0)).hit).toBeUndefined();
  });

  it('reads the epoch at most every checkMs, and again right after recheck()', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 60_000, maxEntries: 10 }, src.read);
    cache.store('h', session, 1000, (await cache.lookup('h', 0)).epoch);
    for (let i = 0; i < 5; i++) expect((await cache.lookup('h', 0)).hit).toBeDefined();
    expect(src.reads).toBe(1);
    src.set(1);
    expect((await cache.lookup('h', 0)).hit).toBeDefined(); // within the bound: not seen yet
    cache.recheck();
    expect((await cache.lookup('h', 0)).hit).toBeUndefined();
    expect(src.reads).toBe(2);
  });

  it('after recheck() never trusts a read that started before it', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 60_000, maxEntries: 10 }, src.read);
    cache.store('h', session, 1000, (await cache.lookup('h', 0)).epoch);
    cache.recheck();
    const release = src.holdNext();
    const early = cache.lookup('h', 0); // a read in flight that saw epoch 0
    await new Promise((r) => setTimeout(r, 2));
    src.set(1); // a revocation commits
    cache.recheck(); // this instance made it
    const late = await cache.lookup('h', 0); // must not join the early read
    expect(late.hit).toBeUndefined();
    release();
    await early;
    expect((await cache.lookup('h', 0)).hit).toBeUndefined();
  });

  it('does not keep rows read under an epoch that moved meanwhile', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 0, maxEntries: 10 }, src.read);
    const { epoch } = await cache.lookup('h', 0);
    src.set(1);
    await cache.lookup('other', 0); // another call saw the new epoch
    cache.store('h', session, 1000, epoch);
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries sessions, dropping the oldest', async () => {
    const src = epochSource();
    const cache = new AuthCache({ ttlMs: 60_000, checkMs: 60_000, maxEntries: 2 }, src.read);
    const { epoch } = await cache.lookup('a', 0);
    for (const h of ['a', 'b', 'c']) cache.store(h, session, 1000, epoch);
    expect(cache.size).toBe(2);
    expect((await cache.lookup('a', 0)).hit).toBeUndefined();
    expect((await cache.lookup('c', 0)).hit).toBeDefined();
  });
});
