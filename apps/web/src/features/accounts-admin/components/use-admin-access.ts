import { useMemo } from 'react';
import { ROLE, type Role } from '@sunwatch/protocol';
import { accessFor, type AccessSubject } from '../../../app/access';
import { creatableTypes, type AccountType } from '../api/account-kinds';
import { useSession } from '../../../app/use-session';

/** Caller roles that administer other accounts' groups, roles and superiors (the actions' `access.roles`). */
export const ADMIN_ROLES: readonly Role[] = [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR];

export interface AdminAccess {
  role: Role;
  /** Function buttons of PERMISSION_TREE's account module (sub-administrators: their role's). */
  add: boolean;
  edit: boolean;
  remove: boolean;
  enable: boolean;
  resetPassword: boolean;
  distribute: boolean;
  /** Groups, roles, superiors: administrators only (not group accounts). */
  administers: boolean;
  groupsTab: boolean;
  rolesTab: boolean;
  ctrlTab: boolean;
  /** The device-control visibility may be changed. */
  ctrlWrite: boolean;
  /**
   * The account types the create dialog offers: those of the caller's role, and a viewer only
   * when the caller may list plants (device_manag) to pick the viewer's plants from.
   */
  createTypes: AccountType[];
}

/**
 * What the signed-in account may do on the account screens, from its role and, for role 2, the
 * function points of its role (queryAccountInfo `permission[]`). Hidden here, refused by the
 * server anyway.
 */
export function adminAccessFor(session: AccessSubject | undefined): AdminAccess {
  const access = accessFor(session);
  const role = session?.role ?? ROLE.OWNER;
  const administers = ADMIN_ROLES.includes(role);
  return {
    role,
    add: access.hasButton('account_add'),
    edit: access.hasButton('account_edit'),
    remove: access.hasButton('account_delete'),
    enable: access.hasButton('account_enable'),
    resetPassword: access.hasButton('account_reset_password'),
    distribute: administers && access.hasButton('datalogger_distribute'),
    administers,
    groupsTab: administers && access.hasPage('group_list'),
    rolesTab: administers && access.hasPage('role_list'),
    ctrlTab: administers && access.hasModule('device_manag'),
    ctrlWrite: administers && access.hasButton('device_control_write'),
    createTypes: access.hasButton('account_add')
      ? creatableTypes(role).filter((t) => t !== 'viewer' || access.hasModule('device_manag'))
      : [],
  };
}

export function useAdminAccess(): AdminAccess {
  const session = useSession();
  return useMemo(() => adminAccessFor(session), [session]);
}
