import { ROLE, type AccountListRow } from '@sunwatch/protocol';

/** The dialogs of one account row. */
export type RowDialog = 'edit' | 'password' | 'group' | 'superior' | 'role';

/** A dealer row (role 2 that is not a sub-administrator) is edited with editDist, deleted with delDist. */
export function isDealerRow(r: Pick<AccountListRow, 'role' | 'subAdmin'>): boolean {
  return r.role === ROLE.DISTRIBUTOR && !r.subAdmin;
}
