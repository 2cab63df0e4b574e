import { ApiError } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import { withBoundRole, type RoleFunctionsReader } from '../../access/permissions.js';
import { permissionSet } from './accounts.service.js';
import type { AccountsRepository } from './accounts.repository.js';

/**
 * The owner of a job as a caller (its access is checked again when the job is built), with the
 * function points of its bound role, as a signed call of its own would have.
 */
export async function jobCaller(
  accounts: Pick<AccountsRepository, 'findById'>,
  roleFunctions: RoleFunctionsReader,
  accountId: number,
): Promise<Caller> {
  const a = await accounts.findById(accountId);
  if (!a) throw new ApiError(10);
  const caller: Caller = {
    accountId: a.id,
    usr: a.usr,
    role: a.role,
    path: a.path,
    status: a.status,
    adminOf: a.admin_of,
    permissions: permissionSet(a),
    sessionId: 0,
  };
  return withBoundRole(caller, roleFunctions);
}
