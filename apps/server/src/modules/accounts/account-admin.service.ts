import { ACCOUNT_STATUS, ApiError, ROLE, type AccountInfoDat, type AccountListRow, type Role } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import { callerHasPermission, isSubAdministrator } from '../../access/permissions.js';
import type { AuditChange } from '../audit/audit.service.js';
import type { AccountLinks } from './account-links.js';
import type { AccountAdminRepository, AccountListFilter, AccountListItem } from './account-admin.repository.js';
import { checkDealerCodes, checkProfile, checkUsername, requireFreeContact, type ProfileInput } from './account-fields.js';
import type { AccountRow, AccountsRepository, Scope, ScopeSubject } from './accounts.repository.js';
import { ACCOUNT_MANAGEMENT_PERMISSION, formatUtc, type AccountsService } from './accounts.service.js';

/** The function point a sub-administrator needs (besides account_manag) to see contact data. */
export const ACCOUNT_DETAIL_PERMISSION = 'account_detail';

export interface Paging {
  page: number;
  pagesize: number;
}

export interface Paged<T> {
  total: number;
  page: number;
  pagesize: number;
  rows: T[];
}

/** A new account made by another (addDist, addPlantOwner, addGroupAccount, addSubAdmin). */
export interface NewSubAccount extends ProfileInput {
  usr: string;
  /** sha1hex of the password (`subAccountPasswordOfCall`). */
  pwdSha1: string;
}

export interface Auditor {
  record(change: AuditChange): Promise<void>;
}

/** Fields of an account row that the audit shows (never password material). */
const AUDITED = [
  'usr',
  'role',
  'parent_id',
  'path',
  'status',
  'qname',
  'email',
  'mobile',
  'photo',
  'qq',
  'wx',
  'cname',
  'caddr',
  'ctel',
  'bomb',
  'description',
  'vendor_code',
  'dealer_code',
  'can_add_datalogger',
  'group_id',
  'role_permission_id',
  'admin_of',
  'created_by',
] as const satisfies readonly (keyof AccountRow)[];

export function auditView(row: AccountRow, fields: readonly (keyof AccountRow)[] = AUDITED): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, row[f]]));
}

function subjectOf(caller: Caller): ScopeSubject {
  return { id: caller.accountId, role: caller.role, path: caller.path, adminOf: caller.adminOf };
}

/**
 * Account management of spec §2 / §3 / §5 (issue 9), enforced here: every action reaches only the
 * accounts of the caller's scope (`AccountsRepository.scopeOf`), never the caller itself nor the
 * account a sub-administrator acts for; out of reach and missing ids answer err 11 alike.
 */
export class AccountAdminService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly repo: AccountAdminRepository,
    private readonly accountsService: AccountsService,
    private readonly links: AccountLinks,
    private readonly sessions: {
      revokeAccountSessions(accountId: number, now: number): Promise<number>;
      revokeAccountRemember(accountId: number, now: number): Promise<number>;
    },
    private readonly audit: Auditor,
    private readonly now: () => number,
  ) {}

  // ------------------------------------------------------------------ reach

  scope(caller: Caller): Promise<Scope> {
    return this.accounts.scopeOf(subjectOf(caller));
  }

  /** The account whose subtree the caller administers: itself, or (sub-administrators) its principal. */
  principalId(caller: Caller): number {
    return caller.adminOf ?? caller.accountId;
  }

  private async principalPath(caller: Caller): Promise<string> {
    if (caller.adminOf == null) return caller.path;
    const p = await this.accounts.findById(caller.adminOf);
    if (!p) throw new ApiError(11);
    return p.path;
  }

  /** Accounts nobody acts on through these actions: the caller and the account it administers. */
  private untouchable(caller: Caller): number[] {
    return caller.adminOf != null ? [caller.accountId, caller.adminOf] : [caller.accountId];
  }

  /**
   * The accounts a caller may change: its scope, except that a group account changes only its own
   * subtree (the owners it created); its members' accounts it only reads (their managers change them).
   */
  private async writeScope(caller: Caller): Promise<Scope> {
    if (caller.role === ROLE.GROUP) return { all: false, roots: [caller.path] };
    return this.scope(caller);
  }

  /** One subordinate account the caller may act on; else err 11 (missing and out of reach alike). */
  async target(caller: Caller, uid: number, mode: 'read' | 'write' = 'write'): Promise<AccountRow> {
    if (this.untouchable(caller).includes(uid)) throw new ApiError(11);
    const scope = mode === 'read' ? await this.scope(caller) : await this.writeScope(caller);
    const row = await this.accounts.findInScope(scope, uid);
    if (!row) throw new ApiError(11);
    return row;
  }

  /**
   * Many subordinate accounts, all or nothing. The first one out of reach fails the call: err 11
   * `ERR_NO_PERMISSION(<usr>)` when the caller may see that account's name (itself, the account
   * it administers), else plain err 11.
   */
  async targets(caller: Caller, uids: readonly number[]): Promise<AccountRow[]> {
    if (uids.length === 0) throw new ApiError(6, 'uid');
    const writable = new Map((await this.repo.findManyInScope(await this.writeScope(caller), uids)).map((r) => [r.id, r]));
    const untouchable = this.untouchable(caller);
    for (const id of uids) {
      if (writable.has(id) && !untouchable.includes(id)) continue;
      // Named only when the caller may see the account (in its scope: itself, its principal,
      // a group account's members); another tenant's or a missing id stays anonymous.
      const seen = await this.accounts.findInScope(await this.scope(caller), id);
      throw new ApiError(11, seen ? seen.usr : undefined);
    }
    const found = writable;
    return uids.map((id) => found.get(id)!);
  }

  /**
   * May the caller see contact data and the last sign-in address of `row`? Only accounts it
   * manages: its own part of the tree (not a group account's members), with account_manag and,
   * for sub-administrators, account_detail; and always its own record.
   */
  async contactVisibility(caller: Caller): Promise<(row: Pick<AccountRow, 'id' | 'path'>) => boolean> {
    const own = caller.accountId;
    const manage =
      callerHasPermission(caller, ACCOUNT_MANAGEMENT_PERMISSION) &&
      (!isSubAdministrator(caller) || callerHasPermission(caller, ACCOUNT_DETAIL_PERMISSION));
    if (!manage) return (row) => row.id === own;
    if (caller.role === ROLE.OPERATOR) return () => true;
    const root = await this.principalPath(caller);
    return (row) => row.id === own || row.path.startsWith(root);
  }

  /** queryAccountInfo / list rows: the vendor record, contact data blank unless the caller may manage it. */
  masked(dat: AccountInfoDat, visible: boolean): AccountInfoDat {
    return visible ? dat : { ...dat, mobile: '', email: '', lastAtuhAddr: '' };
  }

  // ------------------------------------------------------------------ lists

  async listAccounts(
    caller: Caller,
    filter: Omit<AccountListFilter, 'scope' | 'exclude' | 'page' | 'pageSize'>,
    paging: Paging,
  ): Promise<Paged<AccountListRow>> {
    const { total, rows } = await this.repo.list({
      ...filter,
      scope: await this.scope(caller),
      exclude: this.untouchable(caller),
      page: paging.page,
      pageSize: paging.pagesize,
    });
    const visible = await this.contactVisibility(caller);
    const roleNames = await this.links.roleNames(uniqueIds(rows.map((r) => r.role_permission_id)));
    const groupNames = await this.links.groupNames(uniqueIds(rows.map((r) => r.group_id)));
    return {
      total,
      page: paging.page,
      pagesize: paging.pagesize,
      rows: rows.map((r) => listRow(r, visible(r), roleNames, groupNames)),
    };
  }

  async listInfo(
    caller: Caller,
    filter: Omit<AccountListFilter, 'scope' | 'exclude' | 'page' | 'pageSize'>,
    paging: Paging,
  ): Promise<Paged<AccountInfoDat>> {
    const { total, rows } = await this.repo.list({
      ...filter,
      scope: await this.scope(caller),
      exclude: this.untouchable(caller),
      page: paging.page,
      pageSize: paging.pagesize,
    });
    const visible = await this.contactVisibility(caller);
    return {
      total,
      page: paging.page,
      pagesize: paging.pagesize,
      rows: rows.map((r) => this.masked(this.accountsService.accountInfo(r), visible(r))),
    };
  }

  // ------------------------------------------------------------------ creating

  private async requireFreeUsr(usr: string, duplicateCode: 24 | 519): Promise<void> {
    if (await this.repo.usrTaken(usr)) throw new ApiError(duplicateCode);
  }

  /** Custom role `rid` of the caller's administrator; 368 when it is not one of theirs. */
  private async role(caller: Caller, rid: number) {
    const role = await this.links.findRole(this.principalId(caller), rid);
    if (!role) throw new ApiError(368);
    return role;
  }

  private async insert(
    caller: Caller,
    input: NewSubAccount,
    role: Role,
    duplicateCode: 24 | 519,
    extra: {
      parentId?: number;
      dealerCode?: string | null;
      vendorCode?: string | null;
      rid?: number | null;
      groupId?: number | null;
      canAddDatalogger?: boolean;
      adminOf?: number | null;
      permissions?: string[] | null;
    } = {},
  ): Promise<AccountRow> {
    const usr = checkUsername(input.usr);
    const profile = checkProfile(input);
    await this.requireFreeUsr(usr, duplicateCode);
    await requireFreeContact(this.accounts, { mobile: profile.mobile, email: profile.email });
    const now = this.now();
    const row = await this.accountsService.createWithDigest({
      usr,
      pwdSha1: input.pwdSha1,
      role,
      parentId: extra.parentId ?? this.principalId(caller),
      createdBy: caller.accountId,
      dealerCode: extra.dealerCode ?? null,
      vendorCode: extra.vendorCode ?? null,
      canAddDatalogger: extra.canAddDatalogger ?? true,
      adminOf: extra.adminOf ?? null,
      permissions: extra.permissions ?? null,
    });
    await this.accounts.update(row.id, {
      ...profile,
      role_permission_id: extra.rid ?? null,
      group_id: extra.groupId ?? null,
      updated_at: now,
    });
    const created = (await this.accounts.findById(row.id))!;
    await this.audit.record({ entity: 'account', entityId: created.id, before: null, after: auditView(created) });
    return created;
  }

  async addDist(caller: Caller, input: NewSubAccount & { vcode: string; rid?: number | undefined }): Promise<AccountRow> {
    checkUsername(input.usr);
    const dealerCode = checkDealerCodes(input.vcode);
    let rid: number | null = null;
    if (input.rid !== undefined) {
      const role = await this.role(caller, input.rid);
      // A dealer account cannot bind a role with data permissions (spec §5 "Roles and accounts").
      if (role.hasDataPermission) throw new ApiError(11, 'rid');
      rid = role.id;
    }
    return this.insert(caller, input, ROLE.DISTRIBUTOR, 24, { dealerCode, rid });
  }

  async addPlantOwner(
    caller: Caller,
    input: NewSubAccount & { rid?: number | undefined; puid?: number | undefined; addCollector?: boolean | undefined; groupid?: number | undefined },
  ): Promise<AccountRow> {
    checkUsername(input.usr);
    let parentId = this.principalId(caller);
    if (input.puid !== undefined && input.puid !== parentId) {
      const parent = await this.accounts.findInScope(await this.writeScope(caller), input.puid);
      if (!parent || !isAdministrator(parent) || this.untouchable(caller).includes(parent.id)) throw new ApiError(1027);
      parentId = parent.id;
    }
    const rid = input.rid !== undefined ? (await this.role(caller, input.rid)).id : null;
    let groupId: number | null = null;
    if (input.groupid !== undefined) {
      const group = await this.links.findGroup(this.principalId(caller), input.groupid);
      if (!group) throw new ApiError(369, 'groupid');
      groupId = group.id;
    }
    return this.insert(caller, input, ROLE.OWNER, 519, {
      parentId,
      rid,
      groupId,
      canAddDatalogger: input.addCollector ?? true,
    });
  }

  /** One group account per user group ("Exceeding the limit, this account type already exists", err 13). */
  async addGroupAccount(caller: Caller, input: NewSubAccount & { groupid: number }): Promise<AccountRow> {
    checkUsername(input.usr);
    const group = await this.links.findGroup(this.principalId(caller), input.groupid);
    if (!group) throw new ApiError(369, 'groupid');
    if ((await this.links.groupAccountOf(group.id)) !== undefined) {
      throw new ApiError(13, undefined, undefined, 'special.accountTypeLimit');
    }
    const row = await this.insert(caller, input, ROLE.GROUP, 24);
    await this.links.bindGroupAccount(row.id, group.id);
    return row;
  }

  /**
   * A sub-administrator (role 2 acting for the caller's principal) whose function points are those
   * of custom role `rid` (required: err 7). A sub-administrator cannot hand out more than it holds.
   */
  async addSubAdmin(caller: Caller, input: NewSubAccount & { rid?: number | undefined }): Promise<AccountRow> {
    checkUsername(input.usr);
    if (input.rid === undefined) throw new ApiError(7, 'rid');
    const role = await this.role(caller, input.rid);
    if (caller.permissions != null && role.functions.some((f) => !caller.permissions!.has(f))) throw new ApiError(11, 'rid');
    const principal = this.principalId(caller);
    return this.insert(caller, input, ROLE.DISTRIBUTOR, 24, {
      parentId: principal,
      adminOf: principal,
      rid: role.id,
      permissions: [...role.functions],
    });
  }

  /**
   * Issue 14 factoryAccount: the operator creates a manufacturer (role 1) under itself with its
   * manufacturer code (the caller's module checks the code's format and uniqueness). 24 duplicate.
   */
  async addManufacturer(caller: Caller, input: NewSubAccount & { vendorCode: string }): Promise<AccountRow> {
    if (caller.role !== ROLE.OPERATOR) throw new ApiError(11);
    return this.insert(caller, input, ROLE.MANUFACTURER, 24, { vendorCode: input.vendorCode });
  }

  // ------------------------------------------------------------------ editing

  private async patch(row: AccountRow, patch: Partial<AccountRow>): Promise<void> {
    // A recovery phone or e-mail belongs to one account: a profile edit may set or clear it,
    // never take one another account holds (18 / 26).
    await requireFreeContact(this.accounts, { mobile: patch.mobile, email: patch.email }, row);
    const fields = Object.keys(patch).filter(
      (k) => k !== 'updated_at' && (row as unknown as Record<string, unknown>)[k] !== (patch as Record<string, unknown>)[k],
    ) as (keyof AccountRow)[];
    if (fields.length === 0) return;
    await this.accounts.update(row.id, { ...patch, updated_at: this.now() });
    const after = (await this.accounts.findById(row.id))!;
    await this.audit.record({
      entity: 'account',
      entityId: row.id,
      before: auditView(row, fields),
      after: auditView(after, fields),
    });
  }

  /** editAccount: the caller's own profile; omitted = unchanged, empty = cleared. */
  async editOwn(caller: Caller, input: ProfileInput & { bomb?: boolean | undefined }): Promise<void> {
    const row = await this.accounts.findById(caller.accountId);
    if (!row) throw new ApiError(10);
    const patch: Partial<AccountRow> = checkProfile(input);
    if (input.bomb !== undefined) patch.bomb = input.bomb ? 1 : 0;
    await this.patch(row, patch);
  }

  async editSubAccount(caller: Caller, uid: number, input: ProfileInput): Promise<void> {
    const row = await this.target(caller, uid);
    await this.patch(row, checkProfile(input));
  }

  /** A distributor (role 2, not a sub-administrator) in reach; else 11 ("is not a dealer"). */
  private async dealer(caller: Caller, uid: number): Promise<AccountRow> {
    const row = await this.target(caller, uid);
    if (row.role !== ROLE.DISTRIBUTOR || row.admin_of != null) throw new ApiError(11);
    return row;
  }

  async editDist(
    caller: Caller,
    uid: number,
    input: ProfileInput & { pwdSha1?: string | undefined; rid?: number | '' | undefined; vcode?: string | undefined },
  ): Promise<void> {
    const row = await this.dealer(caller, uid);
    const patch: Partial<AccountRow> = checkProfile(input);
    if (input.vcode !== undefined) patch.dealer_code = checkDealerCodes(input.vcode);
    if (input.rid === '') patch.role_permission_id = null;
    else if (input.rid !== undefined) {
      const role = await this.role(caller, input.rid);
      if (role.hasDataPermission) throw new ApiError(11, 'rid');
      patch.role_permission_id = role.id;
    }
    await this.patch(row, patch);
    if (input.pwdSha1 !== undefined) await this.setPassword(row, input.pwdSha1);
  }

  // ------------------------------------------------------------------ state

  async setEnabled(caller: Caller, uids: readonly number[], enable: boolean): Promise<void> {
    const rows = await this.targets(caller, uids);
    for (const row of rows) {
      if (row.status === ACCOUNT_STATUS.CANCELLED) throw new ApiError(27, row.usr);
      const status = enable ? ACCOUNT_STATUS.ENABLED : ACCOUNT_STATUS.DISABLED;
      if (row.status === status || (enable && row.status === ACCOUNT_STATUS.CANCELLING)) continue;
      // setStatus revokes every session and remember-me token of a disabled account at once; the
      // sessions live in the database, so every server instance refuses its tokens from now on.
      await this.accountsService.setStatus(row.id, status);
      await this.audit.record({ entity: 'account', entityId: row.id, before: { status: row.status }, after: { status } });
    }
  }

  async setAddCollector(caller: Caller, uids: readonly number[], enable: boolean): Promise<void> {
    const rows = await this.targets(caller, uids);
    for (const row of rows) await this.patch(row, { can_add_datalogger: enable ? 1 : 0 });
  }

  /** Sets a password (digest) and ends the account's sessions and remember-me tokens. */
  private async setPassword(row: AccountRow, pwdSha1: string): Promise<void> {
    await this.accountsService.setPasswordSha1(row.id, pwdSha1);
    const now = this.now();
    const sessions = await this.sessions.revokeAccountSessions(row.id, now);
    const remembered = await this.sessions.revokeAccountRemember(row.id, now);
    await this.audit.record({
      entity: 'account',
      entityId: row.id,
      before: null,
      after: { changed: ['password'], revoked_sessions: sessions, revoked_remember: remembered },
    });
  }

  async resetPassword(caller: Caller, uid: number, pwdSha1: string): Promise<void> {
    await this.setPassword(await this.target(caller, uid), pwdSha1);
  }

  // ------------------------------------------------------------------ deleting

  /** Unrecoverable: 517 while it (or its plants) holds dataloggers, 518 while it has subordinates. */
  async delete(caller: Caller, uid: number, opts: { dealerOnly: boolean }): Promise<void> {
    const row = opts.dealerOnly ? await this.dealer(caller, uid) : await this.target(caller, uid);
    if ((await this.repo.heldDataloggerCount(row.id)) > 0) throw new ApiError(517);
    if ((await this.repo.subordinateCount(row.id)) > 0) throw new ApiError(518);
    const { plants } = await this.repo.deleteAccount(row.id);
    await this.audit.record({ entity: 'account', entityId: row.id, before: auditView(row), after: null });
    for (const id of plants) await this.audit.record({ entity: 'plant', entityId: id, before: { owner_id: row.id }, after: null });
  }

  // ------------------------------------------------------------------ related owner

  /**
   * Moves plant owners (with their viewers) under `puid`, a distributor or manufacturer in reach
   * (1027 otherwise). An owner holding dataloggers of another manufacturer than `puid`'s cannot
   * move (276). All or nothing: the dispatcher's transaction rolls back every move on a failure.
   */
  async relateOwner(caller: Caller, uids: readonly number[], puid: number): Promise<void> {
    const scope = await this.scope(caller);
    const parent = await this.accounts.findInScope(scope, puid);
    if (!parent || !isAdministrator(parent)) throw new ApiError(1027);
    const owners = await this.targets(caller, uids);
    const maker = await this.manufacturerOf(parent);
    for (const owner of owners) {
      if (owner.role !== ROLE.OWNER) throw new ApiError(1024, owner.usr);
      if (parent.path.startsWith(owner.path)) throw new ApiError(1027);
      const vendors = await this.repo.vendorsOfOwner(owner.id);
      if (vendors.some((v) => v != null && v !== maker)) throw new ApiError(276, owner.usr);
    }
    for (const owner of owners) {
      if (owner.parent_id === parent.id) continue;
      await this.repo.moveSubtree(owner.id, owner.path, parent.id, parent.path);
      const adminId = parent.role === ROLE.DISTRIBUTOR ? parent.id : null;
      const moved = await this.repo.setOwnerDataloggersAdmin(owner.id, adminId);
      const after = (await this.accounts.findById(owner.id))!;
      await this.audit.record({
        entity: 'account',
        entityId: owner.id,
        before: { parent_id: owner.parent_id, path: owner.path },
        after: { parent_id: after.parent_id, path: after.path, dataloggers_admin_id: adminId, dataloggers: moved },
      });
    }
  }

  /** The manufacturer account above (or equal to) an administrator; null under the operator alone. */
  private async manufacturerOf(row: AccountRow): Promise<number | null> {
    if (row.role === ROLE.MANUFACTURER) return row.id;
    const ids = row.path.split('/').filter(Boolean).map(Number).reverse();
    const chain = await this.repo.findManyByIds(ids);
    const byId = new Map(chain.map((r) => [r.id, r]));
    for (const id of ids) if (byId.get(id)?.role === ROLE.MANUFACTURER) return id;
    return null;
  }
}

/** A distributor (not a sub-administrator) or a manufacturer: may have owners below it. */
function isAdministrator(row: AccountRow): boolean {
  return row.role === ROLE.MANUFACTURER || (row.role === ROLE.DISTRIBUTOR && row.admin_of == null);
}

function uniqueIds(ids: (number | null)[]): number[] {
  return [...new Set(ids.filter((i): i is number => i != null))];
}

function listRow(
  r: AccountListItem,
  visible: boolean,
  roleNames: Map<number, string>,
  groupNames: Map<number, string>,
): AccountListRow {
  return {
    uid: r.id,
    usr: r.usr,
    qname: r.qname,
    role: r.role as Role,
    rid: r.role_permission_id ?? 0,
    roleName: r.role_permission_id != null ? (roleNames.get(r.role_permission_id) ?? '') : '',
    desc: r.description,
    enable: r.status === ACCOUNT_STATUS.ENABLED || r.status === ACCOUNT_STATUS.CANCELLING,
    mobile: visible ? r.mobile : '',
    email: visible ? r.email : '',
    gts: formatUtc(r.created_at),
    groupId: r.group_id ?? 0,
    group: r.group_id != null ? (groupNames.get(r.group_id) ?? '') : '',
    collectors: r.collectors,
    devices: r.devices,
    plants: r.plants,
    lastLoginTs: formatUtc(r.last_login_at),
    parentUid: r.parent_id ?? 0,
    parentUsr: r.parent_usr ?? '',
    dist: r.role === ROLE.DISTRIBUTOR ? (r.dealer_code ?? '') : '',
    vendor: r.role === ROLE.MANUFACTURER ? (r.vendor_code ?? '') : '',
    addCollector: r.can_add_datalogger === 1,
    subAdmin: r.role === ROLE.DISTRIBUTOR && r.admin_of != null,
  };
}
