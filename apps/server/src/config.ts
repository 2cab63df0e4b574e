import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMMAND_ACK_TIMEOUT_MS,
  DEFAULT_COMPANY_KEYS,
  LOG_RETENTION_DAYS,
  SAMPLE_RETENTION_DAYS,
  REMEMBER_EXPIRE_SECONDS,
  TOKEN_EXPIRE_SECONDS,
} from '@sunwatch/protocol';
import { loadNotificationsConfig, type NotificationsConfig } from './modules/notifications/notifications.config.js';
import { loadBrandingConfig, type BrandingConfig } from './modules/branding/branding.config.js';
import { loadPaymentsConfig, type PaymentsConfig } from './modules/payments/payments.config.js';
import { DEFAULT_AUTH_CACHE, type AuthCacheConfig } from './modules/auth/auth-cache.js';

/** Thresholds of the login brute-force throttle (stored in the database, so it holds across instances). */
export interface LoginThrottleConfig {
  /** Sliding window in which failures are counted. */
  windowMs: number;
  /** Failures for one account from one address before that address is blocked for that account. */
  accountAddressLimit: number;
  /** Failures from one address, across accounts, before the address is blocked. */
  addressLimit: number;
  /** Failures on one account from all addresses before unknown addresses are refused. */
  accountLimit: number;
  /** First block length; each further block doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export type SignPolicy = 'compatible' | 'strict';

function signPolicy(value: string | undefined): SignPolicy {
  const v = value?.trim().toLowerCase() || 'compatible';
  if (v !== 'compatible' && v !== 'strict') throw new Error(`SIGN_POLICY must be compatible or strict, not ${value}`);
  return v;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; unset = SQLite. */
  databaseUrl?: string;
  /** SQLite file; default `<dataDir>/sunwatch.db`; `:memory:` allowed. */
  sqlitePath: string;
  /** Built SPA to serve (history fallback); ignored when missing. */
  webRoot: string;
  companyKeys: string[];
  /**
   * Days the logs keep when the operator has set none (issue 14; ACTION_LOG_RETENTION_DAYS and
   * COLLECTOR_LOG_RETENTION_DAYS, default 90, 1–3650). The operator's setting (platform_settings) wins.
   */
  logRetention: { actionLogDays: number; collectorLogDays: number; sampleDays: number };
  /**
   * Raw-sample pruning (issue 16): rows per DELETE on SQLite (SAMPLE_PRUNE_BATCH, default 2000,
   * 100–50000) and the month partitions created ahead on PostgreSQL (SAMPLE_PARTITIONS_AHEAD,
   * default 2, 1–12). SAMPLE_RETENTION_DAYS (default 730) seeds `logRetention.sampleDays`.
   */
  samplePrune: { batch: number; partitionsAhead: number };
  seedDemo: boolean;
  /** With demo data: run the simulated demo fleet in-process (DEMO_FLEET, default on). */
  demoFleet: boolean;
  /** Days of history the demo fleet generates on first start (DEMO_HISTORY_DAYS, default 7). */
  demoHistoryDays: number;
  /** Days of simulated history the experience-code showcase gets when created (SHOWCASE_HISTORY_DAYS, default 2, 0–14). */
  showcaseHistoryDays: number;
  /** 64 hex chars (32 bytes); unset = `<dataDir>/master.key`, generated on first start. */
  masterKey?: string;
  loginThrottle: LoginThrottleConfig;
  logLevel: LogLevel;
  /** Session token lifetime (login `expire`). */
  tokenTtlSeconds: number;
  rememberTtlSeconds: number;
  /**
   * Sign rules of the action endpoint (wire-protocol.md §3–§4a, docs/security/endpoint.md):
   * `compatible` (SIGN_POLICY default) accepts any salt and, for read actions only, unsigned
   * parameters; `strict` requires every parameter signed, a timestamp salt within saltWindowMs
   * (SALT_WINDOW_MS, default 15 min) and never the same sign twice. State-changing calls are
   * refused (err 5) when their sign was seen within replayWindowMs under both policies;
   * replayProtection (REPLAY_PROTECTION) extends that refusal to read actions.
   */
  signPolicy: SignPolicy;
  saltWindowMs: number;
  replayProtection: boolean;
  replayWindowMs: number;
  /**
   * Issue 16: the per-instance cache of authenticated sessions (modules/auth/auth-cache.ts):
   * AUTH_CACHE_TTL_MS (30 s; 0 = off), AUTH_CACHE_CHECK_MS (200 ms: the bound on how long a
   * revocation or account change made on another instance goes unseen), AUTH_CACHE_MAX (20,000).
   * Unset = those defaults.
   */
  authCache?: AuthCacheConfig;
  /** Take the client address from X-Forwarded-For (behind a proxy). */
  trustProxy: boolean;
  /** Telemetry ingestion (issue 3): MQTT broker/bridge, batching, background jobs. */
  telemetry: TelemetryConfig;
  /** Issue 11: e-mail notifications (SMTP_URL, MAIL_FROM, PUBLIC_URL, …; modules/notifications/notifications.config.ts). */
  notifications: NotificationsConfig;
  /** Issue 13: the upgrade engine (docs/firmware/engine.md). */
  upgrades: UpgradesConfig;
  /** Issue 15 payments (modules/payments/payments.config.ts). */
  payments: PaymentsConfig;
  /** Issue 12: server nodes and host branding (BRANDING_FILE, SERVER_NODES, BRANDING_DIR; modules/branding/branding.config.ts). */
  branding: BrandingConfig;
  /** Clock in epoch ms; injectable for tests. */
  now: () => number;
  // --- Security hardening (issue 6; docs/security/accounts-auth-logs.md) ---
  /** Why demo data is off although DEMO_DATA was not set (NODE_ENV=production); logged once at start. */
  demoDataSkipped?: string;
  /** Map tile template of the SPA (TILE_URL, else VITE_TILE_URL): its origin joins the CSP img-src. */
  tileUrl?: string;
  /** updatePassword also takes the vendor's digest-only form, whose rules the server cannot check (PASSWORD_CHANGE_COMPAT; default on in the compatible sign policy, off in strict). */
  passwordChangeCompat: boolean;
  /** Issue 16: health, readiness, metrics and shutdown (docs/operations.md). */
  ops: OpsConfig;
  /** Where log lines go (tests capture them); default stdout. Not read from the environment. */
  logStream?: NodeJS.WritableStream;
}

/** DEMO_DATA when set; else on, except under NODE_ENV=production (no published passwords there). */
function demoData(env: NodeJS.ProcessEnv): { seedDemo: boolean; demoDataSkipped?: string } {
  if (env.DEMO_DATA !== undefined && env.DEMO_DATA.trim() !== '') return { seedDemo: bool(env.DEMO_DATA, true) };
  if (env.NODE_ENV?.trim() === 'production') {
    return {
      seedDemo: false,
      demoDataSkipped:
        'Demo data skipped: NODE_ENV=production and DEMO_DATA is not set (the demo accounts have published passwords; set DEMO_DATA=1 to seed them anyway)',
    };
  }
  return { seedDemo: true };
}

export interface TelemetryConfig {
  /** MQTT ingestion on (embedded broker, or the bridge to MQTT_URL). */
  mqttEnabled: boolean;
  /** Embedded broker port (0 = a free port, see `app.mqtt.port`). */
  mqttPort: number;
  mqttHost: string;
  /** External broker (mqtt://user:pass@host:port): the server subscribes instead of embedding one. */
  mqttUrl?: string;
  /** Shared-subscription group for several instances on one external broker ('' = plain subscription). */
  mqttSharedGroup: string;
  /** Frames are buffered this long (ms) and written in one transaction. */
  batchMs: number;
  maxBatch: number;
  maxQueue: number;
  /** Run background jobs (offline detection) in this instance. */
  jobsEnabled: boolean;
  offlineCheckMs: number;
  /** Ingest limits and timestamp window (docs/security/ingest.md). */
  limits: IngestLimitsConfig;
  /** Bridge only: stable client id for a persistent session (redelivery of unacknowledged frames). */
  mqttClientId?: string;
  /** How long a command waits for the datalogger's acknowledgement before answering 2 (COMMAND_ACK_TIMEOUT_MS, 10 s). */
  commandAckTimeoutMs: number;
}

export interface OpsConfig {
  /** Bearer token that opens `/metrics` on the main port (METRICS_TOKEN; unset = no metrics there). */
  metricsToken?: string;
  /** Separate listener for `/metrics`, `/healthz` and `/readyz` (METRICS_PORT; unset = none, 0 = a free port). */
  metricsPort?: number;
  /** Address of that listener (METRICS_HOST, default HOST). */
  metricsHost: string;
  /** Longest graceful shutdown before the process exits anyway, with code 1 (SHUTDOWN_TIMEOUT_MS, 10 s). */
  shutdownTimeoutMs: number;
}

export interface UpgradesConfig {
  /** Bytes per `upgrade_chunk` message (UPGRADE_CHUNK_BYTES, 4096; 256..65536). */
  chunkBytes: number;
  /** Lease of a task driven by one instance, renewed per chunk (UPGRADE_LEASE_MS, 20 s). */
  leaseMs: number;
  /** How often waiting tasks of reconnected dataloggers are resumed (UPGRADE_SWEEP_MS, 2 s). */
  sweepMs: number;
  /** A flashing datalogger silent this long ends abnormally, status 1 (UPGRADE_FLASH_TIMEOUT_MS, 120 s). */
  flashTimeoutMs: number;
  /** Transfers one instance drives at once; the rest wait queued (UPGRADE_MAX_TRANSFERS, 200; 1..10000). */
  maxTransfers?: number;
  /** Bytes of verified firmware images kept in memory and shared by transfers (UPGRADE_IMAGE_CACHE_BYTES, 64 MiB). */
  imageCacheBytes?: number;
  /** How long a single start waits for the datalogger's answer to upgrade_begin before ret 1 (UPGRADE_BEGIN_WAIT_MS, 5 s). */
  beginWaitMs?: number;
}

export interface IngestLimitsConfig {
  /** Largest MQTT packet (embedded broker, bridge) and HTTP ingest body (MQTT_MAX_PACKET_BYTES, 256 KiB). */
  maxPacketBytes: number;
  /** Devices per frame (INGEST_MAX_DEVICES, 64). */
  maxDevices: number;
  /** Named values + register words per device (INGEST_MAX_VALUES, 1024). */
  maxValues: number;
  /** JSON nesting depth of a frame (INGEST_MAX_DEPTH, 8; a register frame needs 5). */
  maxDepth: number;
  /** Oldest accepted sample: the datalogger's registration minus this many days (INGEST_BACKFILL_DAYS, 30). */
  backfillDays: number;
  /** Newest accepted sample: now plus this (INGEST_MAX_FUTURE_MS, 10 min). */
  maxFutureMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleConfig = {
  windowMs: 15 * 60_000,
  accountAddressLimit: 5,
  addressLimit: 30,
  accountLimit: 20,
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
};

/** Days kept by a log (LOG_RETENTION_DAYS bounds, clamped). */
function retentionDays(value: string | undefined, fallback: number): number {
  return Math.min(LOG_RETENTION_DAYS.max, Math.max(LOG_RETENTION_DAYS.min, int(value, fallback)));
}

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`Not a number: ${value}`);
  return Math.trunc(n);
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** The repository root (apps/server/src/config.ts → ../../..): base of the default paths. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Reads the configuration from the environment (docs/contracts.md lists the variables).
 * Relative paths given in the environment resolve against the directory `npm` was started in
 * (INIT_CWD; `npm start -w` runs in apps/server), defaults against the repository root.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const base = env.INIT_CWD || process.cwd();
  const fromEnv = (value: string | undefined, fallback: string) =>
    value?.trim() ? path.resolve(base, value.trim()) : path.resolve(REPO_ROOT, fallback);
  const dataDir = fromEnv(env.DATA_DIR, 'data');
  const masterKey = env.MASTER_KEY?.trim() || undefined;
  if (masterKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(masterKey)) {
    throw new Error('MASTER_KEY must be 64 hex characters (32 bytes)');
  }
  const keys = (env.COMPANY_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const t = DEFAULT_LOGIN_THROTTLE;
  const sqlite = env.SQLITE_PATH?.trim();
  const host = env.HOST?.trim() || '0.0.0.0';
  const demoHistoryDays = Math.max(0, int(env.DEMO_HISTORY_DAYS, 7));
  return {
    port: int(env.PORT, 8080),
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    sqlitePath:
      sqlite === ':memory:' ? sqlite : sqlite ? path.resolve(base, sqlite) : path.join(dataDir, 'sunwatch.db'),
    webRoot: fromEnv(env.WEB_ROOT, 'apps/web/dist'),
    companyKeys: keys.length > 0 ? keys : [...DEFAULT_COMPANY_KEYS],
    logRetention: {
      actionLogDays: retentionDays(env.ACTION_LOG_RETENTION_DAYS, LOG_RETENTION_DAYS.defaultActionLog),
      collectorLogDays: retentionDays(env.COLLECTOR_LOG_RETENTION_DAYS, LOG_RETENTION_DAYS.defaultCollectorLog),
      sampleDays: Math.min(
        SAMPLE_RETENTION_DAYS.max,
        Math.max(SAMPLE_RETENTION_DAYS.min, int(env.SAMPLE_RETENTION_DAYS, SAMPLE_RETENTION_DAYS.default)),
      ),
    },
    samplePrune: {
      batch: Math.min(50_000, Math.max(100, int(env.SAMPLE_PRUNE_BATCH, 2000))),
      partitionsAhead: Math.min(12, Math.max(1, int(env.SAMPLE_PARTITIONS_AHEAD, 2))),
    },
    ...demoData(env),
    demoFleet: bool(env.DEMO_FLEET, true),
    demoHistoryDays,
    showcaseHistoryDays: Math.min(14, Math.max(0, int(env.SHOWCASE_HISTORY_DAYS, 2))),
    masterKey,
    loginThrottle: {
      windowMs: int(env.LOGIN_THROTTLE_WINDOW_MS, t.windowMs),
      accountAddressLimit: int(env.LOGIN_THROTTLE_ACCOUNT_ADDRESS_LIMIT, t.accountAddressLimit),
      addressLimit: int(env.LOGIN_THROTTLE_ADDRESS_LIMIT, t.addressLimit),
      accountLimit: int(env.LOGIN_THROTTLE_ACCOUNT_LIMIT, t.accountLimit),
      baseDelayMs: int(env.LOGIN_THROTTLE_BASE_DELAY_MS, t.baseDelayMs),
      maxDelayMs: int(env.LOGIN_THROTTLE_MAX_DELAY_MS, t.maxDelayMs),
    },
    logLevel: (env.LOG_LEVEL?.trim() as LogLevel | undefined) || 'info',
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, TOKEN_EXPIRE_SECONDS),
    rememberTtlSeconds: int(env.REMEMBER_TTL_SECONDS, REMEMBER_EXPIRE_SECONDS),
    signPolicy: signPolicy(env.SIGN_POLICY),
    saltWindowMs: Math.max(1000, int(env.SALT_WINDOW_MS, 15 * 60_000)),
    replayProtection: bool(env.REPLAY_PROTECTION, false),
    replayWindowMs: Math.max(1000, int(env.REPLAY_WINDOW_MS, 15 * 60_000)),
    authCache: {
      ttlMs: Math.max(0, int(env.AUTH_CACHE_TTL_MS, DEFAULT_AUTH_CACHE.ttlMs)),
      checkMs: Math.min(60_000, Math.max(0, int(env.AUTH_CACHE_CHECK_MS, DEFAULT_AUTH_CACHE.checkMs))),
      maxEntries: Math.max(1, int(env.AUTH_CACHE_MAX, DEFAULT_AUTH_CACHE.maxEntries)),
    },
    trustProxy: bool(env.TRUST_PROXY, false),
    telemetry: {
      mqttEnabled: bool(env.MQTT_ENABLED, true),
      mqttPort: int(env.MQTT_PORT, 1883),
      // The MQTT listener follows HOST unless MQTT_HOST is set.
      mqttHost: env.MQTT_HOST?.trim() || host,
      mqttUrl: env.MQTT_URL?.trim() || undefined,
      mqttSharedGroup: env.MQTT_SHARED_GROUP?.trim() ?? '',
      batchMs: int(env.INGEST_BATCH_MS, 5),
      maxBatch: int(env.INGEST_MAX_BATCH, 2000),
      maxQueue: int(env.INGEST_MAX_QUEUE, 20000),
      jobsEnabled: bool(env.JOBS_ENABLED, true),
      offlineCheckMs: int(env.OFFLINE_CHECK_MS, 30_000),
      mqttClientId: env.MQTT_CLIENT_ID?.trim() || undefined,
      commandAckTimeoutMs: Math.max(500, int(env.COMMAND_ACK_TIMEOUT_MS, COMMAND_ACK_TIMEOUT_MS)),
      limits: {
        maxPacketBytes: Math.max(1024, int(env.MQTT_MAX_PACKET_BYTES, 256 * 1024)),
        maxDevices: Math.max(1, int(env.INGEST_MAX_DEVICES, 64)),
        maxValues: Math.max(1, int(env.INGEST_MAX_VALUES, 1024)),
        maxDepth: Math.max(5, int(env.INGEST_MAX_DEPTH, 8)),
        // The demo fleet backfills DEMO_HISTORY_DAYS before its dataloggers' registration.
        backfillDays: Math.max(demoHistoryDays + 1, int(env.INGEST_BACKFILL_DAYS, 30)),
        maxFutureMs: Math.max(0, int(env.INGEST_MAX_FUTURE_MS, 10 * 60_000)),
      },
    },
    notifications: loadNotificationsConfig(env, int(env.PORT, 8080)),
    upgrades: {
      chunkBytes: Math.min(64 * 1024, Math.max(256, int(env.UPGRADE_CHUNK_BYTES, 4096))),
      leaseMs: Math.max(2000, int(env.UPGRADE_LEASE_MS, 20_000)),
      sweepMs: Math.max(100, int(env.UPGRADE_SWEEP_MS, 2000)),
      flashTimeoutMs: Math.max(1000, int(env.UPGRADE_FLASH_TIMEOUT_MS, 120_000)),
      maxTransfers: Math.min(10_000, Math.max(1, int(env.UPGRADE_MAX_TRANSFERS, 200))),
      imageCacheBytes: Math.max(0, int(env.UPGRADE_IMAGE_CACHE_BYTES, 64 * 1024 * 1024)),
      beginWaitMs: Math.max(500, int(env.UPGRADE_BEGIN_WAIT_MS, 5000)),
    },
    branding: loadBrandingConfig(env, base),
    ops: {
      metricsToken: env.METRICS_TOKEN?.trim() || undefined,
      metricsPort: env.METRICS_PORT?.trim() ? int(env.METRICS_PORT, 0) : undefined,
      metricsHost: env.METRICS_HOST?.trim() || host,
      shutdownTimeoutMs: Math.max(100, int(env.SHUTDOWN_TIMEOUT_MS, 10_000)),
    },
    payments: loadPaymentsConfig(env),
    now: () => Date.now(),
    tileUrl: env.TILE_URL?.trim() || env.VITE_TILE_URL?.trim() || undefined,
    // Vendor clients keep working by default; the strict policy (our own clients) requires newpwdtext.
    passwordChangeCompat: bool(env.PASSWORD_CHANGE_COMPAT, signPolicy(env.SIGN_POLICY) !== 'strict'),
  };
}
