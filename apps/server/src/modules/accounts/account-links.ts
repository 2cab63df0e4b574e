/**
 * What account management needs of custom roles and user groups (issue 9): the roles engineer's
 * modules (`modules/roles`, `modules/groups`, migration 0007) own those tables. Account management
 * only asks through this port, so that the two parts meet in `create-context.ts` and neither imports
 * the other's repositories.
 */
export interface CustomRoleRef {
  id: number;
  name: string;
  /** Granted function points (PERMISSION_TREE names). */
  functions: readonly string[];
  /** Does the role carry data permissions (user groups)? A distributor cannot be bound to one. */
  hasDataPermission: boolean;
}

export interface UserGroupRef {
  id: number;
  name: string;
}

export interface AccountLinks {
  /** Custom role `rid` of administrator `adminId` (the caller, or the account it administers); else undefined. */
  findRole(adminId: number, rid: number): Promise<CustomRoleRef | undefined>;
  /** User group `groupid` of administrator `adminId`; else undefined. */
  findGroup(adminId: number, groupid: number): Promise<UserGroupRef | undefined>;
  /** The group account (role 3) bound to user group `groupid`, if any ("only one per group"). */
  groupAccountOf(groupid: number): Promise<number | undefined>;
  /** Binds a new group account to its user group (its members are the accounts of that group). */
  bindGroupAccount(accountId: number, groupid: number): Promise<void>;
  /** Names of roles and groups by id, for a page of list rows (one query each). */
  roleNames(ids: readonly number[]): Promise<Map<number, string>>;
  groupNames(ids: readonly number[]): Promise<Map<number, string>>;
}

/**
 * The links before the roles and groups modules are wired in: no custom role and no user group
 * exists, so `rid` answers 368, `groupid` 11 and lists show no names. `create-context.ts` replaces
 * it with the roles engineer's implementation when both branches are merged.
 */
export const NO_ACCOUNT_LINKS: AccountLinks = {
  findRole: () => Promise.resolve(undefined),
  findGroup: () => Promise.resolve(undefined),
  groupAccountOf: () => Promise.resolve(undefined),
  bindGroupAccount: () => Promise.reject(new Error('user groups are not wired (modules/groups)')),
  roleNames: () => Promise.resolve(new Map()),
  groupNames: () => Promise.resolve(new Map()),
};
