import { ApiError, ROLE } from '@sunwatch/protocol';
import type { Caller } from '../context.js';
import type { AccessRepository, TelemetryScope } from './access.repository.js';

/** What a call asks to read, by kind of id (Immich-style permission names). */
export type AccessPermission = 'plant.read' | 'datalogger.read' | 'device.read';

/** Plants and devices are named by id, dataloggers by PN. */
export type AccessId<P extends AccessPermission> = P extends 'datalogger.read' ? string : number;

/**
 * The account tree (the accounts repository's `scopeOf`): the subtrees an account sees. Declared
 * here so that access, below every module, imports none of them.
 */
export interface AccountTree {
  scopeOf(subject: {
    id: number;
    role: number;
    path: string;
    adminOf: number | null;
  }): Promise<{ all: true } | { all: false; roots: string[] }>;
}

export interface AccessRequest<P extends AccessPermission> {
  caller: Caller;
  permission: P;
  ids: readonly AccessId<P>[];
  /** The caller's scope when the service already resolved it (saves a query). */
  scope?: TelemetryScope | undefined;
}

/**
 * The error a missing or foreign id answers: another tenant's plant, datalogger or device answers
 * exactly like a missing one (260 / 257 / 258).
 */
const NOT_FOUND = {
  'plant.read': 260,
  'datalogger.read': 257,
  'device.read': 258,
} as const satisfies Record<AccessPermission, number>;

/**
 * The one place that decides what part of the tenant tree a caller may see:
 * - `scopeOf(caller)`: the caller's telemetry scope, for lists and aggregates (their repositories
 *   put `plantScopeSql` / `dataloggerScopeSql` of access.repository.ts into their queries);
 * - `checkAccess` / `requireAccess`: many ids of one kind checked in one query; `requireAccess`
 *   refuses the call when any is not visible.
 * Module permissions of role-2 accounts (`access.permission` of the catalogue) are enforced by the
 * dispatcher with `callerHasPermission` (permissions.ts) before a handler runs.
 */
export class AccessService {
  constructor(
    private readonly repo: AccessRepository,
    private readonly accounts: AccountTree,
  ) {}

  /**
   * - operator (15): everything;
   * - manufacturer (1): plants and dataloggers owned in its subtree, and dataloggers with vendor_id = it;
   * - distributor (2): its subtree, and dataloggers with admin_id = it;
   * - sub-administrator (2 with admin_of): the same as the account it administers, or, when its
   *   custom role sets a data permission, only the subtrees of the members of those user groups;
   * - group account (3): the union of the subtrees of the members of its bound user group (and
   *   their managed dataloggers);
   * - owner (0): its own plants and dataloggers (its subtree);
   * - viewer (5): only the plants of viewer_projects (and their dataloggers/devices), read-only.
   */
  async scopeOf(caller: Caller): Promise<TelemetryScope> {
    if (caller.role === ROLE.OPERATOR) return { kind: 'all', accountId: caller.accountId };
    if (caller.role === ROLE.VIEWER) return { kind: 'viewer', accountId: caller.accountId };
    const tree = await this.accounts.scopeOf({
      id: caller.accountId,
      role: caller.role,
      path: caller.path,
      adminOf: caller.adminOf,
    });
    if (tree.all) return { kind: 'all', accountId: caller.accountId };
    const adminIds = new Set<number>();
    if (caller.role === ROLE.MANUFACTURER || caller.role === ROLE.DISTRIBUTOR || caller.role === ROLE.GROUP) {
      adminIds.add(caller.accountId);
      if (caller.adminOf != null) {
        // A data permission (user groups of the sub-administrator's role) replaces the principal.
        const members = await this.repo.dataPermissionMembers(caller.accountId);
        if (members) for (const m of members) adminIds.add(m);
        else adminIds.add(caller.adminOf);
      }
      if (caller.role === ROLE.GROUP) for (const m of await this.repo.groupMembers(caller.accountId)) adminIds.add(m);
    }
    return { kind: 'tree', accountId: caller.accountId, roots: tree.roots, adminIds: [...adminIds] };
  }

  /**
   * The function points of the custom role bound to a role-2 account (undefined: none bound).
   * The dispatcher's per-action check and queryAccountInfo's `permission[]` both read them.
   */
  roleFunctions(accountId: number): Promise<Set<string> | undefined> {
    return this.repo.roleFunctions(accountId);
  }

  /** The ids of `ids` the caller may read (one query). */
  async checkAccess<P extends AccessPermission>(req: AccessRequest<P>): Promise<Set<AccessId<P>>> {
    if (req.ids.length === 0) return new Set();
    const scope = req.scope ?? (await this.scopeOf(req.caller));
    switch (req.permission) {
      case 'plant.read':
        return (await this.repo.visiblePlantIds(scope, req.ids as readonly number[])) as Set<AccessId<P>>;
      case 'datalogger.read':
        return (await this.repo.visiblePns(scope, req.ids as readonly string[])) as Set<AccessId<P>>;
      case 'device.read':
        return (await this.repo.visibleDeviceIds(scope, req.ids as readonly number[])) as Set<AccessId<P>>;
    }
    throw new Error(`unknown access permission ${String(req.permission)}`);
  }

  /**
   * Every id of `ids` the caller may read, else the kind's not-found error for the first one that
   * is missing or another tenant's (260 plant, 257 datalogger with its PN, 258 device).
   */
  async requireAccess<P extends AccessPermission>(req: AccessRequest<P>): Promise<Set<AccessId<P>>> {
    const allowed = await this.checkAccess(req);
    const refused = req.ids.find((id) => !allowed.has(id));
    if (refused !== undefined) {
      const code: (typeof NOT_FOUND)[AccessPermission] = NOT_FOUND[req.permission];
      throw req.permission === 'datalogger.read' ? new ApiError(code, String(refused)) : new ApiError(code);
    }
    return allowed;
  }
}
