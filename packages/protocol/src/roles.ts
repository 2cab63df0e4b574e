/** Role ids of spec §3. */
export const ROLE = {
  OWNER: 0,
  MANUFACTURER: 1,
  DISTRIBUTOR: 2,
  GROUP: 3,
  VIEWER: 5,
  OPERATOR: 15,
} as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = [0, 1, 2, 3, 5, 15];
export const ADMIN_ROLES: readonly Role[] = [1, 2, 3];
export const GENERAL_ROLES: readonly Role[] = [0, 5];

export function isRole(n: number): n is Role {
  return (ROLES as readonly number[]).includes(n);
}

/** Spec §6: viewers have read-only access to the plants assigned to them. */
export const READ_ONLY_ROLES: readonly Role[] = [ROLE.VIEWER];

/** True for a role that may look but never change anything (the web says so on every page). */
export function isReadOnlyRole(role: Role): boolean {
  return READ_ONLY_ROLES.includes(role);
}

export type Area = 'general' | 'admin' | 'operator';

/** Spec §2: 0/5 → general, 1/2/3 → admin, 15 → operator (new edition only). */
export function areaForRole(role: Role): Area {
  if (role === ROLE.OPERATOR) return 'operator';
  return (ADMIN_ROLES as readonly number[]).includes(role) ? 'admin' : 'general';
}

/** Account status. Cancelling: the owner asked to close the account; logoutVerifiction answers 0. */
export const ACCOUNT_STATUS = {
  ENABLED: 0,
  DISABLED: 1,
  CANCELLING: 2,
  CANCELLED: 3,
} as const;
export type AccountStatus = (typeof ACCOUNT_STATUS)[keyof typeof ACCOUNT_STATUS];

/** Device and datalogger status (wire-protocol.md §5, spec §3). */
export const DEVICE_STATUS = {
  NORMAL: 0,
  OFFLINE: 1,
  FAULT: 2,
  STANDBY: 3,
  WARNING: 4,
  ERROR: 5,
  PROTOCOL_ERROR: 6,
} as const;
export type DeviceStatus = (typeof DEVICE_STATUS)[keyof typeof DEVICE_STATUS];

/** A list filter puts "all" at 0 and shifts the status codes by one (spec §3). */
export function statusFromListFilter(filter: number): DeviceStatus | undefined {
  return filter <= 0 ? undefined : ((filter - 1) as DeviceStatus);
}

export const ALARM_LEVEL = { WARNING: 0, ERROR: 1, FAULT: 2, OFFLINE: 3 } as const;

export const DEVTYPE = {
  INVERTER: 512,
  ENV_MONITOR: 768,
  METER: 1024,
  COMBINER_BOX: 1280,
  BATTERY: 1792,
  CHARGER: 2048,
  ENERGY_STORAGE: 2304,
} as const;
