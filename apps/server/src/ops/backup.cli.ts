import path from 'node:path';
import { loadConfig } from '../config.js';
import { backupFileName, backupPostgres, backupSqlite } from './backup.js';

/**
 * `npm run backup [-- <file>]` (issue 16): an online backup of the database the server's
 * environment names, while the server runs. SQLite: better-sqlite3's backup API (a consistent
 * snapshot, integrity-checked); PostgreSQL (DATABASE_URL): `pg_dump --format=custom`. Without a
 * file name: `<DATA_DIR>/backups/sunwatch-<UTC time>.db|.dump` (BACKUP_DIR overrides the folder).
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const dir = process.env.BACKUP_DIR?.trim() || path.join(config.dataDir, 'backups');
  const arg = process.argv[2] ? path.resolve(process.env.INIT_CWD || process.cwd(), process.argv[2]) : undefined;
  const r = config.databaseUrl
    ? await backupPostgres(config.databaseUrl, arg ?? backupFileName(dir, Date.now(), 'dump'))
    : await backupSqlite(config.sqlitePath, arg ?? backupFileName(dir, Date.now(), 'db'));
  console.log(`backup written: ${r.file} (${(r.bytes / 1e6).toFixed(1)} MB)`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
