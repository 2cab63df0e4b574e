import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/db.js';
import { currentDb } from '../db/transaction.js';
import { subtreeRange } from '../db/dialect.js';

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

  /** Members of a group account (their subtrees and managed dataloggers are the group's). */
  async groupMembers(groupId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .select('member_id')
      .where('group_id', '=', groupId)
      .execute();
    return rows.map((r) => r.member_id);
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
