import { sql, type SqlBool } from 'kysely';
import { ApiError, type UsrGroupRow } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { likePattern } from '../../db/like.js';
import { parseGroupIds } from '../../access/permissions.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { formatUtc } from '../accounts/accounts.service.js';

/**
 * The administrator whose user groups and custom roles a caller works on: a sub-administrator
 * works on those of the account it administers, everyone else on its own.
 */
export function administratorOf(caller: Pick<Caller, 'accountId' | 'adminOf'>): number {
  return caller.adminOf ?? caller.accountId;
}

/** The account a caller reaches for moving, binding or grouping: in its scope, not itself, not its principal. */
export async function subordinateInReach(accounts: AccountsService, caller: Caller, uid: number) {
  if (uid === caller.accountId || uid === caller.adminOf) throw new ApiError(11);
  return accounts.accountInScope(
    { id: caller.accountId, role: caller.role, path: caller.path, adminOf: caller.adminOf },
    uid,
  );
}

export interface GroupsDeps {
  db: Db;
  accounts: AccountsService;
  audit: AuditService;
  now: () => number;
}

/**
 * User groups (spec §3 Group): owned by an administrator (manufacturer, distributor, operator;
 * a sub-administrator works on its principal's), name unique per administrator (516), note and
 * member count. Members are the accounts whose `group_id` is the group; a group account
 * (role 3) bound to a group (`member_group_id`) sees the union of its members.
 */
export class GroupsService {
  constructor(private readonly deps: GroupsDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /** The group if it is the caller's administrator's, else err 369 (foreign and missing alike). */
  async ownGroup(caller: Caller, groupId: number) {
    const row = await this.db
      .selectFrom('user_groups')
      .selectAll()
      .where('id', '=', groupId)
      .where('admin_id', '=', administratorOf(caller))
      .executeTakeFirst();
    if (!row) throw new ApiError(369);
    return row;
  }

  /** Every group id of `ids` is the caller's administrator's, else err 369. */
  async requireOwnGroups(caller: Caller, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.db
      .selectFrom('user_groups')
      .select('id')
      .where('id', 'in', [...ids])
      .where('admin_id', '=', administratorOf(caller))
      .execute();
    if (rows.length !== new Set(ids).size) throw new ApiError(369);
  }

  async list(
    caller: Caller,
    f: { name?: string | undefined; page: number; pagesize: number },
  ): Promise<{ total: number; page: number; pagesize: number; group: UsrGroupRow[] }> {
    let q = this.db.selectFrom('user_groups as g').where('g.admin_id', '=', administratorOf(caller));
    if (f.name) q = q.where(sql<SqlBool>`lower(g.name) like ${likePattern(f.name)} escape '\\'`);
    const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['g.id', 'g.name', 'g.note', 'g.created_at'])
      .select((eb) =>
        eb
          .selectFrom('accounts as a')
          .whereRef('a.group_id', '=', 'g.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('count'),
      )
      .orderBy('g.name')
      .orderBy('g.id')
      .limit(f.pagesize)
      .offset(f.page * f.pagesize)
      .execute();
    return {
      total: Number(total),
      page: f.page,
      pagesize: f.pagesize,
      group: rows.map((r) => ({
        groupid: r.id,
        name: r.name,
        note: r.note,
        count: Number(r.count ?? 0),
        gts: formatUtc(Number(r.created_at)),
      })),
    };
  }

  private async requireUniqueName(adminId: number, name: string, except?: number): Promise<void> {
    let q = this.db.selectFrom('user_groups').select('id').where('admin_id', '=', adminId).where('name', '=', name);
    if (except != null) q = q.where('id', '<>', except);
    if (await q.executeTakeFirst()) throw new ApiError(516);
  }

  async add(caller: Caller, input: { name: string; note?: string | undefined }): Promise<{ groupid: number }> {
    const name = input.name.trim();
    if (name === '') throw new ApiError(7, 'name');
    const adminId = administratorOf(caller);
    await this.requireUniqueName(adminId, name);
    const now = this.deps.now();
    const row = { admin_id: adminId, name, note: input.note ?? '', created_at: now, updated_at: now };
    const { id } = await this.db.insertInto('user_groups').values(row).returning('id').executeTakeFirstOrThrow();
    await this.deps.audit.record({ entity: 'user_group', entityId: id, before: null, after: row });
    return { groupid: id };
  }

  async edit(
    caller: Caller,
    input: { groupid: number; name?: string | undefined; note?: string | undefined },
  ): Promise<void> {
    const group = await this.ownGroup(caller, input.groupid);
    const patch: { name?: string; note?: string } = {};
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (name === '') throw new ApiError(7, 'name');
      await this.requireUniqueName(group.admin_id, name, group.id);
      patch.name = name;
    }
    if (input.note !== undefined) patch.note = input.note;
    if (Object.keys(patch).length === 0) return;
    await this.db
      .updateTable('user_groups')
      .set({ ...patch, updated_at: this.deps.now() })
      .where('id', '=', group.id)
      .execute();
    await this.deps.audit.record({
      entity: 'user_group',
      entityId: group.id,
      before: { name: group.name, note: group.note },
      after: { name: patch.name ?? group.name, note: patch.note ?? group.note },
    });
  }

  /**
   * Deletes a group; its members become ungrouped. Refused (518) while a group account is bound
   * to it or a role's data permission names it (deleting it would silently change what they see).
   */
  async remove(caller: Caller, groupId: number): Promise<void> {
    const group = await this.ownGroup(caller, groupId);
    const bound = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('member_group_id', '=', group.id)
      .executeTakeFirst();
    if (bound) throw new ApiError(518, undefined, undefined, 'special.groupInUse');
    const roles = await this.db
      .selectFrom('custom_roles')
      .select('data_groups')
      .where('admin_id', '=', group.admin_id)
      .execute();
    if (roles.some((r) => parseGroupIds(r.data_groups).includes(group.id))) {
      throw new ApiError(518, undefined, undefined, 'special.groupInUse');
    }
    const members = await this.db.selectFrom('accounts').select('id').where('group_id', '=', group.id).execute();
    await this.db.updateTable('accounts').set({ group_id: null }).where('group_id', '=', group.id).execute();
    await this.db.deleteFrom('user_groups').where('id', '=', group.id).execute();
    await this.deps.audit.record({
      entity: 'user_group',
      entityId: group.id,
      before: { name: group.name, note: group.note, members: members.map((m) => m.id) },
      after: null,
    });
  }

  /** Moves accounts in reach (11 otherwise) into one of the caller's groups (369 otherwise), or out of any. */
  async move(caller: Caller, uids: readonly number[], groupId: number | ''): Promise<void> {
    if (uids.length === 0) throw new ApiError(7, 'uid');
    const target = groupId === '' ? null : (await this.ownGroup(caller, groupId)).id;
    const rows = [];
    for (const uid of uids) rows.push(await subordinateInReach(this.deps.accounts, caller, uid));
    for (const row of rows) {
      if (row.group_id === target) continue;
      await this.db
        .updateTable('accounts')
        .set({ group_id: target, updated_at: this.deps.now() })
        .where('id', '=', row.id)
        .execute();
      await this.deps.audit.record({
        entity: 'account',
        entityId: row.id,
        before: { group_id: row.group_id },
        after: { group_id: target },
      });
    }
  }
}
