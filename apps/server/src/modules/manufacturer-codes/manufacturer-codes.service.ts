import { sql, type SqlBool } from 'kysely';
import { ApiError, ROLE, type Catalogue, type ManufacturerCodeRow, type ParsedParamsOf } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';

type ListParams = ParsedParamsOf<Catalogue['queryManufacturerCodes']>;
type AddParams = ParsedParamsOf<Catalogue['addManufacturerCode']>;
type EditParams = ParsedParamsOf<Catalogue['editManufacturerCode']>;

/** The prefixes a PN may start with: its first 3 and 4 characters (code 2-3 + type code 1). */
function prefixesOf(pn: string): string[] {
  const p = pn.toUpperCase();
  return [p.slice(0, 4), p.slice(0, 3)].filter((s) => s.length >= 3);
}

/**
 * PN rules (issue 14, factoryCode): a manufacturer code + type code prefix gives new PNs to a
 * manufacturer at registration (`makerForPn`, read by the stock adds of distribution and
 * collector admin). Every lookup reads the table (no cache): a rule applies at once everywhere.
 */
export class ManufacturerCodesService {
  constructor(
    private readonly root: Db,
    private readonly now: Clock,
    private readonly audit: Pick<AuditService, 'record'>,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** The manufacturer a new PN belongs to by an enabled rule (the longest prefix), if any. */
  async makerForPn(pn: string): Promise<{ id: number; vendor_code: string | null } | undefined> {
    const prefixes = prefixesOf(pn);
    if (prefixes.length === 0) return undefined;
    const r = await this.db
      .selectFrom('manufacturer_codes as m')
      .innerJoin('accounts as a', 'a.id', 'm.vendor_id')
      .select(['a.id', 'a.vendor_code', 'm.prefix'])
      .where('m.enabled', '=', 1)
      .where('m.prefix', 'in', prefixes)
      .execute();
    r.sort((x, y) => y.prefix.length - x.prefix.length);
    const hit = r[0];
    return hit ? { id: Number(hit.id), vendor_code: hit.vendor_code } : undefined;
  }

  async list(p: ListParams): Promise<{ total: number; page: number; pagesize: number; codes: ManufacturerCodeRow[] }> {
    let q = this.db.selectFrom('manufacturer_codes as m').innerJoin('accounts as a', 'a.id', 'm.vendor_id');
    if (p.vendorUid !== undefined) q = q.where('m.vendor_id', '=', p.vendorUid);
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(sql<SqlBool>`(lower(m.prefix) like ${like} escape '\\' or lower(a.usr) like ${like} escape '\\')`);
    }
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('m')
      .select('a.usr as vendor_usr')
      .orderBy('m.prefix')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      codes: rows.map((r) => ({
        id: Number(r.id),
        vendorUid: Number(r.vendor_id),
        vendorUsr: r.vendor_usr,
        code: r.code,
        typeCode: r.type_code,
        prefix: r.prefix,
        enabled: Number(r.enabled) === 1,
        updatedBy: r.updated_by ?? '',
        updatedAt: Number(r.updated_at),
      })),
    };
  }

  /** 14 when `code` is another manufacturer's own code (factoryAccount: a code names one manufacturer). */
  private async requireCodeNotOthers(code: string, vendorId: number): Promise<void> {
    const own = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', ROLE.MANUFACTURER)
      .where(sql<SqlBool>`upper(vendor_code) = ${code}`)
      .where('id', '<>', vendorId)
      .executeTakeFirst();
    if (own) throw new ApiError(14, 'code');
  }

  private async maker(vendorUid: number): Promise<{ id: number; usr: string }> {
    const maker = await this.db
      .selectFrom('accounts')
      .select(['id', 'usr'])
      .where('id', '=', vendorUid)
      .where('role', '=', ROLE.MANUFACTURER)
      .executeTakeFirst();
    if (!maker) throw new ApiError(261, 'vendorUid');
    return { id: Number(maker.id), usr: maker.usr };
  }

  async add(caller: Caller, p: AddParams): Promise<{ id: number; prefix: string }> {
    const maker = await this.maker(p.vendorUid);
    // a code belongs to one manufacturer; a prefix exists once
    const taken = await this.db
      .selectFrom('manufacturer_codes')
      .select(['vendor_id', 'prefix'])
      .where((eb) => eb.or([eb('code', '=', p.code), eb('prefix', '=', p.code + p.typeCode)]))
      .execute();
    if (taken.some((t) => Number(t.vendor_id) !== p.vendorUid || t.prefix === p.code + p.typeCode))
      throw new ApiError(14, 'code');
    await this.requireCodeNotOthers(p.code, p.vendorUid);
    const at = this.now();
    const prefix = p.code + p.typeCode;
    const row = await this.db
      .insertInto('manufacturer_codes')
      .values({
        vendor_id: p.vendorUid,
        code: p.code,
        type_code: p.typeCode,
        prefix,
        enabled: p.enabled ? 1 : 0,
        created_at: at,
        updated_at: at,
        updated_by: caller.usr,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await this.audit.record({
      entity: 'manufacturer_code',
      entityId: id,
      before: null,
      after: {
        vendor_id: p.vendorUid,
        vendor: maker.usr,
        code: p.code,
        type_code: p.typeCode,
        prefix,
        enabled: p.enabled,
      },
    });
    return { id, prefix };
  }

  async setEnabled(caller: Caller, id: number, enabled: boolean): Promise<void> {
    const before = await this.db
      .selectFrom('manufacturer_codes')
      .select(['enabled', 'prefix'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw new ApiError(12);
    if ((Number(before.enabled) === 1) === enabled) return;
    await this.db
      .updateTable('manufacturer_codes')
      .set({ enabled: enabled ? 1 : 0, updated_at: this.now(), updated_by: caller.usr })
      .where('id', '=', id)
      .execute();
    await this.audit.record({
      entity: 'manufacturer_code',
      entityId: id,
      before: { prefix: before.prefix, enabled: !enabled },
      after: { prefix: before.prefix, enabled },
    });
  }

  /**
   * Edits the type code, the enabled flag and the owner manufacturer of a rule. A code names one
   * manufacturer: a new owner takes the code only when no other rule of the code stays with
   * another manufacturer and the code is not another manufacturer's own code (14); the new prefix
   * must be free (14). Registered dataloggers keep their manufacturer.
   */
  async edit(caller: Caller, p: EditParams): Promise<void> {
    const before = await this.db.selectFrom('manufacturer_codes').selectAll().where('id', '=', p.id).executeTakeFirst();
    if (!before) throw new ApiError(12);
    const vendorId = p.vendorUid ?? Number(before.vendor_id);
    const typeCode = p.typeCode ?? before.type_code;
    const enabled = p.enabled ?? Number(before.enabled) === 1;
    const prefix = before.code + typeCode;
    const was = {
      vendor_id: Number(before.vendor_id),
      type_code: before.type_code,
      prefix: before.prefix,
      enabled: Number(before.enabled) === 1,
    };
    const now = { vendor_id: vendorId, type_code: typeCode, prefix, enabled };
    const changed = (Object.keys(now) as (keyof typeof now)[]).filter((k) => now[k] !== was[k]);
    if (changed.length === 0) return;
    let vendorUsr: string | undefined;
    if (vendorId !== was.vendor_id) {
      vendorUsr = (await this.maker(vendorId)).usr;
      const others = await this.db
        .selectFrom('manufacturer_codes')
        .select('id')
        .where('code', '=', before.code)
        .where('id', '<>', p.id)
        .where('vendor_id', '<>', vendorId)
        .executeTakeFirst();
      if (others) throw new ApiError(14, 'vendorUid');
      await this.requireCodeNotOthers(before.code, vendorId);
    }
    if (prefix !== was.prefix) {
      const clash = await this.db
        .selectFrom('manufacturer_codes')
        .select('id')
        .where('prefix', '=', prefix)
        .where('id', '<>', p.id)
        .executeTakeFirst();
      if (clash) throw new ApiError(14, 'typeCode');
    }
    await this.db
      .updateTable('manufacturer_codes')
      .set({
        vendor_id: vendorId,
        type_code: typeCode,
        prefix,
        enabled: enabled ? 1 : 0,
        updated_at: this.now(),
        updated_by: caller.usr,
      })
      .where('id', '=', p.id)
      .execute();
    const pick = (o: typeof now) => Object.fromEntries(changed.map((k) => [k, o[k]]));
    await this.audit.record({
      entity: 'manufacturer_code',
      entityId: p.id,
      before: { prefix: was.prefix, ...pick(was) },
      after: { prefix, ...pick(now), ...(vendorUsr ? { vendor: vendorUsr } : {}) },
    });
  }

  /** Deletes a rule; the audit keeps the whole row. */
  async remove(_caller: Caller, id: number): Promise<void> {
    const before = await this.db.selectFrom('manufacturer_codes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw new ApiError(12);
    await this.db.deleteFrom('manufacturer_codes').where('id', '=', id).execute();
    await this.audit.record({
      entity: 'manufacturer_code',
      entityId: id,
      before: {
        vendor_id: Number(before.vendor_id),
        code: before.code,
        type_code: before.type_code,
        prefix: before.prefix,
        enabled: Number(before.enabled) === 1,
      },
      after: null,
    });
  }
}
