/**
 * What the signed-in account may do on the datalogger screens: from its role (the datalogger
 * actions' `access.roles`), its function points (role 2: `datalogger_add`, `datalogger_edit`,
 * `datalogger_delete`, the `datalogger_debug` page) and read-only accounts (viewers) doing nothing.
 * Hidden here, refused by the server anyway. `abilities.test.ts` checks the role lists against
 * the protocol catalogue, so a contract change that is not followed here fails a test.
 */
import { useMemo } from 'react';
import { ROLE, type Role } from '@sunwatch/protocol';
import { accessFor, type AccessSubject } from '../../../app/access';
import { useSession } from '../../../app/use-session';

export type RowAction = 'details' | 'edit' | 'reboot' | 'debug' | 'log' | 'reset' | 'unbind' | 'move' | 'delete';

/** The actions behind each ability, and the roles their catalogue entries admit. */
export const ABILITY_ACTIONS = {
  add: 'addCollectorToPlant',
  batch: 'addCollectorsBySheet',
  edit: 'editCollectorEs',
  reboot: 'restartCollector',
  reset: 'resetCollector',
  unbind: 'unbindCollector',
  remove: 'delCollector',
  debug: 'debugCollector',
  log: 'webQueryCollectorLog',
  /** Issue 14: the operator moves a datalogger to another manufacturer or owner (moveCollectorOwner alike). */
  move: 'moveCollectorVendor',
} as const;
export type Ability = keyof typeof ABILITY_ACTIONS;

const { OWNER, MANUFACTURER, DISTRIBUTOR, GROUP, OPERATOR } = ROLE;
export const ABILITY_ROLES: Record<Ability, readonly Role[]> = {
  add: [OWNER],
  batch: [OWNER, MANUFACTURER, DISTRIBUTOR],
  edit: [OWNER, MANUFACTURER, DISTRIBUTOR, OPERATOR],
  reboot: [OWNER, MANUFACTURER, DISTRIBUTOR, OPERATOR],
  reset: [MANUFACTURER, DISTRIBUTOR, OPERATOR],
  unbind: [MANUFACTURER, DISTRIBUTOR, OPERATOR],
  remove: [OWNER, DISTRIBUTOR],
  debug: [MANUFACTURER, DISTRIBUTOR, OPERATOR],
  log: [OWNER, MANUFACTURER, DISTRIBUTOR, GROUP, OPERATOR],
  move: [OPERATOR],
};

/** The function point of each ability (catalogue `access.button`). */
export const ABILITY_BUTTONS: Record<Ability, string> = {
  add: 'datalogger_add',
  batch: 'datalogger_add',
  edit: 'datalogger_edit',
  reboot: 'datalogger_edit',
  reset: 'datalogger_edit',
  unbind: 'datalogger_edit',
  remove: 'datalogger_delete',
  debug: 'datalogger_debug',
  log: 'datalogger_detail',
  move: 'datalogger_edit',
};

export interface DataloggerAbilities {
  role: Role;
  /** An admin-area account (sees owners' dataloggers: owner column). */
  admin: boolean;
  readOnly: boolean;
  /** Add one to a plant (owners; administrators add one at a time to their stock from the account list). */
  add: boolean;
  batch: boolean;
  edit: boolean;
  reboot: boolean;
  reset: boolean;
  unbind: boolean;
  remove: boolean;
  debug: boolean;
  log: boolean;
  move: boolean;
}

export function dataloggerAbilitiesFor(session: AccessSubject | undefined): DataloggerAbilities {
  const access = accessFor(session);
  const role = session?.role ?? ROLE.VIEWER;
  const may = (k: Ability) => {
    const b = ABILITY_BUTTONS[k];
    return (
      (k === 'log' || !access.readOnly) &&
      ABILITY_ROLES[k].includes(role) &&
      access.hasModule('device_manag') &&
      (access.hasButton(b) || access.hasPage(b))
    );
  };
  return {
    role,
    admin: role !== ROLE.OWNER && role !== ROLE.VIEWER,
    readOnly: access.readOnly,
    add: may('add'),
    batch: may('batch'),
    edit: may('edit'),
    reboot: may('reboot'),
    reset: may('reset'),
    unbind: may('unbind'),
    remove: may('remove'),
    debug: may('debug'),
    log: may('log'),
    move: may('move'),
  };
}

/** The row menu of the list and the drawer, in this order. */
export function rowActions(a: DataloggerAbilities): RowAction[] {
  const out: RowAction[] = ['details'];
  if (a.edit) out.push('edit');
  if (a.reboot) out.push('reboot');
  if (a.debug) out.push('debug');
  if (a.log) out.push('log');
  if (a.reset) out.push('reset');
  if (a.unbind) out.push('unbind');
  if (a.move) out.push('move');
  if (a.remove) out.push('delete');
  return out;
}

export function useDataloggerAbilities(): DataloggerAbilities {
  const session = useSession();
  return useMemo(() => dataloggerAbilitiesFor(session), [session]);
}
