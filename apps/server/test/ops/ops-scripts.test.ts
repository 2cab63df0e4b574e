import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AuthDat } from '@sunwatch/protocol';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPostgres, backupSqlite } from '../../src/ops/backup.js';
import { rotateMasterKey } from '../../src/ops/rotate-master-key.js';
import { Keyring, loadMasterKey } from '../../src/security/keyring.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 16, operations scripts (docs/deploy.md): `npm run backup` (SQLite online backup through
 * better-sqlite3's backup API while the server writes; `pg_dump` on PostgreSQL, restored with
 * pg_restore) and `npm run rotate-master-key` (every wrapped secret moved to the new MASTER_KEY in
 * one transaction; a server on the new key signs the old users in and honours existing sessions;
 * a wrong current key changes nothing).
 */
const run = promisify(execFile);
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';

/** Runs a server package script as an operator would (`npm run <script>` in apps/server). */
async function npmRun(script: string, args: string[], env: Record<string, string | undefined>) {
  return run('npm', ['run', '--silent', script, '--', ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, INIT_CWD: SERVER_DIR, LOG_LEVEL: 'silent', ...env },
    timeout: 30_000,
  });
}

function dbEnv(s: TestServer): Record<string, string | undefined> {
  return s.config.databaseUrl
    ? { DATABASE_URL: s.config.databaseUrl, DATA_DIR: s.dataDir }
    : { SQLITE_PATH: s.config.sqlitePath, DATA_DIR: s.dataDir, DATABASE_URL: '' };
}

const countOf = async (s: TestServer, table: 'accounts' | 'samples') =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(s.ctx.db)).rows[0]!.n);

describe.each(engines)('ops scripts ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('npm run backup: an online backup that restores to the same data', async () => {
    const file = path.join(s.dataDir, 'out', engine.name === 'sqlite' ? 'b.db' : 'b.dump');
    const accounts = await countOf(s, 'accounts');
    if (engine.name === 'sqlite') {
      // The script as an operator runs it (once: it is the same code on both engines).
      const { stdout } = await npmRun('backup', [file], dbEnv(s));
      expect(stdout).toContain(`backup written: ${file}`);
    } else {
      await backupPostgres(s.config.databaseUrl!, file);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    if (engine.name === 'sqlite') {
      const b = new SQLite(file, { readonly: true });
      try {
        expect(b.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(b.prepare('select count(*) from accounts').pluck().get()).toBe(accounts);
      } finally {
        b.close();
      }
    } else {
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
      const name = `sunwatch_r_${crypto.randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
        const u = new URL(PG_URL);
        u.pathname = `/${name}`;
        const pw = decodeURIComponent(u.password);
        u.password = '';
        await run('pg_restore', ['--no-owner', `--dbname=${u.toString()}`, file], {
          env: { ...process.env, PGPASSWORD: pw },
        });
        u.password = pw;
        const c = new pg.Client({ connectionString: u.toString() });
        await c.connect();
        try {
          expect(Number((await c.query('select count(*) as n from accounts')).rows[0].n)).toBe(accounts);
          // The partitioned samples table comes back partitioned.
          expect((await c.query(`select relkind from pg_class where relname = 'samples'`)).rows[0].relkind).toBe('p');
        } finally {
          await c.end();
        }
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
    // The same file is never overwritten.
    await expect(
      s.config.databaseUrl ? backupPostgres(s.config.databaseUrl, file) : backupSqlite(s.config.sqlitePath, file),
    ).rejects.toThrow(/exists already/);
  }, 40_000);

  it.runIf(engine.name === 'sqlite')(
    'the SQLite backup is one consistent snapshot while the server writes',
    async () => {
      const raw = s.ctx.database.sqlite!;
      const ins = raw.prepare('insert into samples (device_id, ts, data) values (?, ?, ?)');
      const blob = Buffer.alloc(400, 3);
      raw.transaction(() => {
        for (let i = 0; i < 20_000; i++) ins.run(990001, i, blob);
      })();
      const before = await countOf(s, 'samples');
      let writes = 0;
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          // Each write is one transaction of 10 rows: a snapshot holds whole transactions only.
          raw.transaction(() => {
            for (let k = 0; k < 10; k++) ins.run(990002, writes * 10 + k, blob);
          })();
          writes += 1;
          await new Promise((r) => setImmediate(r));
        }
      })();
      const file = path.join(s.dataDir, 'out', 'snap.db');
      const r = await backupSqlite(s.config.sqlitePath, file);
      stop = true;
      await writer;
      expect(writes).toBeGreaterThan(0); // the server's connection wrote during the copy
      expect(r.pages).toBeGreaterThan(100);
      const b = new SQLite(file, { readonly: true });
      try {
        const n = Number(b.prepare('select count(*) from samples').pluck().get());
        expect(n).toBeGreaterThanOrEqual(before);
        expect(n).toBeLessThanOrEqual(before + writes * 10);
        expect((n - before) % 10).toBe(0);
      } finally {
        b.close();
      }
    },
    30_000,
  );

  it('npm run rotate-master-key: every secret under the new key, sessions and sign-ins keep working', async () => {
    const login = await s.login('operator', 'Operator_2026');
    expect(login.err).toBe(0);
    const session = login.dat as AuthDat;
    const oldKey = loadMasterKey(s.config);
    const newKey = crypto.randomBytes(32);
    const snapshot = async () =>
      (await s.ctx.db.selectFrom('accounts').select(['id', 'pwd_cipher', 'data_key']).orderBy('id').execute()).map(
        (a) => ({ ...a }),
      );
    const accountsBefore = await snapshot();
    const old = new Keyring(oldKey);
    const passwords = accountsBefore.map((a) => old.openPassword({ pwdCipher: a.pwd_cipher, dataKey: a.data_key }));

    // A wrong current key: refused, nothing written.
    const wrong = crypto.randomBytes(32);
    await expect(rotateMasterKey(s.ctx.db, wrong, newKey)).rejects.toThrow(/does not open/);
    expect(await snapshot()).toEqual(accountsBefore);

    if (engine.name === 'sqlite') {
      // The script as an operator runs it (once: it is the same code on both engines).
      const { stdout } = await npmRun('rotate-master-key', [], { ...dbEnv(s), NEW_MASTER_KEY: newKey.toString('hex') });
      expect(stdout).toMatch(/master key rotated: \d+ account data keys, \d+ session secrets/);
      // The key file now holds the new key, the old one kept beside it.
      expect(loadMasterKey(s.config).equals(newKey)).toBe(true);
      expect(fs.readdirSync(s.dataDir).some((f) => f.startsWith('master.key.rotated-'))).toBe(true);
    } else {
      const r = await rotateMasterKey(s.ctx.db, oldKey, newKey);
      expect(r.accounts).toBe(accountsBefore.length);
      expect(r.sessions).toBeGreaterThan(0);
    }

    const after = await snapshot();
    const fresh = new Keyring(newKey);
    after.forEach((a, i) => {
      expect(a.pwd_cipher).toBe(accountsBefore[i]!.pwd_cipher);
      expect(a.data_key).not.toBe(accountsBefore[i]!.data_key);
      expect(fresh.openPassword({ pwdCipher: a.pwd_cipher, dataKey: a.data_key })).toBe(passwords[i]);
      expect(() => old.openPassword({ pwdCipher: a.pwd_cipher, dataKey: a.data_key })).toThrow();
    });
    const sessions = await s.ctx.db.selectFrom('sessions').select(['token_hash', 'secret_cipher']).execute();
    expect(sessions.length).toBeGreaterThan(0);
    for (const x of sessions) expect(() => fresh.openSessionSecret(x.secret_cipher, x.token_hash)).not.toThrow();

    // A server on the new key (SQLite: the same data dir, it reads the rotated master.key;
    // PostgreSQL: MASTER_KEY) honours the old session and signs the same user in with the same password.
    const s2 = await startTestServer(engine, {
      shareWith: s,
      seed: false,
      config: { masterKey: engine.name === 'sqlite' ? undefined : newKey.toString('hex') },
    });
    try {
      const r = await s2.call(session, 'queryAccountInfo');
      expect(r.err).toBe(0);
      expect((await s2.login('operator', 'Operator_2026')).err).toBe(0);
    } finally {
      await s2.stop();
    }
  }, 40_000);
});
