import { sql, type SqlBool } from 'kysely';
import {
  ACCOUNT_STATUS,
  ApiError,
  ROLE,
  getDefinition,
  type Catalogue,
  type ManufacturerEcoinRow,
  type ManufacturerRow,
  type ParsedParamsOf,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AccountAdminService, NewSubAccount } from '../accounts/account-admin.service.js';

type ListParams = ParsedParamsOf<Catalogue['queryManufacturers']>;
type EditParams = ParsedParamsOf<Catalogue['editManufacturer']>;

/** The account-admin operations a manufacturer reuses (account creation, enable/disable). */
export type ManufacturerAccounts = Pick<AccountAdminService, 'addManufacturer' | 'setEnabled'>;

/** The ids on a materialised path `/1/4/9/`, the account itself included. */
function pathIds(path: string): number[] {
  return path
    .split('/')
    .filter((p) => p !== '')
    .map(Number);
}

/** Every devcode must be a shipped definition (353 "no protocol" otherwise). */
function checkDevcodes(devcodes: readonly number[]): void {
  const unknown = devcodes.find((d) => !getDefinition(d));
  if (unknown !== undefined) throw new ApiError(353, String(unknown));
}

/**
 * Manufacturers (issue 14, factoryAccount): the role-1 accounts with their code
 * (`accounts.vendor_code`), name and ecoin (`manufacturers`), and visible devcodes
 * (`manufacturer_devcodes`, no row = all). Account creation and enable/disable go through the
 * account administration service (the same checks, audit and session revocation as enableUsrEs).
 */
export class ManufacturersService {
  constructor(
    private readonly root: Db,
    private readonly now: Clock,
    private readonly audit: Pick<AuditService, 'record'>,
    private readonly accounts: ManufacturerAccounts,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  // ------------------------------------------------------------------ visible devcodes

  /**
   * The devcodes the area of an account may see: those of the nearest manufacturer on its path
   * (itself included); null = all (no manufacturer above, or one without a restriction).
   */
  async visibleDevcodes(path: string): Promise<ReadonlySet<number> | null> {
    const ids = pathIds(path);
    if (ids.length === 0) return null;
    const makers = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('id', 'in', ids)
      .where('role', '=', ROLE.MANUFACTURER)
      .execute();
    const set = new Set(makers.map((m) => Number(m.id)));
    const maker = [...ids].reverse().find((id) => set.has(id));
    if (maker === undefined) return null;
    const rows = await this.db
      .selectFrom('manufacturer_devcodes')
      .select('devcode')
      .where('vendor_id', '=', maker)
      .execute();
    return rows.length === 0 ? null : new Set(rows.map((r) => Number(r.devcode)));
  }

  /** queryVisibleDevcodes: the caller's (or, for a sub-administrator, its principal's) area. */
  async visibleFor(caller: Caller): Promise<{ all: boolean; devcodes: number[] }> {
    if (caller.role === ROLE.OPERATOR) return { all: true, devcodes: [] };
    const set = await this.visibleDevcodes(caller.path);
    return set ? { all: false, devcodes: [...set].sort((a, b) => a - b) } : { all: true, devcodes: [] };
  }

  /** 353 when the caller's manufacturer hides `devcode` from its area (protocol pickers, control fields). */
  async requireVisible(caller: Caller, devcode: number): Promise<void> {
    if (caller.role === ROLE.OPERATOR) return;
    const set = await this.visibleDevcodes(caller.path);
    if (set && !set.has(devcode)) throw new ApiError(353, String(devcode));
  }

  // ------------------------------------------------------------------ list

  async list(
    p: ListParams,
  ): Promise<{ total: number; page: number; pagesize: number; manufacturers: ManufacturerRow[] }> {
    let q = this.db
      .selectFrom('accounts as a')
      .leftJoin('manufacturers as m', 'm.account_id', 'a.id')
      .where('a.role', '=', ROLE.MANUFACTURER);
    if (p.enabled !== undefined) {
      q = p.enabled
        ? q.where('a.status', 'in', [ACCOUNT_STATUS.ENABLED, ACCOUNT_STATUS.CANCELLING])
        : q.where('a.status', 'not in', [ACCOUNT_STATUS.ENABLED, ACCOUNT_STATUS.CANCELLING]);
    }
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(a.usr) like ${like} escape '\\' or lower(coalesce(m.name, '')) like ${like} escape '\\' or lower(coalesce(a.vendor_code, '')) like ${like} escape '\\')`,
      );
    }
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .select(['a.id', 'a.usr', 'a.cname', 'a.vendor_code', 'a.status', 'a.created_at', 'm.name', 'm.ecoin'])
      .orderBy(sql`coalesce(a.vendor_code, '')`)
      .orderBy('a.usr')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    const ids = rows.map((r) => Number(r.id));
    const devcodes = new Map<number, number[]>();
    const dataloggers = new Map<number, number>();
    const outside = new Map<number, number>();
    const rules = new Map<number, number>();
    if (ids.length > 0) {
      for (const d of await this.db
        .selectFrom('manufacturer_devcodes')
        .select(['vendor_id', 'devcode'])
        .where('vendor_id', 'in', ids)
        .orderBy('devcode')
        .execute()) {
        const list = devcodes.get(Number(d.vendor_id)) ?? [];
        list.push(Number(d.devcode));
        devcodes.set(Number(d.vendor_id), list);
      }
      for (const d of await this.db
        .selectFrom('dataloggers')
        .select(['vendor_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('vendor_id', 'in', ids)
        .groupBy('vendor_id')
        .execute()) {
        dataloggers.set(Number(d.vendor_id), Number(d.n));
      }
      for (const r of await this.db
        .selectFrom('manufacturer_codes')
        .select(['vendor_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('vendor_id', 'in', ids)
        .groupBy('vendor_id')
        .execute()) {
        rules.set(Number(r.vendor_id), Number(r.n));
      }
      const restricted = [...devcodes.keys()];
      if (restricted.length > 0) {
        // the flag: dataloggers of a restricted manufacturer with a device of a devcode it does not list
        for (const d of await this.db
          .selectFrom('dataloggers as d')
          .innerJoin('devices as v', 'v.datalogger_id', 'd.id')
          .select(['d.vendor_id', (eb) => eb.fn.count<number | string>('d.id').distinct().as('n')])
          .where('d.vendor_id', 'in', restricted)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('manufacturer_devcodes as md')
                  .select('md.devcode')
                  .whereRef('md.vendor_id', '=', 'd.vendor_id')
                  .whereRef('md.devcode', '=', 'v.devcode'),
              ),
            ),
          )
          .groupBy('d.vendor_id')
          .execute()) {
          outside.set(Number(d.vendor_id), Number(d.n));
        }
      }
    }
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      manufacturers: rows.map((r) => {
        const id = Number(r.id);
        return {
          uid: id,
          usr: r.usr,
          name: r.name ?? r.cname,
          code: r.vendor_code ?? '',
          enabled: r.status === ACCOUNT_STATUS.ENABLED || r.status === ACCOUNT_STATUS.CANCELLING,
          devcodes: devcodes.get(id) ?? [],
          ecoin: Number(r.ecoin ?? 0),
          dataloggers: dataloggers.get(id) ?? 0,
          outsideDataloggers: outside.get(id) ?? 0,
          rules: rules.get(id) ?? 0,
          createdAt: Number(r.created_at),
        };
      }),
    };
  }

  // ------------------------------------------------------------------ writes

  private async maker(uid: number): Promise<{ id: number; usr: string; vendor_code: string | null; cname: string }> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['id', 'usr', 'vendor_code', 'cname'])
      .where('id', '=', uid)
      .where('role', '=', ROLE.MANUFACTURER)
      .executeTakeFirst();
    if (!row) throw new ApiError(261, 'uid');
    return { ...row, id: Number(row.id) };
  }

  /**
   * 14 when `code` is another manufacturer's: its own code, or the code of a PN rule it owns
   * (a code names one manufacturer everywhere: orders, PN rules).
   */
  async requireFreeCode(code: string, vendorId: number | null): Promise<void> {
    const own = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', ROLE.MANUFACTURER)
      .where(sql<SqlBool>`upper(vendor_code) = ${code}`)
      .executeTakeFirst();
    if (own && Number(own.id) !== vendorId) throw new ApiError(14, 'code');
    const rule = await this.db
      .selectFrom('manufacturer_codes')
      .select('vendor_id')
      .where('code', '=', code)
      .executeTakeFirst();
    if (rule && Number(rule.vendor_id) !== vendorId) throw new ApiError(14, 'code');
  }

  private async ensureRow(uid: number, name: string, by: string): Promise<void> {
    await this.db
      .insertInto('manufacturers')
      .values({ account_id: uid, name, ecoin: 0, updated_at: this.now(), updated_by: by })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
  }

  private async setDevcodes(uid: number, devcodes: readonly number[]): Promise<void> {
    await this.db.deleteFrom('manufacturer_devcodes').where('vendor_id', '=', uid).execute();
    if (devcodes.length > 0) {
      await this.db
        .insertInto('manufacturer_devcodes')
        .values(devcodes.map((devcode) => ({ vendor_id: uid, devcode })))
        .execute();
    }
  }

  private async devcodesOf(uid: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('manufacturer_devcodes')
      .select('devcode')
      .where('vendor_id', '=', uid)
      .orderBy('devcode')
      .execute();
    return rows.map((r) => Number(r.devcode));
  }

  async add(
    caller: Caller,
    input: NewSubAccount & { name: string; code: string; devcodes: number[] },
  ): Promise<{ uid: number }> {
    checkDevcodes(input.devcodes);
    await this.requireFreeCode(input.code, null);
    const { name, code, devcodes, ...account } = input;
    const row = await this.accounts.addManufacturer(caller, { ...account, vendorCode: code });
    await this.ensureRow(row.id, name, caller.usr);
    await this.setDevcodes(row.id, devcodes);
    await this.audit.record({
      entity: 'manufacturer',
      entityId: row.id,
      before: null,
      after: { usr: row.usr, name, code, devcodes, ecoin: 0 },
    });
    return { uid: row.id };
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const maker = await this.maker(p.uid);
    const current = await this.db
      .selectFrom('manufacturers')
      .select('name')
      .where('account_id', '=', maker.id)
      .executeTakeFirst();
    const before = {
      name: current?.name ?? maker.cname,
      code: maker.vendor_code ?? '',
      devcodes: await this.devcodesOf(maker.id),
    };
    const after = { ...before };
    if (p.name !== undefined) after.name = p.name;
    if (p.devcodes !== undefined) {
      checkDevcodes(p.devcodes);
      after.devcodes = p.devcodes;
    }
    if (p.code !== undefined && p.code !== before.code) {
      await this.requireFreeCode(p.code, maker.id);
      // an open datalogger order names the manufacturer by its code: it would lose its manufacturer
      const open = await this.db
        .selectFrom('datalogger_orders')
        .select('id')
        .where('vendor_code', '=', before.code)
        .where('bound_to', 'is', null)
        .where('status', '=', 0)
        .executeTakeFirst();
      if (open && before.code !== '') throw new ApiError(14, 'order');
      after.code = p.code;
    }
    const changed = (Object.keys(after) as (keyof typeof after)[]).filter(
      (k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]),
    );
    if (changed.length === 0) return;
    const at = this.now();
    await this.ensureRow(maker.id, before.name, caller.usr);
    if (changed.includes('name')) {
      await this.db
        .updateTable('manufacturers')
        .set({ name: after.name, updated_at: at, updated_by: caller.usr })
        .where('account_id', '=', maker.id)
        .execute();
    }
    if (changed.includes('code')) {
      await this.db
        .updateTable('accounts')
        .set({ vendor_code: after.code, updated_at: at })
        .where('id', '=', maker.id)
        .execute();
    }
    if (changed.includes('devcodes')) await this.setDevcodes(maker.id, after.devcodes);
    await this.audit.record({
      entity: 'manufacturer',
      entityId: maker.id,
      before: Object.fromEntries(changed.map((k) => [k, before[k]])),
      after: Object.fromEntries(changed.map((k) => [k, after[k]])),
    });
  }

  /** Through enableUsrEs' service: audited as `account`, sessions revoked at once on disable. */
  async setEnabled(caller: Caller, uid: number, enabled: boolean): Promise<void> {
    await this.maker(uid);
    await this.accounts.setEnabled(caller, [uid], enabled);
  }

  /**
   * Adds `delta` to the balance in one conditional update (never below 0: 13), records the
   * adjustment in the ecoin log and the audit.
   */
  async adjustEcoin(caller: Caller, uid: number, delta: number, reason: string): Promise<{ ecoin: number }> {
    const maker = await this.maker(uid);
    await this.ensureRow(maker.id, maker.cname, caller.usr);
    const before = await this.db
      .selectFrom('manufacturers')
      .select('ecoin')
      .where('account_id', '=', maker.id)
      .executeTakeFirstOrThrow();
    const at = this.now();
    const r = await this.db
      .updateTable('manufacturers')
      .set({ ecoin: sql<number>`ecoin + ${delta}`, updated_at: at, updated_by: caller.usr })
      .where('account_id', '=', maker.id)
      .where(sql<SqlBool>`ecoin + ${delta} >= 0`)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new ApiError(13, 'delta');
    const after = await this.db
      .selectFrom('manufacturers')
      .select('ecoin')
      .where('account_id', '=', maker.id)
      .executeTakeFirstOrThrow();
    const ecoin = Number(after.ecoin);
    await this.db
      .insertInto('manufacturer_ecoin_log')
      .values({ vendor_id: maker.id, delta, balance: ecoin, reason, usr: caller.usr, created_at: at })
      .execute();
    await this.audit.record({
      entity: 'manufacturer',
      entityId: maker.id,
      before: { ecoin: Number(before.ecoin) },
      after: { ecoin, delta, reason },
    });
    return { ecoin };
  }

  async ecoinLog(
    uid: number,
    paging: { page: number; pagesize: number },
  ): Promise<{ total: number; page: number; pagesize: number; rows: ManufacturerEcoinRow[] }> {
    await this.maker(uid);
    const q = this.db.selectFrom('manufacturer_ecoin_log').where('vendor_id', '=', uid);
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('id', 'desc')
      .offset(paging.page * paging.pagesize)
      .limit(paging.pagesize)
      .execute();
    return {
      total: Number(n?.n ?? 0),
      page: paging.page,
      pagesize: paging.pagesize,
      rows: rows.map((r) => ({
        id: Number(r.id),
        delta: Number(r.delta),
        balance: Number(r.balance),
        reason: r.reason,
        usr: r.usr,
        at: Number(r.created_at),
      })),
    };
  }
}
