import { ROLE, type ActionDef, type PermissionModule, type Role } from '@sunwatch/protocol';
import {
  ACCOUNT_PARENT,
  BUTTON_CALLERS,
  isButtonCaller,
  roleFunctionsOf,
  SUBADMIN_MODULES,
  type CallerKey,
  type Fixture,
  type ObjectKey,
  type Unit,
} from './fixture.js';

/**
 * What the isolation matrix knows about the fixture: who each caller is, what each may see, and
 * the outcome the catalogue prescribes for a cell. Everything here is derived from the fixture's
 * tree (fixture.ts) and the catalogue's access rules; the entries (entries.ts) only say what kind
 * of object an action names and how to build its parameters.
 */

export type WireParams = Record<string, string | number>;

/**
 * The kind of object a call names. Accounts come in several kinds because actions take different
 * targets: `account` (read: self allowed), `owner` (owners holding data), `emptyOwner` (owners
 * holding nothing: delete, move), `dist` (subordinate distributors), `viewer` (viewers).
 * `group` and `role` are the user groups and custom roles of an administrator.
 */
export type RefKind =
  | 'none'
  | 'plant'
  | 'datalogger'
  | 'device'
  | 'account'
  | 'owner'
  | 'emptyOwner'
  | 'dist'
  | 'viewer'
  | 'group'
  | 'role';

/** The references tried for each kind (the object keys of the fixture, plus a missing one). */
export const REFS = {
  none: ['-'],
  plant: ['A1', 'A1X', 'A2', 'B', 'missing'],
  datalogger: ['A1', 'A1X', 'A2', 'AU', 'B', 'BU', 'missing'],
  device: ['A1', 'A1X', 'A2', 'B', 'missing'],
  account: ['self', 'O1', 'O2', 'V1', 'O3', 'missing'],
  owner: ['O1', 'O2', 'O3', 'missing'],
  emptyOwner: ['E1', 'E3', 'missing'],
  dist: ['DS1', 'DSB', 'missing'],
  viewer: ['V1', 'V2', 'V3', 'missing'],
  group: ['GA', 'GB', 'missing'],
  role: ['RA', 'RB', 'missing'],
} as const satisfies Record<RefKind, readonly string[]>;

/** Account reference kinds (a uid; out of reach answers like a missing account). */
export const ACCOUNT_KINDS: ReadonlySet<RefKind> = new Set<RefKind>([
  'account',
  'owner',
  'emptyOwner',
  'dist',
  'viewer',
]);
export type RefKey<K extends RefKind = RefKind> = (typeof REFS)[K][number];

/** The error a reference the caller may not see answers: exactly the answer to a missing one. */
export const NOT_FOUND: Record<Exclude<RefKind, 'none'>, number> = {
  plant: 260,
  datalogger: 257,
  device: 258,
  // decisions.md / accounts.service: no permission, another tenant's uid and a missing uid alike.
  account: 11,
  owner: 11,
  emptyOwner: 11,
  dist: 11,
  viewer: 11,
  // groups.service / roles.service: another administrator's and a missing one alike.
  group: 369,
  role: 368,
};

export const MISSING = {
  pid: 987654321,
  pn: 'ZZMISSINGPN0001',
  sn: 'ZZMISSINGSN0001',
  uid: 987654321,
} as const;

export const CALLERS: readonly CallerKey[] = [
  'OP',
  'M1',
  'D1',
  'G1',
  ...SUBADMIN_MODULES.map((m) => `SA_${m}` as const),
  'SA_none',
  'O1',
  'O2',
  'V1',
  'D2',
  'O3',
  'ANON',
  'DISABLED',
];

export const ROLE_OF: Record<CallerKey, Role | null> = {
  ...Object.fromEntries(BUTTON_CALLERS.map((c) => [c, ROLE.DISTRIBUTOR])),
  OP: ROLE.OPERATOR,
  M1: ROLE.MANUFACTURER,
  D1: ROLE.DISTRIBUTOR,
  G1: ROLE.GROUP,
  SA_overview: ROLE.DISTRIBUTOR,
  SA_device_manag: ROLE.DISTRIBUTOR,
  SA_account_manag: ROLE.DISTRIBUTOR,
  SA_alarm_manag: ROLE.DISTRIBUTOR,
  SA_system_settings: ROLE.DISTRIBUTOR,
  SA_none: ROLE.DISTRIBUTOR,
  O1: ROLE.OWNER,
  O2: ROLE.OWNER,
  V1: ROLE.VIEWER,
  D2: ROLE.DISTRIBUTOR,
  O3: ROLE.OWNER,
  ANON: null,
  DISABLED: ROLE.OWNER,
};

/**
 * Whether a caller holds a function point (module or button): a sub-administrator exactly the
 * function points of its bound custom role (fixture.ts roleFunctionsOf), every other account is
 * not limited by function points.
 */
function holdsPoint(caller: CallerKey, point: string): boolean {
  const f = roleFunctionsOf(caller);
  return f === null || f.includes(point);
}

export function holds(caller: CallerKey, module: PermissionModule): boolean {
  return holdsPoint(caller, module);
}

/** A function point (button), read from the caller's role: holding the module is not enough. */
export function holdsButton(caller: CallerKey, button: string): boolean {
  return holdsPoint(caller, button);
}

const ADMINS_A: readonly CallerKey[] = [
  'M1',
  'D1',
  'G1',
  ...SUBADMIN_MODULES.map((m) => `SA_${m}` as const),
  'SA_none',
  ...BUTTON_CALLERS,
];

/**
 * Who may see the rows of a unit (telemetry and free text). The operator sees everything;
 * tenant A's administrators see all of tenant A; owners their own plants; the viewer only plant
 * A1; tenant B's callers only tenant B (the distributor also its unbound datalogger).
 */
export const UNIT_VISIBLE_TO: Record<Unit, ReadonlySet<CallerKey>> = {
  A: new Set<CallerKey>(['OP', ...ADMINS_A, 'O1', 'O2', 'V1']),
  A1: new Set<CallerKey>(['OP', ...ADMINS_A, 'O1', 'V1']),
  A1X: new Set<CallerKey>(['OP', ...ADMINS_A, 'O1']),
  A2: new Set<CallerKey>(['OP', ...ADMINS_A, 'O2']),
  AU: new Set<CallerKey>(['OP', ...ADMINS_A]),
  B: new Set<CallerKey>(['OP', 'D2', 'O3']),
  BU: new Set<CallerKey>(['OP', 'D2']),
};

/** The account key a caller signs in as. */
export function accountKeyOf(caller: CallerKey): string {
  if (isButtonCaller(caller)) return 'SAB';
  return caller === 'DISABLED' ? 'ODIS' : caller;
}

/** The account whose subtree a sub-administrator acts on, else null. */
export function principalOf(caller: CallerKey): string | null {
  return caller.startsWith('SA_') ? 'D1' : null;
}

/** The administrator whose user groups and roles a caller works on (groups.service administratorOf). */
export function administratorOf(caller: CallerKey): string {
  return principalOf(caller) ?? accountKeyOf(caller);
}

function isUnder(target: string, root: string): boolean {
  for (let k: string | null = target; k; k = ACCOUNT_PARENT[k] ?? null) if (k === root) return true;
  return false;
}

/**
 * Whether an account lies in the caller's part of the tenant tree (accounts.repository scopeOf):
 * the operator everything; others their own subtree, a group account also its members' (D1), a
 * sub-administrator also its principal's (D1).
 */
export function inAccountScope(caller: CallerKey, target: string): boolean {
  if (caller === 'ANON') return false;
  if (caller === 'OP') return true;
  const roots = [accountKeyOf(caller)];
  if (caller === 'G1') roots.push('D1');
  const p = principalOf(caller);
  if (p) roots.push(p);
  return roots.some((r) => isUnder(target, r));
}

/**
 * May the caller manage the account: not itself, not its principal, in its write scope (a group
 * account only reads its members' accounts: it changes only its own subtree), with account_manag?
 */
export function manages(caller: CallerKey, target: string): boolean {
  if (target === accountKeyOf(caller) || target === principalOf(caller)) return false;
  const inWriteScope = caller === 'G1' ? isUnder(target, 'G1') : inAccountScope(caller, target);
  return inWriteScope && holds(caller, 'account_manag');
}

/** Group and role owners (the fixture's GA/RA are D1's, GB/RB D2's). */
const ADMIN_OF_REF: Record<string, string> = { GA: 'D1', RA: 'D1', GB: 'D2', RB: 'D2' };

/** Markers a caller must never receive. The operator may see everything. */
export function forbiddenMarkers(fx: Fixture, caller: CallerKey): string[] {
  return (Object.keys(UNIT_VISIBLE_TO) as Unit[])
    .filter((u) => !UNIT_VISIBLE_TO[u].has(caller))
    .map((u) => fx.markers[u]);
}

/** Whether the caller may see (or manage) the referenced object (the reference exists in the fixture). */
export function refVisible(kind: RefKind, ref: RefKey, caller: CallerKey, read = false): boolean {
  if (kind === 'none') return true;
  if (ref === 'missing' || caller === 'ANON') return false;
  if (kind === 'account' || (read && ACCOUNT_KINDS.has(kind))) {
    if (ref === 'self' || ref === accountKeyOf(caller)) return true;
    return inAccountScope(caller, ref) && holds(caller, 'account_manag');
  }
  if (ACCOUNT_KINDS.has(kind)) return manages(caller, ref);
  if (kind === 'group' || kind === 'role') return administratorOf(caller) === ADMIN_OF_REF[ref];
  return UNIT_VISIBLE_TO[ref as Unit].has(caller);
}

/** Object units that a count of `kind` may include for this caller. */
export function visibleCount(fx: Fixture, kind: 'plant' | 'datalogger' | 'device', caller: CallerKey): number {
  const rows: Partial<Record<ObjectKey, { unit: Unit }>> =
    kind === 'plant' ? fx.plants : kind === 'datalogger' ? fx.dataloggers : fx.devices;
  return Object.values(rows).filter((r) => r && UNIT_VISIBLE_TO[r.unit].has(caller)).length;
}

export interface Outcome {
  ok: boolean;
  /** The expected err when !ok. */
  code: number;
  why: string;
}

/**
 * The outcome the catalogue prescribes, in the dispatcher's order: authentication (10), role
 * list (11), role-2 module permission (11), the viewer's read-only rule (11), then the
 * reference (the kind's not-found code when the caller may not see it).
 */
export function expectedOutcome(
  def: ActionDef,
  opts: { kind: RefKind; personal?: string | undefined; notFound?: number | undefined; read?: boolean | undefined },
  caller: CallerKey,
  ref: RefKey,
): Outcome {
  const role = ROLE_OF[caller] as Role | null | undefined;
  if (role === undefined) throw new Error(`no role for caller ${caller}`);
  if (def.access.auth === 'signed' && (caller === 'ANON' || caller === 'DISABLED'))
    return { ok: false, code: 10, why: 'no usable token' };
  if (role === null) return { ok: false, code: 10, why: 'anonymous' };
  if (def.access.roles && !(def.access.roles as readonly number[]).includes(role))
    return { ok: false, code: 11, why: `role ${role} not in ${def.access.roles.join(',')}` };
  if (def.access.permission && !holds(caller, def.access.permission))
    return { ok: false, code: 11, why: `lacks ${def.access.permission}` };
  if (def.access.button && !holdsButton(caller, def.access.button))
    return { ok: false, code: 11, why: `lacks ${def.access.button}` };
  if (def.mutates && role === ROLE.VIEWER && !opts.personal) return { ok: false, code: 11, why: 'viewer is read-only' };
  if (!refVisible(opts.kind, ref, caller, opts.read))
    return {
      ok: false,
      code: opts.notFound ?? NOT_FOUND[opts.kind as Exclude<RefKind, 'none'>],
      why: `${opts.kind} ${ref} not visible`,
    };
  return { ok: true, code: 0, why: 'visible' };
}
