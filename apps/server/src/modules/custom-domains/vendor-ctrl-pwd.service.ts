import { ApiError, ROLE, type Catalogue, type ParsedParamsOf, type VendorCtrlPasswordRow } from '@sunwatch/protocol';
import { sql, type SqlBool } from 'kysely';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import type { CtrlPasswordService } from '../devices/ops/ctrl-password.service.js';
import type { CustomDomainsRepository } from './custom-domains.repository.js';

type ListParams = ParsedParamsOf<Catalogue['queryVendorCtrlPwdList']>;

/**
 * passwordMaintenance (issue 14, spec §3 "device-control passwords per custom domain"): the
 * operator's view of every manufacturer's device-control password. The list says whether one is
 * set, when and by whom — never the hash. Setting and clearing go through the device-control
 * password service itself (scrypt hash, audited as set/not set), so ctrlDevice and
 * sendCmdToDevice check what this page wrote on their next call.
 */
export class VendorCtrlPwdService {
  constructor(
    private readonly root: Db,
    private readonly pwd: Pick<CtrlPasswordService, 'set'>,
    private readonly domains: Pick<CustomDomainsRepository, 'hostsOf'>,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  private listQuery(p: ListParams) {
    let q = this.db
      .selectFrom('accounts as a')
      .leftJoin('device_ctrl_passwords as p', 'p.vendor_id', 'a.id')
      .leftJoin('accounts as u', 'u.id', 'p.updated_by')
      .where('a.role', '=', ROLE.MANUFACTURER)
      .where('a.admin_of', 'is', null);
    if (p.set !== undefined) q = q.where('p.vendor_id', p.set ? 'is not' : 'is', null);
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(a.usr) like ${like} escape '\\' or lower(coalesce(a.vendor_code, '')) like ${like} escape '\\' or lower(a.cname) like ${like} escape '\\' or exists (select 1 from custom_domains d where d.vendor_id = a.id and lower(d.host) like ${like} escape '\\'))`,
      );
    }
    return q;
  }

  async list(
    p: ListParams,
  ): Promise<{ total: number; page: number; pagesize: number; vendors: VendorCtrlPasswordRow[] }> {
    const n = await this.listQuery(p)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    const rows = await this.listQuery(p)
      .select([
        'a.id',
        'a.usr',
        'a.vendor_code',
        'a.cname',
        'p.vendor_id as pwd_vendor',
        'p.updated_at',
        'u.usr as set_by',
      ])
      .orderBy('a.id')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    const hosts = await this.domains.hostsOf(rows.map((r) => Number(r.id)));
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      vendors: rows.map((r) => ({
        vendorId: Number(r.id),
        usr: r.usr,
        vendorCode: r.vendor_code ?? '',
        name: r.cname,
        domains: hosts.get(Number(r.id)) ?? [],
        set: r.pwd_vendor !== null,
        setAt: r.pwd_vendor !== null ? Number(r.updated_at) : 0,
        setBy: r.pwd_vendor !== null ? (r.set_by ?? '') : '',
      })),
    };
  }

  /** Sets a manufacturer's password, entered twice (6 when the two differ). */
  async set(caller: Caller, vendor: number, pwd: string, confirmPwd: string): Promise<void> {
    if (pwd !== confirmPwd) throw new ApiError(6, 'confirmPwd');
    await this.pwd.set(caller, pwd, vendor);
  }

  /** Clears a manufacturer's password (271 when none is set). */
  async clear(caller: Caller, vendor: number): Promise<void> {
    await this.pwd.set(caller, '', vendor);
  }
}
