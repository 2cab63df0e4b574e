import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import { postgresDialect, setPgInt8Parser, sqliteDialect, type SqlDialect } from './dialect.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: SqlDialect;
  /** The raw better-sqlite3 connection (SQLite only), for the ingestion fast path. */
  sqlite?: SQLite.Database;
  /** The PostgreSQL pool (PostgreSQL only), for the pool gauges of /metrics. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** Told when an idle pooled PostgreSQL connection dies (the pool replaces it on the next query). */
export type IdleConnectionErrorHandler = (err: Error) => void;

/**
 * SQLite (WAL, foreign keys) by default; PostgreSQL when `databaseUrl` is set.
 *
 * An idle pooled connection that the server ends (a PostgreSQL restart, an administrator's
 * `pg_terminate_backend`, `DROP DATABASE … WITH (FORCE)`) makes `pg.Pool` emit `error`; without a
 * listener that is an uncaught exception that takes the whole process down. The pool already drops
 * the dead client, so the error is only reported (`onIdleError`, default: a process warning).
 */
export function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'sqlitePath'>,
  onIdleError: IdleConnectionErrorHandler = (err) =>
    process.emitWarning(`PostgreSQL idle connection lost: ${err.message}`),
): DatabaseHandle {
  if (config.databaseUrl) {
    setPgInt8Parser();
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    pool.on('error', onIdleError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: postgresDialect, pool, close: () => db.destroy() };
  }
  if (config.sqlitePath !== ':memory:') fs.mkdirSync(path.dirname(config.sqlitePath), { recursive: true });
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
  return { db, dialect: sqliteDialect, sqlite, close: () => db.destroy() };
}

/** Prepared statements kept per SQLite connection (distinct SQL texts; Kysely's are few and parameterised). */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The connection Kysely's SQLite driver sees, with `prepare` answered from a cache keyed by the SQL
 * text: preparing (parsing and planning) was a sixth of the CPU of a signed read (issue 16 profile),
 * and Kysely prepares every query it runs. A statement that is busy (a result still iterated by a
 * stream) is never handed out twice: a fresh one is prepared. SQLite re-prepares a cached statement
 * by itself after a schema change. The cache drops its oldest entry when full.
 */
export function cachingStatements(sqlite: SQLite.Database): Pick<SQLite.Database, 'prepare' | 'close'> {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      const hit = cache.get(source);
      if (hit && !hit.busy) return hit;
      const stmt = sqlite.prepare(source);
      if (!hit) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(source, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      return sqlite.close();
    },
  } as Pick<SQLite.Database, 'prepare' | 'close'>;
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider(handle.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`, {
      cause: error,
    });
  }
}
