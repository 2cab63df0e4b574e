/**
 * The account types an administrator creates (spec §2 "Account management", §3) and who may create
 * each. Kept apart from the form rules so the users list loads without the rule schemas.
 */
import { ROLE, type Role } from '@sunwatch/protocol';

export type AccountType = 'dealer' | 'owner' | 'viewer' | 'group' | 'subAdmin';
export const ACCOUNT_TYPES: readonly AccountType[] = ['owner', 'dealer', 'viewer', 'group', 'subAdmin'];

/** The create action of each type. */
export const CREATE_ACTION = {
  dealer: 'addDist',
  owner: 'addPlantOwner',
  viewer: 'addPlantBrowser',
  group: 'addGroupAccount',
  subAdmin: 'addSubAdmin',
} as const satisfies Record<AccountType, string>;

/**
 * Which caller roles may create each type: the `access.roles` of its create action in the
 * catalogue (account-types.test.ts checks they stay equal).
 */
export const CREATE_ROLES: Record<AccountType, readonly Role[]> = {
  dealer: [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR],
  owner: [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.GROUP, ROLE.OPERATOR],
  viewer: [ROLE.OWNER, ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.GROUP, ROLE.OPERATOR],
  group: [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR],
  subAdmin: [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR],
};

export function creatableTypes(role: Role): AccountType[] {
  return ACCOUNT_TYPES.filter((t) => CREATE_ROLES[t].includes(role));
}
