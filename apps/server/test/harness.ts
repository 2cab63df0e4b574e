import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createApiClient,
  sha1Hex,
  signCall,
  signLogin,
  timestampSalts,
  WEB_COMPANY_KEY,
  type AuthDat,
  type Envelope,
} from '@sunwatch/protocol';
import { loadConfig, type AppConfig } from '../src/config.js';
import { seedDemo } from '../src/demo/seed-demo.js';
import { startServer, type RunningServer } from '../src/server.js';
import type { AppContext } from '../src/context.js';
import { dropScratchDatabase } from './factories/pg-database.js';

export type EngineName = 'sqlite' | 'postgres';

export interface Engine {
  name: EngineName;
  /** Creates a fresh, empty database; returns the config fields pointing at it and a dropper. */
  createDatabase(dataDir: string): Promise<{ databaseUrl?: string; sqlitePath: string; drop(): Promise<void> }>;
}

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';

const sqliteEngine: Engine = {
  name: 'sqlite',
  createDatabase: (dataDir) => Promise.resolve({ sqlitePath: path.join(dataDir, 'sunwatch.db'), drop: () => Promise.resolve() }),
};

const postgresEngine: Engine = {
  name: 'postgres',
  async createDatabase(dataDir) {
    const name = `sunwatch_t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return {
      databaseUrl: url.toString(),
      sqlitePath: path.join(dataDir, 'unused.db'),
      drop: () => dropScratchDatabase(PG_URL, name),
    };
  },
};

async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function detectEngines(): Promise<Engine[]> {
  if (await postgresReachable()) return [sqliteEngine, postgresEngine];
  if (process.env.SUNWATCH_REQUIRE_PG === '1') {
    throw new Error(`PostgreSQL is required (SUNWATCH_REQUIRE_PG=1) but ${PG_URL.replace(/:[^:@/]*@/, ':***@')} is unreachable`);
  }
  console.warn(
    '\n' +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n' +
      '!!  PostgreSQL is unreachable: the postgres variant of the integration tests  !!\n' +
      '!!  is SKIPPED. Set TEST_DATABASE_URL, or SUNWATCH_REQUIRE_PG=1 to fail.        !!\n' +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n',
  );
  return [sqliteEngine];
}

/** The engines every integration test runs on: SQLite always, PostgreSQL when reachable. */
export const engines: Engine[] = await detectEngines();

/**
 * A fixed instant for tests whose results depend on "today" (local days, day/month/year
 * energies): 04:00 UTC on a mid-month Monday — far from midnight in every timezone the tests
 * use (UTC, +1, +2, +8: 12:00), and from month and year ends.
 */
export const FIXED_NOW = Date.UTC(2026, 5, 15, 4, 0, 0);

/**
 * A controllable clock. Pinned (`new TestClock(FIXED_NOW)`): that instant, moving only by
 * advance(); else real time plus the advanced offset.
 */
export class TestClock {
  offset = 0;
  constructor(readonly pinned?: number) {}
  now = (): number => (this.pinned ?? Date.now()) + this.offset;
  advance(ms: number): void {
    this.offset += ms;
  }
}

export interface TestServer extends RunningServer {
  ctx: AppContext;
  clock: TestClock;
  config: AppConfig;
  dataDir: string;
  /** GET (or any method) against the server, returning status, headers and JSON body. */
  request<T = unknown>(pathAndQuery: string, init?: RequestInit & { ip?: string }): Promise<WireResponse<T>>;
  /** Signs in with the web client's encoding (encodeURIComponent). */
  login(usr: string, password: string, opts?: { ip?: string; isRem?: boolean; companyKey?: string }): Promise<Envelope<AuthDat>>;
  /** Signed call with the session's token and secret. */
  call<T = unknown>(
    session: { token: string; secret: string },
    action: string,
    params?: Record<string, string | number>,
    opts?: { ip?: string; salt?: string },
  ): Promise<Envelope<T>>;
  /**
   * The typed protocol client (the web app's) bound to this server and a session: calls are
   * checked against the catalogue at compile time and throw `ApiCallError` on err ≠ 0.
   */
  api(session?: { token: string; secret: string }): ApiClient;
  stop(): Promise<void>;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export interface WireResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface StartOptions {
  seed?: boolean;
  config?: Partial<AppConfig>;
  /** Another instance on the same database and master key (as behind a load balancer). */
  shareWith?: TestServer;
  /**
   * Pins the server's clock (config.now) and the harness's to this instant (e.g. FIXED_NOW):
   * required for every test whose result depends on the wall clock's day.
   */
  now?: number;
}

let ipCounter = 0;
/** A fresh client address (the test servers trust X-Forwarded-For). */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function encodePairs(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('');
}

export async function startTestServer(engine: Engine, options: StartOptions = {}): Promise<TestServer> {
  const shared = options.shareWith;
  const dataDir = shared ? shared.dataDir : fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-test-'));
  const database = shared
    ? { databaseUrl: shared.config.databaseUrl, sqlitePath: shared.config.sqlitePath, drop: () => Promise.resolve() }
    : await engine.createDatabase(dataDir);
  const clock = shared ? shared.clock : new TestClock(options.now);
  const config: AppConfig = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: database.databaseUrl,
    sqlitePath: database.sqlitePath,
    webRoot: path.join(dataDir, 'web'),
    seedDemo: false,
    masterKey: undefined,
    logLevel: 'silent',
    trustProxy: true,
    now: clock.now,
    // Telemetry: the embedded MQTT broker on a free loopback port (RunningServer.mqtt.port).
    telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1' },
    // Session cache (issue 16) on, its epoch read on every call: tests change sessions and accounts
    // straight in the database too and expect the next call to see it (test/auth/auth-cache.test.ts
    // covers the production interval).
    authCache: { ...loadConfig({}).authCache!, checkMs: 0 },
    ...options.config,
  };
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (e) {
    await database.drop();
    throw e;
  }
  if (options.seed !== false) await seedDemo(server.app);

  // Strictly increasing ms salts: two identical calls in one millisecond must not share a sign
  // (state-changing calls and the strict policy refuse a sign seen before, err 5).
  const nextSalt = timestampSalts(clock.now);

  async function request<T>(pathAndQuery: string, init: RequestInit & { ip?: string } = {}): Promise<WireResponse<T>> {
    const { ip, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (ip) headers.set('x-forwarded-for', ip);
    const res = await fetch(server.url + pathAndQuery, { ...rest, headers });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: body as T, text };
  }

  return {
    ...server,
    ctx: server.app.ctx,
    clock,
    config,
    dataDir,
    request,
    async login(usr, password, opts = {}) {
      const salt = nextSalt();
      const tail =
        `&action=authSource` +
        encodePairs({ usr, 'company-key': opts.companyKey ?? WEB_COMPANY_KEY, source: 1, ...(opts.isRem ? { isRem: 1 } : {}) });
      const sign = signLogin(salt, sha1Hex(password), tail);
      return (await request<Envelope<AuthDat>>(`/public/?sign=${sign}&salt=${salt}${tail}`, { ip: opts.ip })).body;
    },
    async call<T>(
      session: { token: string; secret: string },
      action: string,
      params: Record<string, string | number> = {},
      opts: { ip?: string; salt?: string } = {},
    ): Promise<Envelope<T>> {
      const salt = opts.salt ?? nextSalt();
      const tail = `&action=${action}` + encodePairs({ source: 1, ...params });
      const sign = signCall(salt, session.secret, session.token, tail);
      return (await request<Envelope<T>>(`/public/?sign=${sign}&salt=${salt}&token=${session.token}${tail}`, { ip: opts.ip }))
        .body;
    },
    api(session) {
      return createApiClient({
        baseUrl: `${server.url}/public/`,
        companyKey: WEB_COMPANY_KEY,
        getSession: () => session,
        salt: nextSalt,
      });
    },
    async stop() {
      await server.close();
      await database.drop();
      if (!shared) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
