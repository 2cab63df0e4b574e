import {
  ACCOUNT_STATUS,
  ApiError,
  ROLE,
  allPermissionNames,
  permissionEntries,
  sha1Hex,
  type AccountInfoDat,
  type PermissionModule,
  type Role,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Keyring } from '../../security/keyring.js';
import { callerHasPermission } from '../../access/permissions.js';
import type { AccountRow, AccountsRepository, Scope, ScopeSubject } from './accounts.repository.js';

export interface NewAccount {
  usr: string;
  password: string;
  role: Role;
  parentId?: number | null;
  status?: number;
  qname?: string;
  email?: string;
  mobile?: string;
  cname?: string;
  vendorCode?: string | null;
  dealerCode?: string | null;
  canAddDatalogger?: boolean;
  /** Role 2 only: granted permission names; omitted = all. */
  permissions?: string[] | null;
  adminOf?: number | null;
  createdBy?: number | null;
}

/** The module permission that reading (and managing) other accounts needs (permissions.ts). */
export const ACCOUNT_MANAGEMENT_PERMISSION: PermissionModule = 'account_manag';

/** `YYYY-MM-DD HH:MM:SS` in UTC (vendor `gts`, `lastAtuhTs`). */
export function formatUtc(ms: number | null): string {
  if (ms == null) return '';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * The function permissions of an account: a set for restricted role-2 accounts, else null
 * (unrestricted). Fails closed: a sub-administrator (role 2 with `admin_of`) without a list, or
 * with an unreadable one, gets the empty set, never null.
 */
export function permissionSet(row: Pick<AccountRow, 'role' | 'permissions' | 'admin_of'>): ReadonlySet<string> | null {
  if (row.role !== ROLE.DISTRIBUTOR) return null;
  if (row.permissions == null) return row.admin_of != null ? new Set() : null;
  let names: unknown;
  try {
    names = JSON.parse(row.permissions);
  } catch {
    names = [];
  }
  return new Set(Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []);
}

export function scopeSubject(row: AccountRow): ScopeSubject {
  return { id: row.id, role: row.role, path: row.path, adminOf: row.admin_of };
}

/**
 * What the accounts service needs of the sessions store (auth's SessionsRepository): declared here
 * so that accounts does not import auth, which imports accounts.
 */
export interface AccountSessionsRevoker {
  revokeAccountSessions(accountId: number, now: number): Promise<unknown>;
  revokeAccountRemember(accountId: number, now: number): Promise<unknown>;
}

export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly sessions: AccountSessionsRevoker,
    private readonly keyring: Keyring,
    private readonly now: () => number,
  ) {}

  async create(input: NewAccount): Promise<AccountRow> {
    const { password, ...rest } = input;
    return this.createWithDigest({ ...rest, pwdSha1: sha1Hex(password) });
  }

  /** Creates an account from sha1hex(password) (what sub-account creation receives on the wire). */
  async createWithDigest(input: Omit<NewAccount, 'password'> & { pwdSha1: string }): Promise<AccountRow> {
    const now = this.now();
    const sealed = this.keyring.sealPassword(input.pwdSha1.toLowerCase());
    return this.accounts.insert({
      usr: input.usr,
      role: input.role,
      parent_id: input.parentId ?? null,
      status: input.status ?? ACCOUNT_STATUS.ENABLED,
      qname: input.qname ?? '',
      email: input.email ?? '',
      mobile: input.mobile ?? '',
      photo: '',
      qq: '',
      wx: '',
      cname: input.cname ?? '',
      caddr: '',
      ctel: '',
      bomb: 0,
      description: '',
      vendor_code: input.vendorCode ?? null,
      dealer_code: input.dealerCode ?? null,
      can_add_datalogger: input.canAddDatalogger === false ? 0 : 1,
      group_id: null,
      role_permission_id: null,
      data_permission: null,
      permissions: input.role === ROLE.DISTRIBUTOR && input.permissions ? JSON.stringify(input.permissions) : null,
      admin_of: input.adminOf ?? null,
      created_by: input.createdBy ?? null,
      created_at: now,
      updated_at: now,
      last_login_at: null,
      last_login_ip: null,
      pwd_cipher: sealed.pwdCipher,
      data_key: sealed.dataKey,
    });
  }

  /** sha1hex(password), decrypted from its envelope. */
  passwordSha1(row: Pick<AccountRow, 'pwd_cipher' | 'data_key'>): string {
    return this.keyring.openPassword({ pwdCipher: row.pwd_cipher, dataKey: row.data_key });
  }

  /** Stores a new password digest under a fresh data key. */
  async setPasswordSha1(accountId: number, pwdSha1: string): Promise<void> {
    const sealed = this.keyring.sealPassword(pwdSha1.toLowerCase());
    await this.accounts.update(accountId, {
      pwd_cipher: sealed.pwdCipher,
      data_key: sealed.dataKey,
      updated_at: this.now(),
    });
  }

  /**
   * Changes the account status. Disabling or cancelling revokes every token and remember-me
   * token of the account at once.
   */
  async setStatus(accountId: number, status: number): Promise<void> {
    const now = this.now();
    await this.accounts.update(accountId, { status, updated_at: now });
    if (status === ACCOUNT_STATUS.DISABLED || status === ACCOUNT_STATUS.CANCELLED) {
      await this.sessions.revokeAccountSessions(accountId, now);
      await this.sessions.revokeAccountRemember(accountId, now);
    }
  }

  async recordLogin(accountId: number, ip: string): Promise<void> {
    await this.accounts.update(accountId, { last_login_at: this.now(), last_login_ip: ip });
  }

  scopeOf(subject: ScopeSubject): Promise<Scope> {
    return this.accounts.scopeOf(subject);
  }

  /**
   * The account whose record queryAccountInfo returns: the caller itself, or (with the
   * account-management permission) an account in the caller's part of the tenant tree.
   * No permission, another tenant's id and a missing id all answer err 11 alike.
   */
  async accountForReading(caller: Caller, uid: number | undefined): Promise<AccountRow> {
    const id = uid ?? caller.accountId;
    const subject: ScopeSubject = {
      id: caller.accountId,
      role: caller.role,
      path: caller.path,
      adminOf: caller.adminOf,
    };
    if (id !== caller.accountId && !callerHasPermission(caller, ACCOUNT_MANAGEMENT_PERMISSION)) throw new ApiError(11);
    return this.accountInScope(subject, id);
  }

  /**
   * The account a caller asks about: itself, or one it reaches in the tenant tree. Anything
   * else (another tenant, or no such account) is err 11, so ids cannot be probed.
   */
  async accountInScope(caller: ScopeSubject, uid: number | undefined): Promise<AccountRow> {
    const id = uid ?? caller.id;
    const row = await this.accounts.findInScope(await this.accounts.scopeOf(caller), id);
    if (!row) throw new ApiError(11);
    return row;
  }

  /** The vendor record of queryAccountInfo (vendor-actions.md §3), plus role-2 `permission[]`. */
  accountInfo(row: AccountRow): AccountInfoDat {
    const dat: AccountInfoDat = {
      uid: row.id,
      usr: row.usr,
      role: row.role as Role,
      mobile: row.mobile,
      email: row.email,
      qname: row.qname,
      photo: row.photo,
      qq: row.qq,
      wx: row.wx,
      cname: row.cname,
      caddr: row.caddr,
      ctel: row.ctel,
      bomb: row.bomb === 1,
      enable: row.status === ACCOUNT_STATUS.ENABLED || row.status === ACCOUNT_STATUS.CANCELLING,
      gts: formatUtc(row.created_at),
      desc: row.description,
      lastAtuhTs: formatUtc(row.last_login_at),
      lastAtuhAddr: row.last_login_ip ?? '',
    };
    if (row.role === ROLE.MANUFACTURER) dat.vendor = row.vendor_code ?? '';
    if (row.role === ROLE.DISTRIBUTOR) {
      dat.dist = row.dealer_code ?? '';
      dat.permission = permissionEntries(permissionSet(row) ?? new Set(allPermissionNames()));
    }
    return dat;
  }
}
