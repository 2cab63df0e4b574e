/**
 * Who sees the plant write buttons: plant owners and administrators (manufacturer, distributor
 * with device management, operator); never viewers (spec §6) nor group accounts — the roles of
 * addPlant / editPlant / delPlant (use-plant-writes-access.test.ts checks the two agree). A
 * sub-administrator also needs the function point of each write (`project_add`, `project_edit`,
 * `project_delete`, the catalogue's `access.button`). Hidden here, refused by the server anyway. The catalogue itself is not read here: it would add its
 * whole parameter schemas to the plant page's first load.
 */
import { useMemo } from 'react';
import { ROLE, type Role } from '@sunwatch/protocol';
import { accessFor, type AccessSubject } from '../../../app/access';
import { useSession } from '../../../app/use-session';

/** The roles of addPlant, editPlant and delPlant. */
export const PLANT_WRITER_ROLES: readonly Role[] = [ROLE.OWNER, ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR];

/** The roles of addCollectorToPlant (bind a datalogger to one of one's plants). */
export const DATALOGGER_BINDER_ROLES: readonly Role[] = [ROLE.OWNER];

export interface PlantWriteAccess {
  /** Some plant write is allowed (the column of row actions). */
  write: boolean;
  /** addPlant (`project_add`). */
  create: boolean;
  /** editPlant and editPlantEnergyOffset (`project_edit`). */
  edit: boolean;
  /** delPlant (`project_delete`). */
  remove: boolean;
  /** Administrators name the owner of a plant they create. */
  chooseOwner: boolean;
  /** Owners bind a datalogger to their plant from its page (the `datalogger_add` function point). */
  addDatalogger: boolean;
}

export function plantWriteAccessFor(session: AccessSubject | undefined): PlantWriteAccess {
  const none = { write: false, create: false, edit: false, remove: false, chooseOwner: false, addDatalogger: false };
  if (!session) return none;
  const access = accessFor(session);
  const writer = !access.readOnly && PLANT_WRITER_ROLES.includes(session.role) && access.hasModule('device_manag');
  const create = writer && access.hasButton('project_add');
  const edit = writer && access.hasButton('project_edit');
  const remove = writer && access.hasButton('project_delete');
  const addDatalogger = !access.readOnly && DATALOGGER_BINDER_ROLES.includes(session.role) && access.hasButton('datalogger_add');
  return { write: edit || remove, create, edit, remove, chooseOwner: create && session.role !== ROLE.OWNER, addDatalogger };
}

export function usePlantWriteAccess(): PlantWriteAccess {
  const session = useSession();
  return useMemo(() => plantWriteAccessFor(session), [session]);
}
