import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { parseFunctionPoints, parseGroupIds } from '../../access/permissions.js';
import type { AccountLinks, CustomRoleRef, UserGroupRef } from '../accounts/account-links.js';

/**
 * Account management's port to custom roles and user groups (`modules/accounts/account-links.ts`),
 * over the tables of migration 0007. Wired in `create-context.ts`.
 */
export class RoleGroupLinks implements AccountLinks {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async findRole(adminId: number, rid: number): Promise<CustomRoleRef | undefined> {
    const row = await this.db
      .selectFrom('custom_roles')
      .select(['id', 'name', 'functions', 'data_groups'])
      .where('id', '=', rid)
      .where('admin_id', '=', adminId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: Number(row.id),
      name: row.name,
      functions: [...parseFunctionPoints(row.functions)],
      hasDataPermission: parseGroupIds(row.data_groups).length > 0,
    };
  }

  async findGroup(adminId: number, groupid: number): Promise<UserGroupRef | undefined> {
    const row = await this.db
      .selectFrom('user_groups')
      .select(['id', 'name'])
      .where('id', '=', groupid)
      .where('admin_id', '=', adminId)
      .executeTakeFirst();
    return row ? { id: Number(row.id), name: row.name } : undefined;
  }

  async groupAccountOf(groupid: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('member_group_id', '=', groupid)
      .where('role', '=', 3)
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async bindGroupAccount(accountId: number, groupid: number): Promise<void> {
    await this.db.updateTable('accounts').set({ member_group_id: groupid }).where('id', '=', accountId).execute();
  }

  roleNames(ids: readonly number[]): Promise<Map<number, string>> {
    return this.names('custom_roles', ids);
  }

  groupNames(ids: readonly number[]): Promise<Map<number, string>> {
    return this.names('user_groups', ids);
  }

  private async names(table: 'custom_roles' | 'user_groups', ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((i) => i > 0))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('id', 'in', wanted)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }
}
