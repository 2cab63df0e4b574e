import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 1;

/** Loads the 32-byte master key: config hex, else `<dataDir>/master.key` (generated once, mode 0600). */
export function loadMasterKey(config: { masterKey?: string; dataDir: string }): Buffer {
  if (config.masterKey) return Buffer.from(config.masterKey, 'hex');
  const file = path.join(config.dataDir, 'master.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${file} does not hold a 64-hex-character key`);
  return Buffer.from(hex, 'hex');
}

/** AES-256-GCM seal: base64(version | iv(12) | tag(16) | ciphertext). */
function seal(key: Buffer, plaintext: Buffer, aad: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ct]).toString('base64');
}

function open(key: Buffer, sealed: string, aad: string): Buffer {
  const buf = Buffer.from(sealed, 'base64');
  if (buf.length < 29 || buf[0] !== VERSION) throw new Error('Unknown ciphertext format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, buf.subarray(1, 13));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(buf.subarray(13, 29));
  return Buffer.concat([decipher.update(buf.subarray(29)), decipher.final()]);
}

/**
 * Envelope encryption (architecture.md §4). Each account has a random data key that
 * encrypts its password digest; the data key is stored wrapped by the master key. Session
 * secrets are sealed with a key derived from the master key, bound to their token hash.
 */
export class Keyring {
  private readonly sessionKey: Buffer;
  private readonly macKey: Buffer;

  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
    this.sessionKey = Buffer.from(crypto.hkdfSync('sha256', masterKey, '', 'sunwatch/session-secret', 32));
    this.macKey = Buffer.from(crypto.hkdfSync('sha256', masterKey, '', 'sunwatch/mac', 32));
  }

  /** Encrypts a password digest under a fresh data key; returns both for storage. */
  sealPassword(pwdSha1: string): { pwdCipher: string; dataKey: string } {
    const dataKey = crypto.randomBytes(32);
    return {
      pwdCipher: seal(dataKey, Buffer.from(pwdSha1, 'utf8'), 'sunwatch/pwd'),
      dataKey: seal(this.masterKey, dataKey, 'sunwatch/data-key'),
    };
  }

  openPassword(stored: { pwdCipher: string; dataKey: string }): string {
    const dataKey = open(this.masterKey, stored.dataKey, 'sunwatch/data-key');
    return open(dataKey, stored.pwdCipher, 'sunwatch/pwd').toString('utf8');
  }

  sealSessionSecret(secret: string, tokenHash: string): string {
    return seal(this.sessionKey, Buffer.from(secret, 'utf8'), `sunwatch/secret/${tokenHash}`);
  }

  openSessionSecret(sealed: string, tokenHash: string): string {
    return open(this.sessionKey, sealed, `sunwatch/secret/${tokenHash}`).toString('utf8');
  }

  /**
   * Key rotation (issue 16, `npm run rotate-master-key`): the data key wrapped by this keyring's
   * master key, wrapped again by `to`'s. The password cipher under the data key is unchanged.
   * Throws when this master key does not open it.
   */
  rewrapDataKey(wrapped: string, to: Keyring): string {
    return seal(to.masterKey, open(this.masterKey, wrapped, 'sunwatch/data-key'), 'sunwatch/data-key');
  }

  /** Key rotation: a session secret sealed under this keyring, sealed again under `to`'s session key. */
  resealSessionSecret(sealed: string, tokenHash: string, to: Keyring): string {
    return to.sealSessionSecret(this.openSessionSecret(sealed, tokenHash), tokenHash);
  }

  /** Keyed digest for opaque derived credentials (pprAuth). */
  mac(label: string, value: string): string {
    return crypto.createHmac('sha256', this.macKey).update(`${label}\u0000${value}`).digest('hex');
  }
}

export function randomHex(bytes: number): string {
  return crypto.randomBytes(bytes).toString('hex');
}

/** Tokens are stored only as SHA-256 hashes. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token.toLowerCase(), 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests (case-insensitive). */
export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
