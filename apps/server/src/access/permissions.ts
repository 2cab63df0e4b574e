import { ApiError, PERMISSION_TREE, ROLE, type AccessRule } from '@sunwatch/protocol';
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

/** Reads the function points of the custom role bound to a role-2 account (undefined: none bound). */
export type RoleFunctionsReader = (accountId: number) => Promise<ReadonlySet<string> | undefined>;

/**
 * The caller with the function points of its bound custom role (role 2), read on every use (no
 * cache, so a role edit counts at once on every instance); other callers unchanged. The one place
 * that turns an account into what it may do: signed calls (dispatcher), background jobs acting for
 * their owner (report and device exports) and the alarm-mail recipients all go through it.
 */
export async function withBoundRole<C extends Pick<Caller, 'accountId' | 'role' | 'permissions'>>(
  caller: C,
  roleFunctions: RoleFunctionsReader,
): Promise<C> {
  if (caller.role !== ROLE.DISTRIBUTOR) return caller;
  const functions = await roleFunctions(caller.accountId);
  return functions ? { ...caller, permissions: functions } : caller;
}

/**
 * The dispatcher's per-action check (err 11 "No permission, please contact the higher-level
 * administrator" when false): the action's module (`access.permission`) AND its function point
 * (`access.button`), both read from the same function points that build the caller's menus
 * (`queryAccountInfo` `permission[]`).
 */
export function callerMayCall(
  caller: Pick<Caller, 'role' | 'adminOf' | 'permissions'>,
  access: Pick<AccessRule, 'permission' | 'button'>,
): boolean {
  if (access.permission && !callerHasPermission(caller, access.permission)) return false;
  if (access.button && !callerHasPermission(caller, access.button)) return false;
  return true;
}

/** Every function point name of PERMISSION_TREE → its ancestors (module; module and first page). */
const ANCESTORS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>(
  PERMISSION_TREE.flatMap((m): Array<[string, readonly string[]]> => [
    [m.action, []],
    ...m.buttons.map((b): [string, readonly string[]] => [b, [m.action]]),
    ...m.first.flatMap((f): Array<[string, readonly string[]]> => [
      [f.action, [m.action]],
      ...(f.second ?? []).map((s): [string, readonly string[]] => [s, [m.action, f.action]]),
    ]),
  ]),
);

/** The module a function point belongs to (itself for a module), undefined for an unknown name. */
export function moduleOf(name: string): string | undefined {
  const ancestors = ANCESTORS.get(name);
  return ancestors && (ancestors[0] ?? name);
}

/**
 * A role's function points from the comma list of `addRole`/`editRole`: known names only
 * (err 6 naming the first unknown one), each granted child bringing its module (and a second
 * page its first page), sorted and deduplicated.
 */
export function normaliseFunctionPoints(list: string): string[] {
  const out = new Set<string>();
  for (const raw of list.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    const ancestors = ANCESTORS.get(name);
    if (!ancestors) throw new ApiError(6, 'functions');
    out.add(name);
    for (const a of ancestors) out.add(a);
  }
  return [...out].sort();
}

/** The stored function points of a role (JSON text), read defensively (unknown names dropped). */
export function parseFunctionPoints(json: string): Set<string> {
  let names: unknown;
  try {
    names = JSON.parse(json);
  } catch {
    names = [];
  }
  return new Set(
    Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string' && ANCESTORS.has(n)) : [],
  );
}

/** The stored data permission of a role (JSON array of user group ids). */
export function parseGroupIds(json: string | null | undefined): number[] {
  if (!json) return [];
  let ids: unknown;
  try {
    ids = JSON.parse(json);
  } catch {
    ids = [];
  }
  return Array.isArray(ids) ? ids.filter((n): n is number => Number.isInteger(n) && n > 0) : [];
}
