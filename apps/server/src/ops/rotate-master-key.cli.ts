import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/db.js';
import { loadMasterKey } from '../security/keyring.js';
import { parseHexKey, rotateMasterKey } from './rotate-master-key.js';

/**
 * `npm run rotate-master-key` (issue 16): re-wraps every secret under NEW_MASTER_KEY, in one
 * transaction, on the database the server's environment names (DATABASE_URL, else the SQLite
 * file). The current key is MASTER_KEY, else `<DATA_DIR>/master.key`. Stop every server instance
 * first. With the key file, the file is replaced by the new key (the old one kept beside it as
 * `master.key.rotated-<time>` until you delete it); with MASTER_KEY, set MASTER_KEY to the new
 * value before starting the instances again.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const newKey = parseHexKey(process.env.NEW_MASTER_KEY, 'NEW_MASTER_KEY');
  const keyFile = path.join(config.dataDir, 'master.key');
  if (!config.masterKey && !fs.existsSync(keyFile))
    throw new Error(`No MASTER_KEY and no ${keyFile}: nothing to rotate`);
  const oldKey = loadMasterKey(config);
  const handle = openDatabase(config);
  try {
    const r = await rotateMasterKey(handle.db, oldKey, newKey);
    console.log(`master key rotated: ${r.accounts} account data keys, ${r.sessions} session secrets re-wrapped`);
  } finally {
    await handle.close();
  }
  if (config.masterKey) {
    console.log('Now set MASTER_KEY to the new key on every instance, then start them.');
  } else {
    const kept = `${keyFile}.rotated-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(keyFile, kept);
    fs.chmodSync(kept, 0o600);
    fs.writeFileSync(keyFile, newKey.toString('hex') + '\n', { mode: 0o600 });
    console.log(`${keyFile} now holds the new key; the old one is in ${kept} (delete it once all is well).`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
