import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 9, roles and groups (docs/accounts/roles-groups.md):
 * - `user_groups`: the user groups of an administrator (name unique per administrator);
 *   `accounts.group_id` is an account's group;
 * - `custom_roles`: function points and data permission (user group ids) of an administrator's
 *   roles; `accounts.role_permission_id` is an account's bound role;
 * - `accounts.member_group_id`: the user group a group account (role 3) is bound to; its members
 *   are the accounts whose `group_id` is that group. The legacy `group_members` rows are moved
 *   into one user group per group account (owned by the group account's parent);
 * - `ctrl_field_visibility`: per administrator × devcode × control id, whether owners
 *   (`owner_visible`) and sub-administrators (`subadmin_visible`) may see and write a control
 *   (no row = visible).
 */
export function roles(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('user_groups'))
        .addColumn('admin_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_groups_admin_name_uq')
        .on('user_groups')
        .columns(['admin_id', 'name'])
        .unique()
        .execute();

      await d
        .addIdColumn(db.schema.createTable('custom_roles'))
        .addColumn('admin_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        /** JSON array of PERMISSION_TREE names (ancestors of every granted child included). */
        .addColumn('functions', 'text', (c) => c.notNull())
        /** JSON array of user group ids; [] = no data permission set (the whole subtree). */
        .addColumn('data_groups', 'text', (c) => c.notNull())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('custom_roles_admin_name_uq')
        .on('custom_roles')
        .columns(['admin_id', 'name'])
        .unique()
        .execute();

      await db.schema.alterTable('accounts').addColumn('member_group_id', 'integer').execute();
      await db.schema.createIndex('accounts_group_idx').on('accounts').column('group_id').execute();
      await db.schema.createIndex('accounts_role_permission_idx').on('accounts').column('role_permission_id').execute();

      await db.schema
        .createTable('ctrl_field_visibility')
        .addColumn('admin_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('devcode', 'integer', (c) => c.notNull())
        .addColumn('control_id', 'text', (c) => c.notNull())
        .addColumn('owner_visible', 'integer', (c) => c.notNull())
        .addColumn('subadmin_visible', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ctrl_field_visibility_pk', ['admin_id', 'devcode', 'control_id'])
        .execute();

      // Legacy group_members → one user group per group account, owned by its parent.
      const groupAccounts = await db
        .selectFrom('accounts')
        .select(['id', 'usr', 'parent_id'])
        .where('role', '=', 3)
        .where('id', 'in', db.selectFrom('group_members').select('group_id'))
        .orderBy('id')
        .execute();
      const now = Date.now();
      for (const g of groupAccounts as Array<{ id: number; usr: string; parent_id: number | null }>) {
        const adminId = g.parent_id ?? g.id;
        const { id } = (await db
          .insertInto('user_groups')
          .values({ admin_id: adminId, name: `${g.usr} (${g.id})`, note: '', created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()) as { id: number };
        await db.updateTable('accounts').set({ member_group_id: id }).where('id', '=', g.id).execute();
        await db
          .updateTable('accounts')
          .set({ group_id: id })
          .where('group_id', 'is', null)
          .where('id', 'in', db.selectFrom('group_members').select('member_id').where('group_id', '=', g.id))
          .execute();
      }
      await sql`delete from group_members`.execute(db);
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
