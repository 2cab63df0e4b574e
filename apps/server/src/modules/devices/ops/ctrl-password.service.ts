import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { ApiError, isValidCtrlPwd, ROLE } from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { Db } from '../../../db/db.js';
import { currentDb } from '../../../db/transaction.js';
import { fmtTs } from '../../../shared/local-time.js';
import type { AuditService } from '../../audit/audit.service.js';
import { ancestorIds } from '../../roles/control-fields.service.js';

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export function hashCtrlPwd(pwd: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(pwd, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export function verifyCtrlPwd(stored: string, pwd: string): boolean {
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = scryptSync(pwd, Buffer.from(salt, 'base64'), want.length, SCRYPT);
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * The device-control password (spec §3: "one per custom domain"). Sunwatch's custom domain is a
 * manufacturer's tenant — its brand portal, under its vendor code: a datalogger belongs to the
 * domain of its manufacturer (`dataloggers.vendor_id`, else the manufacturer above its owner).
 * When the domain has a password, ctrlDevice and sendCmdToDevice require it (err 11 without it or
 * when wrong). Manufacturers set or clear their own; the operator any manufacturer's. Stored as a
 * scrypt hash; the audit log only says whether one is set.
 */
export class CtrlPasswordService {
  constructor(
    private readonly deps: {
      db: Db;
      audit: AuditService;
      now: () => number;
    },
  ) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /** The manufacturer at the top of an account's tree (itself when it is one), if any. */
  async manufacturerOf(account: { accountId: number; role: number; path: string }): Promise<number | null> {
    if (account.role === ROLE.MANUFACTURER) return account.accountId;
    const above = ancestorIds(account.path, account.accountId);
    if (above.length === 0) return null;
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id'])
      .where('id', 'in', above)
      .where('role', '=', ROLE.MANUFACTURER)
      .execute();
    // The nearest manufacturer (paths list the root first).
    const ids = new Set(rows.map((r) => r.id));
    for (let i = above.length - 1; i >= 0; i--) if (ids.has(above[i]!)) return above[i]!;
    return null;
  }

  /** The domain of a datalogger: its vendor, else the manufacturer above its owner or admin. */
  async domainOfDatalogger(dl: { vendorId: number | null; ownerId: number | null }): Promise<number | null> {
    if (dl.vendorId !== null) return dl.vendorId;
    if (dl.ownerId === null) return null;
    const owner = await this.db.selectFrom('accounts').select(['id', 'role', 'path']).where('id', '=', dl.ownerId).executeTakeFirst();
    return owner ? this.manufacturerOf({ accountId: owner.id, role: owner.role, path: owner.path }) : null;
  }

  private async vendorFor(caller: Caller, vendor: number | undefined): Promise<number> {
    if (caller.role === ROLE.OPERATOR) {
      if (vendor === undefined) throw new ApiError(7, 'vendor');
      const row = await this.db.selectFrom('accounts').select('role').where('id', '=', vendor).executeTakeFirst();
      if (!row || row.role !== ROLE.MANUFACTURER) throw new ApiError(261, 'vendor');
      return vendor;
    }
    const id = await this.manufacturerOf(caller);
    if (id === null) throw new ApiError(11);
    return id;
  }

  async query(caller: Caller, vendor?: number): Promise<{ domain: string; set: boolean; uts: string }> {
    const id = await this.vendorFor(caller, vendor);
    const [acc, row] = await Promise.all([
      this.db.selectFrom('accounts').select(['vendor_code', 'usr']).where('id', '=', id).executeTakeFirst(),
      this.db.selectFrom('device_ctrl_passwords').select(['updated_at']).where('vendor_id', '=', id).executeTakeFirst(),
    ]);
    return {
      domain: acc?.vendor_code || acc?.usr || '',
      set: row !== undefined,
      uts: row ? fmtTs(Number(row.updated_at), 0) : '',
    };
  }

  async set(caller: Caller, pwd: string, vendor?: number): Promise<void> {
    if (caller.role !== ROLE.MANUFACTURER && caller.role !== ROLE.OPERATOR) throw new ApiError(11);
    if (caller.adminOf !== null && caller.role !== ROLE.OPERATOR) throw new ApiError(11); // not a sub-administrator
    const id = await this.vendorFor(caller, vendor);
    if (pwd !== '' && !isValidCtrlPwd(pwd)) throw new ApiError(17, 'pwd');
    const before = await this.db.selectFrom('device_ctrl_passwords').select('vendor_id').where('vendor_id', '=', id).executeTakeFirst();
    if (pwd === '') {
      if (!before) throw new ApiError(271);
      await this.db.deleteFrom('device_ctrl_passwords').where('vendor_id', '=', id).execute();
    } else {
      const row = { hash: hashCtrlPwd(pwd), updated_by: caller.accountId, updated_at: this.deps.now() };
      await this.db
        .insertInto('device_ctrl_passwords')
        .values({ vendor_id: id, ...row })
        .onConflict((oc) => oc.column('vendor_id').doUpdateSet(row))
        .execute();
    }
    await this.deps.audit.record({
      entity: 'device_ctrl_password',
      entityId: id,
      before: { set: before !== undefined },
      after: { set: pwd !== '' },
    });
  }

  /** Whether the domain has a password. */
  async isSet(vendorId: number | null): Promise<boolean> {
    if (vendorId === null) return false;
    const row = await this.db.selectFrom('device_ctrl_passwords').select('vendor_id').where('vendor_id', '=', vendorId).executeTakeFirst();
    return row !== undefined;
  }

  /** err 11 when the domain has a password and `pwd` is missing or wrong. */
  async check(vendorId: number | null, pwd: string | undefined): Promise<void> {
    if (vendorId === null) return;
    const row = await this.db.selectFrom('device_ctrl_passwords').select('hash').where('vendor_id', '=', vendorId).executeTakeFirst();
    if (!row) return;
    // 11 as spec §8 says, with a message that tells the user what to do.
    if (!pwd) throw new ApiError(11, 'pwd', undefined, 'special.ctrlPwdRequired');
    if (!verifyCtrlPwd(row.hash, pwd)) throw new ApiError(11, 'pwd', undefined, 'special.ctrlPwdWrong');
  }
}
