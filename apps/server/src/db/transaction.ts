import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';

/** The transaction open in the current async context, and what waits for its end. */
interface TxFrame {
  root: Db;
  trx: Transaction<Database>;
  /** Set when the transaction has committed or rolled back (timers created inside outlive it). */
  done: boolean;
  /** Writes that must stay whatever the outcome; run on the root database once the transaction ended. */
  durable: Array<() => Promise<void>>;
}

const frames = new AsyncLocalStorage<TxFrame>();

function activeFrame(root: Db): TxFrame | undefined {
  const f = frames.getStore();
  return f && f.root === root && !f.done ? f : undefined;
}

/**
 * The executor a repository built on `root` must use now: the transaction open in this async
 * context (`DbHandle.transaction`), else `root`. Repositories keep the root Kysely instance they
 * were built with and read it through this, e.g. `private get db() { return currentDb(this.root); }`.
 */
export function currentDb(root: Db): Db {
  return activeFrame(root)?.trx ?? root;
}

/**
 * Transactions by context, not by parameter: `transaction(fn)` opens one transaction and runs
 * `fn` in an async context where every repository built on the same root database (through
 * `currentDb`) uses it. A `transaction()` inside another one joins it (Kysely has no nested
 * transactions, and SQLite has one connection: a second one would wait for itself forever).
 */
export class DbHandle {
  constructor(readonly root: Db) {}

  /** The current executor: the open transaction, else the root database. */
  get db(): Db {
    return currentDb(this.root);
  }

  get inTransaction(): boolean {
    return activeFrame(this.root) !== undefined;
  }

  /**
   * Runs `fn` in one transaction (joining the open one if any): committed when `fn` resolves,
   * rolled back when it throws. Durable writes queued inside run after the end, either way.
   */
  async transaction<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    const outer = activeFrame(this.root);
    if (outer) return fn(outer.trx);
    const frame: Omit<TxFrame, 'trx'> & { trx?: Transaction<Database> } = {
      root: this.root,
      done: false,
      durable: [],
    };
    let result: T;
    try {
      result = await this.root.transaction().execute((trx) => {
        frame.trx = trx;
        return frames.run(frame as TxFrame, () => fn(trx));
      });
    } catch (e) {
      frame.done = true;
      await this.runDurable(frame.durable);
      throw e;
    }
    frame.done = true;
    await this.runDurable(frame.durable);
    return result;
  }

  /**
   * A write that must stay even if the surrounding transaction rolls back (a failed sign-in
   * counted by the throttle, a stolen remember-token family revoked, then the call fails).
   * Outside a transaction it runs at once; inside, it runs on the root database right after
   * the transaction ended (so never inside it, and never waiting for it). A durable write that
   * fails makes the call fail with its error (a count that was not kept must not pass silently).
   */
  async durable(write: () => Promise<void>): Promise<void> {
    const f = activeFrame(this.root);
    if (f) f.durable.push(write);
    else await write();
  }

  private async runDurable(writes: Array<() => Promise<void>>): Promise<void> {
    for (const write of writes) await write();
  }
}
