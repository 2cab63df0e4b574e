import { ApiError, ROLE, getDefinition, type CtrlFieldForDist, type DeviceDefinition } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import { administratorOf } from '../groups/groups.service.js';

/** What a caller may do with the controls of one devcode (`controlFieldRights`). */
export interface ControlFieldRights {
  devcode: number;
  /** Control ids the caller may see and write. */
  visible: ReadonlySet<string>;
  /** Control ids an administrator above the caller has hidden from it. */
  hidden: ReadonlySet<string>;
}

export interface ControlFieldsDeps {
  db: Db;
  audit: AuditService;
  /** Issue 14: 353 when the caller's manufacturer hides the devcode from its area (visible devcodes). */
  requireVisible?: (caller: Caller, devcode: number) => Promise<void>;
}

/** The ids of the account's ancestors in a materialised path `/1/4/9/` (itself excluded). */
export function ancestorIds(path: string, self: number): number[] {
  return path
    .split('/')
    .filter((p) => p !== '')
    .map(Number)
    .filter((id) => id !== self);
}

function definitionOf(devcode: number): DeviceDefinition {
  const def = getDefinition(devcode);
  if (!def) throw new ApiError(353); // "no protocol"
  return def;
}

/**
 * Control-field visibility (spec §6): per administrator × devcode × control id, whether its
 * owners (`visable`) and its subordinate administrators (`distributorPermissionFlag`) may see and
 * write the control. No row = visible.
 */
export class ControlFieldsService {
  constructor(private readonly deps: ControlFieldsDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  async query(caller: Caller, devcode: number): Promise<{ devcode: number; field: CtrlFieldForDist[] }> {
    const def = definitionOf(devcode);
    await this.deps.requireVisible?.(caller, devcode);
    const rows = await this.db
      .selectFrom('ctrl_field_visibility')
      .selectAll()
      .where('admin_id', '=', administratorOf(caller))
      .where('devcode', '=', devcode)
      .execute();
    const byId = new Map(rows.map((r) => [r.control_id, r]));
    return {
      devcode,
      field: def.controls.map((c) => {
        const r = byId.get(c.id);
        return {
          id: c.id,
          name: c.name,
          visable: r ? r.owner_visible === 1 : true,
          distributorPermissionFlag: r ? r.subadmin_visible === 1 : true,
        };
      }),
    };
  }

  /** Sets the flags given (omitted = unchanged) of controls `ids` (768 for a control the protocol lacks). */
  async edit(
    caller: Caller,
    input: {
      devcode: number;
      id: string;
      visable?: boolean | undefined;
      distributorPermissionFlag?: boolean | undefined;
    },
  ): Promise<void> {
    const def = definitionOf(input.devcode);
    await this.deps.requireVisible?.(caller, input.devcode);
    if (input.visable === undefined && input.distributorPermissionFlag === undefined) throw new ApiError(7, 'visable');
    const ids = [
      ...new Set(
        input.id
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      ),
    ];
    if (ids.length === 0) throw new ApiError(7, 'id');
    const known = new Set(def.controls.map((c) => c.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw new ApiError(768, unknown);
    const adminId = administratorOf(caller);
    const current = new Map(
      (
        await this.db
          .selectFrom('ctrl_field_visibility')
          .selectAll()
          .where('admin_id', '=', adminId)
          .where('devcode', '=', input.devcode)
          .where('control_id', 'in', ids)
          .execute()
      ).map((r) => [r.control_id, r]),
    );
    for (const id of ids) {
      const before = current.get(id);
      const owner = input.visable === undefined ? (before?.owner_visible ?? 1) : input.visable ? 1 : 0;
      const sub =
        input.distributorPermissionFlag === undefined
          ? (before?.subadmin_visible ?? 1)
          : input.distributorPermissionFlag
            ? 1
            : 0;
      if (before && before.owner_visible === owner && before.subadmin_visible === sub) continue;
      await this.db
        .insertInto('ctrl_field_visibility')
        .values({
          admin_id: adminId,
          devcode: input.devcode,
          control_id: id,
          owner_visible: owner,
          subadmin_visible: sub,
        })
        .onConflict((oc) =>
          oc
            .columns(['admin_id', 'devcode', 'control_id'])
            .doUpdateSet({ owner_visible: owner, subadmin_visible: sub }),
        )
        .execute();
      await this.deps.audit.record({
        entity: 'ctrl_field_visibility',
        entityId: `${adminId}:${input.devcode}:${id}`,
        before: before
          ? { visable: before.owner_visible === 1, distributorPermissionFlag: before.subadmin_visible === 1 }
          : null,
        after: { visable: owner === 1, distributorPermissionFlag: sub === 1 },
      });
    }
  }

  /**
   * The controls of `devcode` the caller may see and write, for the device-control actions
   * (queryDeviceCtrlField, ctrlDevice, …) of the operations issue:
   * - operator and manufacturer: every control;
   * - role-2 accounts (distributors, sub-administrators): a control hidden by any administrator
   *   above them (`distributorPermissionFlag` false) is hidden;
   * - owners, viewers and group accounts: a control hidden by any administrator above them
   *   (`visable` false) is hidden.
   * An administrator's own settings never limit itself. Unknown devcode → 353.
   */
  async controlFieldRights(
    caller: Pick<Caller, 'accountId' | 'role' | 'path'>,
    devcode: number,
  ): Promise<ControlFieldRights> {
    const def = definitionOf(devcode);
    const all = def.controls.map((c) => c.id);
    const hidden = new Set<string>();
    const above = ancestorIds(caller.path, caller.accountId);
    if (caller.role !== ROLE.OPERATOR && caller.role !== ROLE.MANUFACTURER && above.length > 0) {
      const column = caller.role === ROLE.DISTRIBUTOR ? 'subadmin_visible' : 'owner_visible';
      const rows = await this.db
        .selectFrom('ctrl_field_visibility')
        .select('control_id')
        .where('admin_id', 'in', above)
        .where('devcode', '=', devcode)
        .where(column, '=', 0)
        .execute();
      for (const r of rows) hidden.add(r.control_id);
    }
    return { devcode, visible: new Set(all.filter((id) => !hidden.has(id))), hidden };
  }
}
