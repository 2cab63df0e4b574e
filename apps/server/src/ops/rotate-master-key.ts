import type { Db } from '../db/db.js';
import { Keyring } from '../security/keyring.js';

export interface RotationResult {
  /** Account data keys re-wrapped. */
  accounts: number;
  /** Session secrets re-sealed. */
  sessions: number;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/** A 32-byte key from 64 hex characters; throws with `what` in the message otherwise. */
export function parseHexKey(hex: string | undefined, what: string): Buffer {
  const v = hex?.trim() ?? '';
  if (!HEX_KEY.test(v)) throw new Error(`${what} must be 64 hex characters (32 bytes)`);
  return Buffer.from(v, 'hex');
}

/**
 * Rotation of MASTER_KEY (issue 16, docs/deploy.md "Key rotation"). Every secret the master key
 * protects is taken from `oldKey` to `newKey` in ONE transaction: the accounts' data keys
 * (`accounts.data_key`, wrapped by the master key; the password ciphers under them stay as they
 * are) and the sessions' secrets (`sessions.secret_cipher`, sealed with a key derived from the
 * master key). Either every row moves or none does: a row the old key does not open aborts the
 * whole rotation (a wrong MASTER_KEY, or a key already rotated) and nothing is written.
 *
 * Values only derived from the master key and never stored (the `pprAuth` of a sign-in, signed
 * download links of firmware and reports) change with it: outstanding links stop working and
 * pprAuth values change at the next sign-in.
 */
export async function rotateMasterKey(db: Db, oldKey: Buffer, newKey: Buffer): Promise<RotationResult> {
  if (oldKey.equals(newKey)) throw new Error('The new master key equals the current one');
  const from = new Keyring(oldKey);
  const to = new Keyring(newKey);
  return db.transaction().execute(async (trx) => {
    let accounts = 0;
    let sessions = 0;
    const accs = await trx.selectFrom('accounts').select(['id', 'data_key']).orderBy('id').execute();
    for (const a of accs) {
      let wrapped: string;
      try {
        wrapped = from.rewrapDataKey(a.data_key, to);
      } catch {
        throw new Error(`The current master key does not open the data key of account ${a.id}: nothing was changed`);
      }
      await trx.updateTable('accounts').set({ data_key: wrapped }).where('id', '=', a.id).execute();
      accounts += 1;
    }
    const ss = await trx.selectFrom('sessions').select(['id', 'token_hash', 'secret_cipher']).orderBy('id').execute();
    for (const x of ss) {
      let sealed: string;
      try {
        sealed = from.resealSessionSecret(x.secret_cipher, x.token_hash, to);
      } catch {
        throw new Error(`The current master key does not open the secret of session ${x.id}: nothing was changed`);
      }
      await trx.updateTable('sessions').set({ secret_cipher: sealed }).where('id', '=', x.id).execute();
      sessions += 1;
    }
    return { accounts, sessions };
  });
}
