import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import { migrateToLatest, openDatabase } from './db/db.js';
import { AccountsRepository } from './modules/accounts/accounts.repository.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { ActionLog } from './modules/action-log/action-log.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { ThrottleRepository } from './modules/auth/throttle.repository.js';
import { LoginThrottle } from './modules/auth/throttle.service.js';
import { CompanyKeysService } from './modules/company-keys/company-keys.service.js';
import { Keyring, loadMasterKey } from './security/keyring.js';
import { createTelemetry } from './modules/telemetry/create-telemetry.js';

/** Opens and migrates the database, then wires repositories and services together. */
export async function createContext(config: AppConfig, log: FastifyBaseLogger): Promise<AppContext> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const { db } = database;
    const now = config.now;
    const keyring = new Keyring(loadMasterKey(config));
    const accountsRepo = new AccountsRepository(db);
    const sessionsRepo = new SessionsRepository(db);
    const throttleRepo = new ThrottleRepository(db);
    const companyKeys = new CompanyKeysService(db, now);
    await companyKeys.seed(config.companyKeys);
    const accounts = new AccountsService(accountsRepo, sessionsRepo, keyring, now);
    const throttle = new LoginThrottle(throttleRepo, config.loginThrottle, now);
    const auth = new AuthService(config, accountsRepo, accounts, sessionsRepo, throttle, companyKeys, keyring, now);
    return {
      config,
      db,
      dialect: database.dialect,
      database,
      keyring,
      log,
      now,
      repos: { accounts: accountsRepo, sessions: sessionsRepo, throttle: throttleRepo },
      services: {
        accounts,
        auth,
        throttle,
        companyKeys,
        actionLog: new ActionLog(db, log),
        telemetry: createTelemetry(config, database, log),
      },
    };
  } catch (e) {
    await database.close();
    throw e;
  }
}
