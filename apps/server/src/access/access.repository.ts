import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/db.js';
import { currentDb } from '../db/transaction.js';
import { subtreeRange } from '../db/dialect.js';
import { parseFunctionPoints, parseGroupIds } from './permissions.js';

/** An account reached through a user group: its id and materialised path. */
export interface GroupMember {
  id: number;
  path: string;
}

/** The members of the user group a group account (role 3) is bound to. */
export async function boundGroupMembers(db: Db, groupAccountId: number): Promise<GroupMember[]> {
  return db
    .selectFrom('accounts as m')
    .select(['m.id', 'm.path'])
    .where('m.group_id', 'in', db.selectFrom('accounts as g').select('g.member_group_id').where('g.id', '=', groupAccountId))
    .orderBy('m.id')
    .execute();
}

/**
 * The data permission of a sub-administrator (role 2 with admin_of): the members of the user
 * groups named by its custom role that lie in the subtree of the account it administers; null
 * when it is no sub-administrator or its role names no group (the whole subtree).
 */
export async function dataPermissionMembers(db: Db, accountId: number): Promise<GroupMember[] | null> {
  const row = await db
    .selectFrom('accounts as a')
    .innerJoin('custom_roles as r', 'r.id', 'a.role_permission_id')
    .innerJoin('accounts as p', 'p.id', 'a.admin_of')
    .select(['r.data_groups', 'p.path as principalPath'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return null;
  const groups = parseGroupIds(row.data_groups);
  if (groups.length === 0) return null;
  const r = subtreeRange(row.principalPath);
  return db
    .selectFrom('accounts')
    .select(['id', 'path'])
    .where('group_id', 'in', groups)
    .where('path', '>=', r.from)
    .where('path', '<', r.to)
    .orderBy('id')
    .execute();
}

/**
 * What part of the telemetry (plants, dataloggers, devices, samples, alarms) a caller may read.
 * The server is the only authority: every telemetry query of plants/dataloggers/devices/overview
 * goes through `plantScopeSql` / `dataloggerScopeSql` (and devices through their datalogger), and
 * every check of ids named by a call through `AccessService.requireAccess` (access.service.ts).
 *
 * - operator (15): everything;
 * - manufacturer (1): plants and dataloggers owned in its subtree, and dataloggers with vendor_id = it;
 * - distributor (2): its subtree, and dataloggers with admin_id = it;
 * - sub-administrator (2 with admin_of): the same as the account it administers;
 * - group account (3): the union of its members' subtrees (and their managed dataloggers);
 * - owner (0): its own plants and dataloggers (its subtree);
 * - viewer (5): only the plants of viewer_projects (and their dataloggers/devices), read-only.
 */
export type TelemetryScope =
  | { kind: 'all'; accountId: number }
  | { kind: 'viewer'; accountId: number }
  | {
      kind: 'tree';
      accountId: number;
      /** Materialised paths of the subtrees whose plants/dataloggers are visible. */
      roots: string[];
      /** Admin accounts whose managed (admin_id) or made (vendor_id) dataloggers are visible. */
      adminIds: number[];
    };

function ownerInTree(col: RawBuilder<unknown>, roots: string[]): RawBuilder<SqlBool> {
  if (roots.length === 0) return sql<SqlBool>`1 = 0`;
  const ranges = sql.join(
    roots.map((p) => {
      const r = subtreeRange(p);
      return sql`(a.path >= ${r.from} and a.path < ${r.to})`;
    }),
    sql` or `,
  );
  return sql<SqlBool>`${col} in (select a.id from accounts a where ${ranges})`;
}

/** Where-clause: the plant row `alias` (default `projects`) is visible. */
export function plantScopeSql(scope: TelemetryScope, alias = 'projects'): RawBuilder<SqlBool> {
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'viewer':
      return sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select vp.project_id from viewer_projects vp where vp.viewer_id = ${scope.accountId})`;
    case 'tree':
      return ownerInTree(sql.ref(`${alias}.owner_id`), scope.roots);
  }
}

/** Where-clause: the datalogger row `alias` (default `dataloggers`) is visible (devices: via their datalogger). */
export function dataloggerScopeSql(scope: TelemetryScope, alias = 'dataloggers'): RawBuilder<SqlBool> {
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'viewer':
      return sql<SqlBool>`${sql.ref(`${alias}.project_id`)} in (select vp.project_id from viewer_projects vp where vp.viewer_id = ${scope.accountId})`;
    case 'tree': {
      const owner = ownerInTree(sql.ref(`${alias}.owner_id`), scope.roots);
      if (scope.adminIds.length === 0) return owner;
      const ids = sql.join(scope.adminIds.map((id) => sql`${id}`));
      return sql<SqlBool>`(${owner} or ${sql.ref(`${alias}.admin_id`)} in (${ids}) or ${sql.ref(`${alias}.vendor_id`)} in (${ids}))`;
    }
  }
}

/**
 * The SQL of access checks: which of many ids of one kind a scope may see, in one query each
 * (like Immich's access repository). Lists and aggregates put the same predicates
 * (`plantScopeSql`, `dataloggerScopeSql`) into their own queries.
 */
export class AccessRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  /**
   * Members of a group account: the accounts of the user group it is bound to
   * (`accounts.member_group_id`); their subtrees and managed dataloggers are the group's. Read on
   * every call, so moving an account into or out of the group changes what it sees at once.
   */
  async groupMembers(groupAccountId: number): Promise<number[]> {
    return (await boundGroupMembers(this.db, groupAccountId)).map((m) => m.id);
  }

  /**
   * The accounts a sub-administrator's data permission reaches (the members of the user groups of
   * its custom role, inside the subtree of the account it administers), or null when its role
   * sets no data permission (it then reaches that whole subtree).
   */
  async dataPermissionMembers(accountId: number): Promise<number[] | null> {
    const members = await dataPermissionMembers(this.db, accountId);
    return members && members.map((m) => m.id);
  }

  /**
   * The function points of the custom role bound to a role-2 account, or undefined when none is
   * bound (the account's own `permissions` list then applies: `permissionSet`). No cache: a role
   * edit counts from the next call on every instance.
   */
  async roleFunctions(accountId: number): Promise<Set<string> | undefined> {
    const row = await this.db
      .selectFrom('accounts as a')
      .innerJoin('custom_roles as r', 'r.id', 'a.role_permission_id')
      .select('r.functions')
      .where('a.id', '=', accountId)
      .executeTakeFirst();
    return row ? parseFunctionPoints(row.functions) : undefined;
  }

  /** The plants among `ids` the scope may see. */
  async visiblePlantIds(scope: TelemetryScope, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('projects')
      .select('id')
      .where('id', 'in', [...ids])
      .where(plantScopeSql(scope, 'projects'))
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The dataloggers among `pns` the scope may see. */
  async visiblePns(scope: TelemetryScope, pns: readonly string[]): Promise<Set<string>> {
    if (pns.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('dataloggers')
      .select('pn')
      .where('pn', 'in', [...pns])
      .where(dataloggerScopeSql(scope, 'dataloggers'))
      .execute();
    return new Set(rows.map((r) => r.pn));
  }

  /** The devices among `ids` the scope may see (through their datalogger). */
  async visibleDeviceIds(scope: TelemetryScope, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('devices as d')
      .innerJoin('dataloggers as dl', 'dl.id', 'd.datalogger_id')
      .select('d.id')
      .where('d.id', 'in', [...ids])
      .where(dataloggerScopeSql(scope, 'dl'))
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }
}
