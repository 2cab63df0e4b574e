import { ROLE } from '@sunwatch/protocol';
import type { Caller } from '../context.js';

/** A sub-administrator: a role-2 account that acts on the subtree of another account (`admin_of`). */
export function isSubAdministrator(account: { role: number; adminOf: number | null }): boolean {
  return account.role === ROLE.DISTRIBUTOR && account.adminOf != null;
}

/**
 * Whether the caller holds a function permission. Fails closed: a sub-administrator whose list
 * is missing holds none; `null` means "unrestricted" only for accounts that are not
 * sub-administrators (a distributor without a list, every other role).
 */
export function callerHasPermission(
  caller: Pick<Caller, 'role' | 'adminOf' | 'permissions'>,
  permission: string,
): boolean {
  if (caller.permissions == null) return !isSubAdministrator(caller);
  return caller.permissions.has(permission);
}
