import { ROLE } from '@sunwatch/protocol';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { subtreeRange } from '../../db/dialect.js';
import type { Caller } from '../../context.js';
import type { AccountsRepository } from '../accounts/accounts.repository.js';

/**
 * What part of the telemetry (plants, dataloggers, devices, samples, alarms) a caller may read.
 * The server is the only authority: every telemetry query of plants/dataloggers/devices/overview
 * goes through `plantScopeSql` / `dataloggerScopeSql` (and devices through their datalogger).
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

export async function resolveTelemetryScope(
  db: Db,
  accounts: AccountsRepository,
  caller: Caller,
): Promise<TelemetryScope> {
  if (caller.role === ROLE.OPERATOR) return { kind: 'all', accountId: caller.accountId };
  if (caller.role === ROLE.VIEWER) return { kind: 'viewer', accountId: caller.accountId };
  const tree = await accounts.scopeOf({
    id: caller.accountId,
    role: caller.role,
    path: caller.path,
    adminOf: caller.adminOf,
  });
  if (tree.all) return { kind: 'all', accountId: caller.accountId };
  const adminIds = new Set<number>();
  if (caller.role === ROLE.MANUFACTURER || caller.role === ROLE.DISTRIBUTOR || caller.role === ROLE.GROUP) {
    adminIds.add(caller.accountId);
    if (caller.adminOf != null) adminIds.add(caller.adminOf);
    if (caller.role === ROLE.GROUP) {
      const members = await db
        .selectFrom('group_members')
        .select('member_id')
        .where('group_id', '=', caller.accountId)
        .execute();
      for (const m of members) adminIds.add(m.member_id);
    }
  }
  return { kind: 'tree', accountId: caller.accountId, roots: tree.roots, adminIds: [...adminIds] };
}

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
