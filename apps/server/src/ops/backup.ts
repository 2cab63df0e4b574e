import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  file: string;
  bytes: number;
  /** SQLite: pages copied; PostgreSQL: 0. */
  pages: number;
}

/** `sunwatch-20261128T221500Z.db` (or `.dump`) in `dir`. */
export function backupFileName(dir: string, now: number, ext: 'db' | 'dump'): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return path.join(dir, `sunwatch-${stamp}.${ext}`);
}

/**
 * Online backup of the SQLite database (issue 16): better-sqlite3's backup API (SQLite's
 * `sqlite3_backup_*`) copies the pages while the server keeps reading and writing — the copy is
 * one read transaction, so the file is one consistent snapshot (WAL content included). The copy is then opened and checked (`pragma integrity_check`). Writes to a temporary
 * name first and renames, so a half-written file never carries the final name.
 */
export async function backupSqlite(sourcePath: string, dest: string): Promise<BackupResult> {
  if (!fs.existsSync(sourcePath)) throw new Error(`No SQLite database at ${sourcePath}`);
  if (fs.existsSync(dest)) throw new Error(`${dest} exists already`);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.partial`;
  fs.rmSync(tmp, { force: true });
  const src = new SQLite(sourcePath, { fileMustExist: true });
  let pages = 0;
  try {
    src.pragma('busy_timeout = 5000');
    // After the first step, the rest in ONE step: a write by another connection (the running
    // server) between two steps restarts the copy, so small steps never finish on a busy server.
    // In WAL mode the step's read transaction does not block the server's writers.
    const r = await src.backup(tmp, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        return Math.max(100, totalPages * 2);
      },
    });
    pages = r.totalPages;
  } finally {
    src.close();
  }
  const check = new SQLite(tmp, { readonly: true, fileMustExist: true });
  try {
    const ok = check.pragma('integrity_check', { simple: true });
    if (ok !== 'ok') throw new Error(`The backup fails its integrity check: ${String(ok)}`);
  } finally {
    check.close();
  }
  fs.renameSync(tmp, dest);
  fs.chmodSync(dest, 0o600);
  return { file: dest, bytes: fs.statSync(dest).size, pages };
}

/**
 * PostgreSQL: `pg_dump --format=custom` of the database at `url` into `dest` (restore with
 * `pg_restore`). Needs the `pg_dump` binary of the server's major version (or newer) on PATH;
 * the password travels in the environment (PGPASSWORD), not on the command line.
 */
export async function backupPostgres(url: string, dest: string, pgDump = 'pg_dump'): Promise<BackupResult> {
  if (fs.existsSync(dest)) throw new Error(`${dest} exists already`);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const u = new URL(url);
  const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
  u.password = '';
  const tmp = `${dest}.partial`;
  await new Promise<void>((resolve, reject) => {
    const p = spawn(pgDump, ['--format=custom', '--no-owner', `--file=${tmp}`, `--dbname=${u.toString()}`], {
      env,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', (e) => reject(new Error(`Cannot run ${pgDump}: ${e.message}`)));
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${pgDump} exited with ${code}: ${err.trim()}`)),
    );
  });
  fs.renameSync(tmp, dest);
  fs.chmodSync(dest, 0o600);
  return { file: dest, bytes: fs.statSync(dest).size, pages: 0 };
}
