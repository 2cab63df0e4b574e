import {
  ACCOUNT_STATUS,
  ApiError,
  ROLE,
  isEmail,
  phoneSchema,
  usernameSchema,
  type PlantBrowserRow,
} from '@sunwatch/protocol';
import crypto from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AccessService } from '../../access/access.service.js';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { Caller } from '../../context.js';
import type { AccountsTable } from '../../db/schema.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { formatUtc } from '../accounts/accounts.service.js';
import { requireFreeContact } from '../accounts/account-fields.js';
import type { ViewersRepository } from './viewers.repository.js';

export interface ViewersDeps {
  repo: ViewersRepository;
  accounts: Pick<AccountsRepository, 'findByUsr' | 'findInScope' | 'scopeOf' | 'update' | 'contactHolder'>;
  accountsService: Pick<AccountsService, 'create' | 'setPasswordSha1' | 'setStatus'>;
  access: Pick<AccessService, 'requireAccess'>;
  sessions: {
    revokeAccountSessions(id: number, now: number): Promise<unknown>;
    revokeAccountRemember(id: number, now: number): Promise<unknown>;
  };
  audit: Pick<AuditService, 'record'>;
  now: () => number;
}

/** Contact and profile fields of a viewer; an omitted one is unchanged, an empty one cleared. */
export interface ViewerFields {
  email?: string | undefined;
  mobile?: string | undefined;
  qname?: string | undefined;
  photo?: string | undefined;
  cname?: string | undefined;
  ctel?: string | undefined;
  desc?: string | undefined;
}

export interface NewViewer extends ViewerFields {
  usr: string;
  /** sha1hex of the password, decrypted and checked (sub-account-password.ts). */
  pwdSha1: string;
  enable?: boolean | undefined;
  pid?: number[] | undefined;
}

export interface ViewerEdit extends ViewerFields {
  uid: number;
  pwdSha1?: string | undefined;
  enable?: boolean | undefined;
  pid?: number[] | undefined;
}

const COLUMN: Record<keyof ViewerFields, keyof AccountsTable> = {
  email: 'email',
  mobile: 'mobile',
  qname: 'qname',
  photo: 'photo',
  cname: 'cname',
  ctel: 'ctel',
  desc: 'description',
};

/** 20 e-mail, 19 phone: checked when not empty (empty clears the field). */
function checkContact(f: ViewerFields): void {
  if (f.email !== undefined && f.email !== '' && !isEmail(f.email)) throw new ApiError(20, 'email');
  if (f.mobile !== undefined && f.mobile !== '' && !phoneSchema.safeParse(f.mobile).success)
    throw new ApiError(19, 'mobile');
}

/**
 * Viewer sub-accounts (role 5; spec §3 "Sub-account (viewer)", §6; vendor chapter 83): created
 * under the caller, seeing exactly the plants assigned to them, read-only. The plants given must
 * be the caller's to share (an owner's own, an administrator's in reach): else 260, nothing
 * written. A viewer is managed by the account it was created under and whoever reaches that
 * account; an account out of reach answers 11 (as a missing one), one that is not a viewer 523.
 */
export class ViewersService {
  constructor(private readonly deps: ViewersDeps) {}

  private subject(caller: Caller) {
    return { id: caller.accountId, role: caller.role, path: caller.path, adminOf: caller.adminOf };
  }

  /**
   * The plants of `pid` must be the caller's to share. A group account reads its members' plants but
   * sharing one is a write on the member's data: it shares only plants of its own subtree.
   */
  private async requirePlants(caller: Caller, pid: readonly number[] | undefined): Promise<void> {
    if (!pid || pid.length === 0) return;
    const scope: TelemetryScope | undefined =
      caller.role === ROLE.GROUP ? { kind: 'tree', accountId: caller.accountId, roots: [caller.path], adminIds: [] } : undefined;
    await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: pid, scope });
  }

  /** The viewer `uid` in the caller's reach: 11 when missing or out of reach, 523 when not a viewer. */
  private async viewerInReach(caller: Caller, uid: number): Promise<AccountRow> {
    // A group account only reads its members' accounts: it changes viewers of its own subtree only.
    const scope =
      caller.role === ROLE.GROUP
        ? { all: false as const, roots: [caller.path] }
        : await this.deps.accounts.scopeOf(this.subject(caller));
    const row = await this.deps.accounts.findInScope(scope, uid);
    if (!row) throw new ApiError(11, 'uid');
    if (row.role !== ROLE.VIEWER) throw new ApiError(523, 'uid');
    return row;
  }

  async add(caller: Caller, v: NewViewer): Promise<{ uid: number }> {
    if (!usernameSchema.safeParse(v.usr).success) throw new ApiError(21, 'usr');
    checkContact(v);
    await this.requirePlants(caller, v.pid);
    if (await this.deps.accounts.findByUsr(v.usr)) throw new ApiError(24, 'usr');
    await requireFreeContact(this.deps.accounts, v);
    // The account is created with a throw-away password, replaced by the caller's digest at once
    // (AccountsService.create takes a plain password; only the digest is known here).
    const row = await this.deps.accountsService.create({
      usr: v.usr,
      password: crypto.randomBytes(24).toString('base64url'),
      role: ROLE.VIEWER,
      parentId: caller.accountId,
      status: v.enable === false ? ACCOUNT_STATUS.DISABLED : ACCOUNT_STATUS.ENABLED,
      qname: v.qname ?? '',
      email: v.email ?? '',
      mobile: v.mobile ?? '',
      cname: v.cname ?? '',
      canAddDatalogger: false,
      createdBy: caller.accountId,
    });
    await this.deps.accountsService.setPasswordSha1(row.id, v.pwdSha1);
    const extra: Updateable<AccountsTable> = {};
    if (v.desc !== undefined) extra.description = v.desc;
    if (v.photo !== undefined) extra.photo = v.photo;
    if (v.ctel !== undefined) extra.ctel = v.ctel;
    if (Object.keys(extra).length > 0) await this.deps.accounts.update(row.id, extra);
    const pid = v.pid ?? [];
    await this.deps.repo.setPlants(row.id, pid);
    await this.deps.audit.record({
      entity: 'account',
      entityId: row.id,
      before: null,
      after: {
        usr: v.usr,
        role: ROLE.VIEWER,
        parent_id: caller.accountId,
        enable: v.enable !== false,
        email: v.email ?? '',
        mobile: v.mobile ?? '',
        desc: v.desc ?? '',
        plants: pid,
      },
    });
    return { uid: row.id };
  }

  async edit(caller: Caller, e: ViewerEdit): Promise<void> {
    const row = await this.viewerInReach(caller, e.uid);
    checkContact(e);
    await this.requirePlants(caller, e.pid);
    await requireFreeContact(this.deps.accounts, e, row);
    const patch: Updateable<AccountsTable> = {};
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(COLUMN) as Array<[keyof ViewerFields, keyof AccountsTable]>) {
      const value = e[field];
      if (value === undefined || value === row[column]) continue;
      (patch as Record<string, unknown>)[column] = value;
      before[field] = row[column];
      after[field] = value;
    }
    if (Object.keys(patch).length > 0)
      await this.deps.accounts.update(row.id, { ...patch, updated_at: this.deps.now() });
    if (e.pid !== undefined) {
      const old = (await this.deps.repo.plantsOf([row.id])).get(row.id)?.map((p) => p.id) ?? [];
      await this.deps.repo.setPlants(row.id, e.pid);
      before.plants = old;
      after.plants = e.pid;
    }
    if (e.pwdSha1 !== undefined) {
      await this.deps.accountsService.setPasswordSha1(row.id, e.pwdSha1);
      // A new password ends the viewer's sessions, as a reset does.
      await this.deps.sessions.revokeAccountSessions(row.id, this.deps.now());
      await this.deps.sessions.revokeAccountRemember(row.id, this.deps.now());
      after.password = 'changed';
    }
    if (e.enable !== undefined) {
      const status = e.enable ? ACCOUNT_STATUS.ENABLED : ACCOUNT_STATUS.DISABLED;
      if (status !== row.status) {
        // Disabling revokes every token of the viewer at once (AccountsService.setStatus).
        await this.deps.accountsService.setStatus(row.id, status);
        before.enable = row.status === ACCOUNT_STATUS.ENABLED;
        after.enable = e.enable;
      }
    }
    if (Object.keys(after).length > 0) {
      await this.deps.audit.record({ entity: 'account', entityId: row.id, before, after });
    }
  }

  async remove(caller: Caller, uid: number): Promise<void> {
    const row = await this.viewerInReach(caller, uid);
    const plants = (await this.deps.repo.plantsOf([row.id])).get(row.id)?.map((p) => p.id) ?? [];
    await this.deps.repo.delete(row.id);
    await this.deps.audit.record({
      entity: 'account',
      entityId: row.id,
      before: { usr: row.usr, role: row.role, parent_id: row.parent_id, plants },
      after: null,
    });
  }

  async list(
    caller: Caller,
    p: { usr?: string | undefined; page: number; pagesize: number },
  ): Promise<{ total: number; page: number; pagesize: number; browser: PlantBrowserRow[] }> {
    const { total, rows } = await this.deps.repo.list(caller.accountId, p.usr?.trim() || undefined, p.page, p.pagesize);
    const plants = await this.deps.repo.plantsOf(rows.map((r) => r.id));
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      browser: rows.map((r) => {
        const ps = plants.get(r.id) ?? [];
        return {
          uid: r.id,
          usr: r.usr,
          plant: ps.map((x) => x.name),
          pid: ps.map((x) => x.id),
          mobile: r.mobile,
          email: r.email,
          desc: r.description,
          enable: r.status === ACCOUNT_STATUS.ENABLED,
          gts: formatUtc(r.created_at),
          lastLoginTs: formatUtc(r.last_login_at),
        };
      }),
    };
  }
}
