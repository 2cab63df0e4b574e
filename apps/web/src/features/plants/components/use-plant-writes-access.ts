/**
 * Who sees the plant write buttons: plant owners and administrators (manufacturer, distributor
 * with device management, operator); never viewers (spec §6) nor group accounts — the roles of
 * addPlant / editPlant / delPlant. Hidden here, refused by the server anyway.
 */
import { useMemo } from 'react';
import { ROLE, findAction } from '@sunwatch/protocol';
import { accessFor, type AccessSubject } from '../../../app/access';
import { useSession } from '../../../app/use-session';

export interface PlantWriteAccess {
  write: boolean;
  /** Administrators name the owner of a plant they create. */
  chooseOwner: boolean;
}

export function plantWriteAccessFor(session: AccessSubject | undefined): PlantWriteAccess {
  if (!session) return { write: false, chooseOwner: false };
  const access = accessFor(session);
  const roles = (findAction('addPlant')?.access as { roles?: readonly number[] } | undefined)?.roles ?? [];
  const write = !access.readOnly && roles.includes(session.role) && access.hasModule('device_manag');
  return { write, chooseOwner: write && session.role !== ROLE.OWNER };
}

export function usePlantWriteAccess(): PlantWriteAccess {
  const session = useSession();
  return useMemo(() => plantWriteAccessFor(session), [session]);
}
