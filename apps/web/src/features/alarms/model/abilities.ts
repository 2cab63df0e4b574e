/**
 * What the signed-in account may do on the alarm screens: handle alarms (ignorePlantWarning,
 * handlePlantWarnings: roles 0, 1, 2, 3, 15 with the `alarm_handle` function point for role 2),
 * keep filter rules (add/edit/delWarningRule: the same roles), pick plants in filters (the plant
 * list needs `device_manag`). Viewers (role 5) see alarms read-only. Hidden here, refused by the
 * server anyway; `abilities.test.ts` checks the role lists against the protocol catalogue.
 */
import { useMemo } from 'react';
import { ROLE, type Role } from '@sunwatch/protocol';
import { accessFor, type AccessSubject } from '../../../app/access';
import { useSession } from '../../../app/use-session';

const { OWNER, MANUFACTURER, DISTRIBUTOR, GROUP, OPERATOR } = ROLE;

/** The roles of the catalogue entries of the handling and rule actions. */
export const HANDLE_ROLES: readonly Role[] = [OWNER, MANUFACTURER, DISTRIBUTOR, GROUP, OPERATOR];
export const RULE_ROLES: readonly Role[] = HANDLE_ROLES;

export interface AlarmAbilities {
  role: Role;
  readOnly: boolean;
  /** An admin-area account: alarms of many owners (owner column). */
  admin: boolean;
  handle: boolean;
  rules: boolean;
  /** May list plants (plant pickers of the filters and rules). */
  plants: boolean;
  /**
   * May export the alarm list (exportPlantsWarning, function point `alarm_export_file`); the file
   * is then followed in the caller's own export history (webQueryReportFiles, no module needed).
   */
  export: boolean;
}

export function alarmAbilitiesFor(session: AccessSubject | undefined): AlarmAbilities {
  const access = accessFor(session);
  const role = session?.role ?? ROLE.VIEWER;
  const writes = !access.readOnly && access.hasModule('alarm_manag');
  return {
    role,
    readOnly: access.readOnly,
    admin: role !== ROLE.OWNER && role !== ROLE.VIEWER,
    handle: writes && HANDLE_ROLES.includes(role) && access.hasButton('alarm_handle'),
    rules: writes && RULE_ROLES.includes(role),
    plants: access.hasModule('device_manag'),
    export: access.hasModule('alarm_manag') && access.hasButton('alarm_export_file'),
  };
}

export function useAlarmAbilities(): AlarmAbilities {
  const session = useSession();
  return useMemo(() => alarmAbilitiesFor(session), [session]);
}
