import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { parseFunctionPoints, parseGroupIds } from '../../access/permissions.js';
import type { AccountLinks } from '../accounts/account-links.js';

/**
 * The account-management port (`modules/accounts/account-links.ts`) over the user groups and
 * custom roles of migration 0007: what addGroupAccount, addSubAdmin, addDist, addPlantOwner and
 * the account lists need of them (wired in create-context.ts at the merge of issue 9).
 */
export function userGroupAndRoleLinks(root: Db): AccountLinks {
  const db = () => currentDb(root);
  return {
    async findRole(adminId, rid) {
      const r = await db()
        .selectFrom('custom_roles')
        .select(['id', 'name', 'functions', 'data_groups'])
        .where('id', '=', rid)
        .where('admin_id', '=', adminId)
        .executeTakeFirst();
      if (!r) return undefined;
      return {
        id: r.id,
        name: r.name,
        functions: [...parseFunctionPoints(r.functions)],
        hasDataPermission: parseGroupIds(r.data_groups).length > 0,
      };
    },
    async findGroup(adminId, groupid) {
      const g = await db()
        .selectFrom('user_groups')
        .select(['id', 'name'])
        .where('id', '=', groupid)
        .where('admin_id', '=', adminId)
        .executeTakeFirst();
      return g ? { id: g.id, name: g.name } : undefined;
    },
    async groupAccountOf(groupid) {
      const a = await db()
        .selectFrom('accounts')
        .select('id')
        .where('member_group_id', '=', groupid)
        .where('role', '=', 3)
        .executeTakeFirst();
      return a?.id;
    },
    async bindGroupAccount(accountId, groupid) {
      await db().updateTable('accounts').set({ member_group_id: groupid }).where('id', '=', accountId).execute();
    },
    async roleNames(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db()
        .selectFrom('custom_roles')
        .select(['id', 'name'])
        .where('id', 'in', [...ids])
        .execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    async groupNames(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db()
        .selectFrom('user_groups')
        .select(['id', 'name'])
        .where('id', 'in', [...ids])
        .execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}
