import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/db.js';

const postgres = engines.filter((e) => e.name === 'postgres');

/**
 * An idle pooled connection ended by the server (a PostgreSQL restart, pg_terminate_backend,
 * DROP DATABASE … WITH (FORCE)) must not crash the process: `pg.Pool` emits `error`, which without
 * a listener is an uncaught exception. The pool drops the dead client and the next query works.
 */
describe.skipIf(postgres.length === 0).each(postgres)(
  'an idle PostgreSQL connection ended by the server ($name)',
  (engine) => {
    let handle: DatabaseHandle;
    let drop: () => Promise<void> = () => Promise.resolve();
    let dataDir = '';
    let url = '';
    const reported: Error[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(`${os.tmpdir()}/sunwatch-pgidle-`);
      const database = await engine.createDatabase(dataDir);
      drop = database.drop;
      url = database.databaseUrl!;
      handle = openDatabase({ databaseUrl: database.databaseUrl, sqlitePath: database.sqlitePath }, (err) =>
        reported.push(err),
      );
      process.prependListener('uncaughtException', onUncaught);
    });
    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      await handle?.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('is reported to the handler, not thrown, and the pool serves the next query', async () => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(handle.db);
      const pid = rows[0]!.pid;
      // That connection is idle in the pool now; end it from a session of its own.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const ended = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
        expect(ended.rows[0]!.ok).toBe(true);
      } finally {
        await admin.end();
      }
      await expect.poll(() => reported.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(reported[0]!.message).toMatch(/terminating connection/);
      expect(uncaught).toEqual([]);
      const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
      expect(Number(again.rows[0]!.one)).toBe(1);
    });
  },
);
