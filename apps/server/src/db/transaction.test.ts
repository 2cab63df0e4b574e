import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db.js';
import { currentDb, DbHandle } from './transaction.js';

/** Transactions by async context on SQLite (one connection: a wrong join would hang, not fail). */
describe('DbHandle (SQLite in memory)', () => {
  let database: DatabaseHandle;
  let h: DbHandle;

  const keys = async () =>
    (await database.db.selectFrom('company_keys').select('key_hash').orderBy('key_hash').execute()).map((r) => r.key_hash);
  const insertKey = (key: string) =>
    currentDb(database.db)
      .insertInto('company_keys')
      .values({ key_hash: key, enabled: 1, created_at: 0, updated_at: 0 })
      .execute();

  beforeAll(async () => {
    database = openDatabase({ sqlitePath: ':memory:', databaseUrl: undefined });
    await migrateToLatest(database);
    h = new DbHandle(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('outside a transaction the current executor is the root', () => {
    expect(h.db).toBe(database.db);
    expect(h.inTransaction).toBe(false);
  });

  it('commits, and a nested transaction joins the outer one', async () => {
    await h.transaction(async (trx) => {
      expect(h.db).toBe(trx);
      await insertKey('a1');
      await new DbHandle(database.db).transaction(async (inner) => {
        expect(inner).toBe(trx);
        await insertKey('a2');
      });
    });
    expect(await keys()).toEqual(expect.arrayContaining(['a1', 'a2']));
  });

  it('rolls back everything, the nested part included, when the outer one throws', async () => {
    await expect(
      h.transaction(async () => {
        await insertKey('b1');
        await h.transaction(() => insertKey('b2'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await keys()).not.toContain('b1');
    expect(await keys()).not.toContain('b2');
  });

  it('durable writes run after the rollback, on the root', async () => {
    await expect(
      h.transaction(async () => {
        await h.durable(async () => {
          expect(h.inTransaction).toBe(false);
          await insertKey('c1');
        });
        await insertKey('c2');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await keys()).toContain('c1');
    expect(await keys()).not.toContain('c2');
  });

  it('a timer started inside uses the root once the transaction ended', async () => {
    let later: Promise<void> | undefined;
    await h.transaction(async () => {
      later = new Promise((resolve, reject) => {
        setTimeout(() => {
          expect(h.inTransaction).toBe(false);
          insertKey('d1').then(() => resolve(), reject);
        }, 20);
      });
    });
    await later;
    expect(await keys()).toContain('d1');
  });

  it('20 concurrent transactions serialise on the single connection without deadlock', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.transaction(async () => {
          await insertKey(`e${i}`);
          await h.transaction(() => insertKey(`f${i}`));
        }),
      ),
    );
    const all = await keys();
    expect(all.filter((k) => /^[ef]\d+$/.test(k))).toHaveLength(40);
  });
});
