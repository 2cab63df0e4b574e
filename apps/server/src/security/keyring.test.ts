import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Keyring, hashToken, loadMasterKey } from './keyring.js';

describe('keyring', () => {
  it('generates master.key once with 0600 permissions and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-key-'));
    const a = loadMasterKey({ dataDir: dir });
    const b = loadMasterKey({ dataDir: dir });
    expect(a.equals(b)).toBe(true);
    expect(a.length).toBe(32);
    expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true });
  });

  it('prefers the configured hex key', () => {
    expect(loadMasterKey({ dataDir: '/nonexistent', masterKey: 'ab'.repeat(32) }).toString('hex')).toBe('ab'.repeat(32));
  });

  it('encrypts password digests under per-account data keys wrapped by the master key', () => {
    const k = new Keyring(Buffer.alloc(32, 7));
    const digest = 'bd19f193c5f9afed25a79761ea2a13a10d6e2c74';
    const one = k.sealPassword(digest);
    const two = k.sealPassword(digest);
    expect(one.pwdCipher).not.toBe(two.pwdCipher);
    expect(one.dataKey).not.toBe(two.dataKey);
    expect(k.openPassword(one)).toBe(digest);
    expect(() => new Keyring(Buffer.alloc(32, 8)).openPassword(one)).toThrow();
    expect(() => k.openPassword({ pwdCipher: two.pwdCipher, dataKey: one.dataKey })).toThrow();
  });

  it('binds a sealed session secret to its token hash', () => {
    const k = new Keyring(Buffer.alloc(32, 1));
    const sealed = k.sealSessionSecret('s3cr3t', hashToken('aa'));
    expect(k.openSessionSecret(sealed, hashToken('aa'))).toBe('s3cr3t');
    expect(() => k.openSessionSecret(sealed, hashToken('bb'))).toThrow();
  });
});
