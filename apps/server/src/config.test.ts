import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_KEYS } from '@sunwatch/protocol';
import { REPO_ROOT, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the defaults of docs/contracts.md, paths under the repository root', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe(path.join(REPO_ROOT, 'data'));
    expect(c.sqlitePath).toBe(path.join(REPO_ROOT, 'data', 'sunwatch.db'));
    expect(c.webRoot).toBe(path.join(REPO_ROOT, 'apps', 'web', 'dist'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.companyKeys).toEqual([...DEFAULT_COMPANY_KEYS]);
    expect(c.seedDemo).toBe(true);
    expect(c.replayProtection).toBe(false);
    expect(c.tokenTtlSeconds).toBe(604800);
    expect(c.loginThrottle).toMatchObject({
      accountAddressLimit: 5,
      addressLimit: 30,
      accountLimit: 20,
      windowMs: 900000,
    });
  });

  it('reads the environment', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: 'var/sw',
      INIT_CWD: '/srv',
      DATABASE_URL: 'postgres://u:p@db/sw',
      COMPANY_KEYS: 'a, b,,c',
      DEMO_DATA: '0',
      MASTER_KEY: 'AB'.repeat(32),
      LOGIN_THROTTLE_ACCOUNT_ADDRESS_LIMIT: '3',
      SQLITE_PATH: ':memory:',
      REPLAY_PROTECTION: 'true',
    });
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/srv/var/sw',
      databaseUrl: 'postgres://u:p@db/sw',
      companyKeys: ['a', 'b', 'c'],
      seedDemo: false,
      masterKey: 'AB'.repeat(32),
      sqlitePath: ':memory:',
      replayProtection: true,
    });
    expect(c.loginThrottle.accountAddressLimit).toBe(3);
  });

  it('reads the sign policy block (SIGN_POLICY, SALT_WINDOW_MS, REPLAY_*)', () => {
    expect(loadConfig({})).toMatchObject({
      signPolicy: 'compatible',
      saltWindowMs: 900000,
      replayProtection: false,
      replayWindowMs: 900000,
    });
    expect(
      loadConfig({
        SIGN_POLICY: ' Strict ',
        SALT_WINDOW_MS: '60000',
        REPLAY_PROTECTION: '1',
        REPLAY_WINDOW_MS: '120000',
      }),
    ).toMatchObject({ signPolicy: 'strict', saltWindowMs: 60000, replayProtection: true, replayWindowMs: 120000 });
    expect(() => loadConfig({ SIGN_POLICY: 'lax' })).toThrow(/SIGN_POLICY/);
  });

  it('keeps demo data on by default, off under NODE_ENV=production unless DEMO_DATA=1 (security finding 8)', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    const prod = loadConfig({ NODE_ENV: 'production' });
    expect(prod.seedDemo).toBe(false);
    expect(prod.demoDataSkipped).toMatch(/NODE_ENV=production.*DEMO_DATA/);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_DATA: '' }).seedDemo).toBe(false);
    const explicit = loadConfig({ NODE_ENV: 'production', DEMO_DATA: '1' });
    expect(explicit.seedDemo).toBe(true);
    expect(explicit.demoDataSkipped).toBeUndefined();
    const off = loadConfig({ NODE_ENV: 'production', DEMO_DATA: '0' });
    expect(off.seedDemo).toBe(false);
    expect(off.demoDataSkipped).toBeUndefined();
    expect(loadConfig({ DEMO_DATA: '0' }).demoDataSkipped).toBeUndefined();
  });

  it('reads the security settings', () => {
    expect(loadConfig({}).tileUrl).toBeUndefined();
    expect(loadConfig({}).passwordChangeCompat).toBe(true);
    expect(loadConfig({ SIGN_POLICY: 'strict' }).passwordChangeCompat).toBe(false);
    expect(loadConfig({ SIGN_POLICY: 'strict', PASSWORD_CHANGE_COMPAT: '1' }).passwordChangeCompat).toBe(true);
    expect(loadConfig({ PASSWORD_CHANGE_COMPAT: '0' }).passwordChangeCompat).toBe(false);
    expect(loadConfig({ VITE_TILE_URL: 'https://t.example/{z}/{x}/{y}.png' }).tileUrl).toBe(
      'https://t.example/{z}/{x}/{y}.png',
    );
    expect(loadConfig({ TILE_URL: 'https://a/{z}/{x}/{y}', VITE_TILE_URL: 'https://b/{z}/{x}/{y}' }).tileUrl).toBe(
      'https://a/{z}/{x}/{y}',
    );
    expect(loadConfig({ PASSWORD_CHANGE_COMPAT: '1' }).passwordChangeCompat).toBe(true);
  });

  it('telemetry: MQTT follows HOST unless MQTT_HOST is set; ingest limits and window', () => {
    expect(loadConfig({}).telemetry.mqttHost).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1' }).telemetry.mqttHost).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '127.0.0.1', MQTT_HOST: '0.0.0.0' }).telemetry.mqttHost).toBe('0.0.0.0');
    expect(loadConfig({}).telemetry.limits).toEqual({
      maxPacketBytes: 262144,
      maxDevices: 64,
      maxValues: 1024,
      maxDepth: 8,
      backfillDays: 30,
      maxFutureMs: 600000,
    });
    const c = loadConfig({
      MQTT_MAX_PACKET_BYTES: '65536',
      INGEST_MAX_DEVICES: '8',
      INGEST_MAX_VALUES: '200',
      INGEST_MAX_DEPTH: '6',
      INGEST_BACKFILL_DAYS: '90',
      INGEST_MAX_FUTURE_MS: '60000',
      MQTT_CLIENT_ID: 'sunwatch-1',
    });
    expect(c.telemetry.limits).toEqual({
      maxPacketBytes: 65536,
      maxDevices: 8,
      maxValues: 200,
      maxDepth: 6,
      backfillDays: 90,
      maxFutureMs: 60000,
    });
    expect(c.telemetry.mqttClientId).toBe('sunwatch-1');
    // The backfill window always covers the demo history.
    expect(loadConfig({ INGEST_BACKFILL_DAYS: '2', DEMO_HISTORY_DAYS: '14' }).telemetry.limits.backfillDays).toBe(15);
  });

  it('refuses a malformed master key', () => {
    expect(() => loadConfig({ MASTER_KEY: 'xyz' })).toThrow(/MASTER_KEY/);
  });
});
