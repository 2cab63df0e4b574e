import type { Db } from '../../db/db.js';
import type { AuditService } from '../audit/audit.service.js';
import { AccountAdminRepository } from './account-admin.repository.js';
import { AccountAdminService } from './account-admin.service.js';
import { NO_ACCOUNT_LINKS, type AccountLinks } from './account-links.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { AccountsService } from './accounts.service.js';

export interface AccountAdminDeps {
  db: Db;
  accountsRepo: AccountsRepository;
  accounts: AccountsService;
  sessions: {
    revokeAccountSessions(accountId: number, now: number): Promise<number>;
    revokeAccountRemember(accountId: number, now: number): Promise<number>;
  };
  audit: Pick<AuditService, 'record'>;
  now: () => number;
  /** Custom roles and user groups (modules/roles, modules/groups); none until they are wired. */
  links?: AccountLinks;
}

/** The account management service over its repository (one line in create-context.ts). */
export function createAccountAdmin(deps: AccountAdminDeps): AccountAdminService {
  return new AccountAdminService(
    deps.accountsRepo,
    new AccountAdminRepository(deps.db),
    deps.accounts,
    deps.links ?? NO_ACCOUNT_LINKS,
    deps.sessions,
    deps.audit,
    deps.now,
  );
}
