import { sql, type SqlBool } from 'kysely';
import { ApiError, ROLE, type CustomRoleDat } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { likePattern } from '../../db/like.js';
import {
  callerHasPermission,
  normaliseFunctionPoints,
  parseFunctionPoints,
  parseGroupIds,
} from '../../access/permissions.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { formatUtc } from '../accounts/accounts.service.js';
import { administratorOf, subordinateInReach, type GroupsService } from '../groups/groups.service.js';

export interface RolesDeps {
  db: Db;
  accounts: AccountsService;
  groups: GroupsService;
  audit: AuditService;
  now: () => number;
}

/** A distributor proper (role 2 acting for itself), as opposed to a sub-administrator. */
function isDistributor(a: { role: number; admin_of: number | null }): boolean {
  return a.role === ROLE.DISTRIBUTOR && a.admin_of == null;
}

/**
 * Custom roles (spec §3 Role, §5 "Roles and accounts"): per administrator, a unique name, a
 * description, function points (PERMISSION_TREE names) and a data permission (user groups).
 * A role-2 account bound to a role is limited by its function points (dispatcher) and a
 * sub-administrator by its data permission (access scope).
 */
export class RolesService {
  constructor(private readonly deps: RolesDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /** The role if it is the caller's administrator's, else err 368 (foreign and missing alike). */
  async ownRole(caller: Caller, rid: number) {
    const row = await this.db
      .selectFrom('custom_roles')
      .selectAll()
      .where('id', '=', rid)
      .where('admin_id', '=', administratorOf(caller))
      .executeTakeFirst();
    if (!row) throw new ApiError(368);
    return row;
  }

  async list(
    caller: Caller,
    f: { name?: string | undefined; page: number; pagesize: number },
  ): Promise<{ total: number; page: number; pagesize: number; role: CustomRoleDat[] }> {
    let q = this.db.selectFrom('custom_roles as r').where('r.admin_id', '=', administratorOf(caller));
    if (f.name) q = q.where(sql<SqlBool>`lower(r.name) like ${likePattern(f.name)} escape '\\'`);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('r')
      .select((eb) => [
        eb
          .selectFrom('accounts as a')
          .whereRef('a.role_permission_id', '=', 'r.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('users'),
        eb
          .selectFrom('accounts as d')
          .whereRef('d.role_permission_id', '=', 'r.id')
          .where('d.role', '=', ROLE.DISTRIBUTOR)
          .where('d.admin_of', 'is', null)
          .select(eb.fn.countAll<number>().as('n'))
          .as('dists'),
      ])
      .orderBy('r.name')
      .orderBy('r.id')
      .limit(f.pagesize)
      .offset(f.page * f.pagesize)
      .execute();
    return {
      total: Number(total),
      page: f.page,
      pagesize: f.pagesize,
      role: rows.map((r) => ({
        rid: r.id,
        name: r.name,
        desc: r.description,
        functions: [...parseFunctionPoints(r.functions)].sort(),
        dataGroups: parseGroupIds(r.data_groups),
        users: Number(r.users ?? 0),
        boundToDist: Number(r.dists ?? 0) > 0,
        gts: formatUtc(Number(r.created_at)),
      })),
    };
  }

  /**
   * Function points from the wire list: known names (6), ancestors added. A caller limited by
   * function points (a sub-administrator, a distributor bound to a role) grants only what it
   * holds itself (11), so no one hands out more than it has.
   */
  private functionPoints(caller: Caller, list: string): string[] {
    const names = normaliseFunctionPoints(list);
    if (names.some((n) => !callerHasPermission(caller, n))) throw new ApiError(11);
    return names;
  }

  private async requireUniqueName(adminId: number, name: string, except?: number): Promise<void> {
    let q = this.db.selectFrom('custom_roles').select('id').where('admin_id', '=', adminId).where('name', '=', name);
    if (except != null) q = q.where('id', '<>', except);
    if (await q.executeTakeFirst()) throw new ApiError(516, undefined, undefined, 'special.roleNameExists');
  }

  async add(
    caller: Caller,
    input: {
      name: string;
      desc?: string | undefined;
      functions?: string | undefined;
      dataGroups?: number[] | undefined;
    },
  ): Promise<{ rid: number }> {
    const name = input.name.trim();
    if (name === '') throw new ApiError(7, 'name');
    const adminId = administratorOf(caller);
    const functions = this.functionPoints(caller, input.functions ?? '');
    const dataGroups = [...new Set(input.dataGroups ?? [])].sort((a, b) => a - b);
    await this.deps.groups.requireOwnGroups(caller, dataGroups);
    await this.requireUniqueName(adminId, name);
    const now = this.deps.now();
    const row = {
      admin_id: adminId,
      name,
      description: input.desc ?? '',
      functions: JSON.stringify(functions),
      data_groups: JSON.stringify(dataGroups),
      created_at: now,
      updated_at: now,
    };
    const { id } = await this.db.insertInto('custom_roles').values(row).returning('id').executeTakeFirstOrThrow();
    await this.deps.audit.record({
      entity: 'custom_role',
      entityId: id,
      before: null,
      after: { ...row, functions, dataGroups },
    });
    return { rid: id };
  }

  async edit(
    caller: Caller,
    input: {
      rid: number;
      name?: string | undefined;
      desc?: string | undefined;
      functions?: string | undefined;
      dataGroups?: number[] | undefined;
    },
  ): Promise<void> {
    const role = await this.ownRole(caller, input.rid);
    const patch: { name?: string; description?: string; functions?: string; data_groups?: string } = {};
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (name === '') throw new ApiError(7, 'name');
      await this.requireUniqueName(role.admin_id, name, role.id);
      patch.name = name;
    }
    if (input.desc !== undefined) patch.description = input.desc;
    if (input.functions !== undefined) patch.functions = JSON.stringify(this.functionPoints(caller, input.functions));
    if (input.dataGroups !== undefined) {
      const next = [...new Set(input.dataGroups)].sort((a, b) => a - b);
      const current = parseGroupIds(role.data_groups).sort((a, b) => a - b);
      if (JSON.stringify(next) !== JSON.stringify(current)) {
        await this.deps.groups.requireOwnGroups(caller, next);
        if (await this.boundToDistributor(role.id))
          throw new ApiError(11, 'dataGroups', undefined, 'special.roleDataFrozen');
        patch.data_groups = JSON.stringify(next);
      }
    }
    if (Object.keys(patch).length === 0) return;
    await this.db
      .updateTable('custom_roles')
      .set({ ...patch, updated_at: this.deps.now() })
      .where('id', '=', role.id)
      .execute();
    const before = {
      name: role.name,
      description: role.description,
      functions: role.functions,
      data_groups: role.data_groups,
    };
    await this.deps.audit.record({ entity: 'custom_role', entityId: role.id, before, after: { ...before, ...patch } });
  }

  private async boundToDistributor(rid: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role_permission_id', '=', rid)
      .where('role', '=', ROLE.DISTRIBUTOR)
      .where('admin_of', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes a role; 528 while an account is bound to it. */
  async remove(caller: Caller, rid: number): Promise<void> {
    const role = await this.ownRole(caller, rid);
    const bound = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role_permission_id', '=', role.id)
      .executeTakeFirst();
    if (bound) throw new ApiError(528);
    await this.db.deleteFrom('custom_roles').where('id', '=', role.id).execute();
    await this.deps.audit.record({
      entity: 'custom_role',
      entityId: role.id,
      before: { name: role.name, functions: role.functions, data_groups: role.data_groups },
      after: null,
    });
  }

  /**
   * For the account-creating actions (addDist, addSubAdmin, addPlantOwner, editDist `rid`): the
   * role `rid` the caller may bind to an account of this kind — the caller's (368), and for a
   * distributor one without a data permission (11). Returns the role id to store in
   * `accounts.role_permission_id`.
   */
  async bindableRole(caller: Caller, rid: number, target: { role: number; admin_of: number | null }): Promise<number> {
    const role = await this.ownRole(caller, rid);
    if (isDistributor(target) && parseGroupIds(role.data_groups).length > 0) {
      throw new ApiError(11, 'rid', undefined, 'special.distRoleDataPermission');
    }
    return role.id;
  }

  /**
   * Binds a role to accounts in reach: rid required (7 "a role is required when assigning
   * permissions"), the caller's (368); accounts in reach, never itself or its principal (11); a
   * distributor never to a role with a data permission (11).
   */
  async assign(caller: Caller, uids: readonly number[], rid: number | undefined): Promise<void> {
    if (rid === undefined) throw new ApiError(7, 'rid', undefined, 'special.roleRequired');
    if (uids.length === 0) throw new ApiError(7, 'uid');
    const role = await this.ownRole(caller, rid);
    const hasData = parseGroupIds(role.data_groups).length > 0;
    const rows = [];
    for (const uid of uids) {
      const row = await subordinateInReach(this.deps.accounts, caller, uid);
      if (hasData && isDistributor(row))
        throw new ApiError(11, String(uid), undefined, 'special.distRoleDataPermission');
      rows.push(row);
    }
    for (const row of rows) {
      if (row.role_permission_id === role.id) continue;
      await this.db
        .updateTable('accounts')
        .set({ role_permission_id: role.id, updated_at: this.deps.now() })
        .where('id', '=', row.id)
        .execute();
      await this.deps.audit.record({
        entity: 'account',
        entityId: row.id,
        before: { role_permission_id: row.role_permission_id },
        after: { role_permission_id: role.id },
      });
    }
  }
}
