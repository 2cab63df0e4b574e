import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { DatabaseHandle, Db } from './db/db.js';
import type { SqlDialect } from './db/dialect.js';
import type { Keyring } from './security/keyring.js';
import type { AccountsRepository } from './modules/accounts/accounts.repository.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import type { SessionsRepository } from './modules/auth/sessions.repository.js';
import type { ThrottleRepository } from './modules/auth/throttle.repository.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { LoginThrottle } from './modules/auth/throttle.service.js';
import type { ActionLog } from './modules/action-log/action-log.service.js';
import type { CompanyKeysService } from './modules/company-keys/company-keys.service.js';
import type { TelemetryService } from './modules/telemetry/telemetry.service.js';

/** The authenticated account behind a signed call. */
export interface Caller {
  accountId: number;
  usr: string;
  role: number;
  path: string;
  status: number;
  adminOf: number | null;
  /** Role-2 function permissions; null = unrestricted, never for a sub-administrator (fails closed: `callerHasPermission`). */
  permissions: ReadonlySet<string> | null;
  sessionId: number;
}

/**
 * Everything handlers and services need, passed explicitly (no module singletons).
 * Built once per app in `createContext`.
 */
export interface AppContext {
  config: AppConfig;
  db: Db;
  dialect: SqlDialect;
  database: DatabaseHandle;
  keyring: Keyring;
  log: FastifyBaseLogger;
  now: () => number;
  repos: {
    accounts: AccountsRepository;
    sessions: SessionsRepository;
    throttle: ThrottleRepository;
  };
  services: {
    accounts: AccountsService;
    auth: AuthService;
    throttle: LoginThrottle;
    actionLog: ActionLog;
    companyKeys: CompanyKeysService;
    telemetry: TelemetryService;
  };
}
