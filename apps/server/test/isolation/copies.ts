import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/db.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import type { EngineName } from '../harness.js';

/**
 * Copies of one built fixture database, each served by its own app instance on a loopback port,
 * so that every mutating cell starts from the same state:
 * - SQLite: the template file is copied (the template's server is closed, its WAL checkpointed);
 * - PostgreSQL: `CREATE DATABASE <copy> TEMPLATE <template>` (nothing may be connected to the
 *   template while it is copied, so the fixture's own server is closed first).
 * Every copy shares the master key, so the sessions signed in on the template stay valid.
 */

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';
/** Fixed for every copy: sealed passwords and session secrets of the template must open. */
const MASTER_KEY = 'c0ffee'.repeat(10) + 'beef';

export interface ServedCopy {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

export interface FixtureStore {
  engine: EngineName;
  /** Serves the template itself (only while building the fixture). */
  serveTemplate(): Promise<ServedCopy>;
  /** A fresh copy of the template, served. Closing it drops the copy. */
  serveCopy(): Promise<ServedCopy>;
  dispose(): Promise<void>;
}

function configFor(dataDir: string, db: { databaseUrl?: string; sqlitePath: string }, now: () => number): AppConfig {
  const base = loadConfig({});
  return {
    ...base,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: db.databaseUrl,
    sqlitePath: db.sqlitePath,
    webRoot: path.join(dataDir, 'web'),
    seedDemo: false,
    masterKey: MASTER_KEY,
    logLevel: 'silent',
    trustProxy: true,
    now,
    telemetry: { ...base.telemetry, mqttPort: 0, mqttHost: '127.0.0.1' },
  };
}

async function serve(config: AppConfig, onClose: () => Promise<void>): Promise<ServedCopy> {
  const app = await buildApp(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (e) {
    await app.close();
    await onClose();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    ctx: app.ctx,
    async close() {
      await app.close();
      await onClose();
    },
  };
}

async function pgAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function pgUrl(name: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createFixtureStore(engine: EngineName, now: () => number): Promise<FixtureStore> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-isolation-'));
  const templateDir = path.join(root, 'template');
  fs.mkdirSync(templateDir);
  if (engine === 'sqlite') {
    const templateFile = path.join(templateDir, 'sunwatch.db');
    let n = 0;
    return {
      engine,
      serveTemplate: () => serve(configFor(templateDir, { sqlitePath: templateFile }, now), () => Promise.resolve()),
      async serveCopy() {
        n += 1;
        const dir = path.join(root, `copy-${n}`);
        fs.mkdirSync(dir);
        const file = path.join(dir, 'sunwatch.db');
        fs.copyFileSync(templateFile, file);
        for (const suffix of ['-wal', '-shm']) {
          if (fs.existsSync(templateFile + suffix)) fs.copyFileSync(templateFile + suffix, file + suffix);
        }
        return serve(configFor(dir, { sqlitePath: file }, now), () => {
          fs.rmSync(dir, { recursive: true, force: true });
          return Promise.resolve();
        });
      },
      dispose() {
        fs.rmSync(root, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const template = `sunwatch_iso_tpl_${crypto.randomBytes(5).toString('hex')}`;
  await pgAdmin(async (c) => {
    await c.query(`CREATE DATABASE ${template}`);
    await c.query(`ALTER DATABASE ${template} SET synchronous_commit = off`);
  });
  const unused = path.join(templateDir, 'unused.db');
  return {
    engine,
    serveTemplate: () =>
      serve(configFor(templateDir, { databaseUrl: pgUrl(template), sqlitePath: unused }, now), () => Promise.resolve()),
    async serveCopy() {
      const name = `sunwatch_iso_${crypto.randomBytes(6).toString('hex')}`;
      await pgAdmin(async (c) => {
        await c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        // A copy lives for one pass and is dropped: its commits need not wait for the disk
        // (the sign-replay row of every mutating call commits on its own, an fsync per cell).
        // Visibility and locking are unchanged, so every answer is the same.
        await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
      });
      return serve(configFor(templateDir, { databaseUrl: pgUrl(name), sqlitePath: unused }, now), () =>
        dropScratchDatabase(PG_URL, name),
      );
    },
    async dispose() {
      await dropScratchDatabase(PG_URL, template);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Thrown inside the action's transaction to roll it back after the handler answered. */
const ROLLBACK = Symbol('isolation-matrix-rollback');

export interface RollbackControl {
  /** Called inside each action transaction after its handler resolved, before the rollback. */
  inside: ((trx: Db) => Promise<void>) | undefined;
  restore(): void;
}

/**
 * Makes every action transaction of this app roll back after its handler answered: the reply is
 * the real one (the handler ran to the end, inside its transaction, audit rows included), but
 * nothing is committed, so the next cell starts from the same database. The dispatcher runs
 * every mutating action in `ctx.dbh.transaction` (docs/decisions.md "Writes in a transaction");
 * writes made outside it would survive, and the matrix checks that none did.
 */
export function rollbackEveryAction(ctx: AppContext): RollbackControl {
  const dbh = ctx.dbh;
  const original = dbh.transaction.bind(dbh);
  const control: RollbackControl = {
    inside: undefined,
    restore: () => {
      dbh.transaction = original;
    },
  };
  dbh.transaction = async <T>(fn: (trx: Db) => Promise<T>): Promise<T> => {
    if (dbh.inTransaction) return original(fn);
    let out: { value: T } | undefined;
    try {
      await original(async (trx) => {
        out = { value: await fn(trx) };
        if (control.inside) await control.inside(trx);
        throw ROLLBACK;
      });
    } catch (e) {
      if (e !== ROLLBACK) throw e;
    }
    return out!.value;
  };
  return control;
}
