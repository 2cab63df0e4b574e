import { ROLE, type CustomDomainImageKind } from '@sunwatch/protocol';
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import type { CustomDomainsTable } from '../../db/schema.js';
import { currentDb } from '../../db/transaction.js';

/** A custom domain without its picture bytes (every read but the picture route's). */
export interface CustomDomainRecord {
  id: number;
  host: string;
  vendor_id: number | null;
  vendor_usr: string | null;
  vendor_code: string | null;
  vendor_name: string | null;
  title: string;
  languages: string;
  force_language: string;
  demo: number;
  qr_login: number;
  phone_num: string;
  email: string;
  wechat: string;
  english_name: string;
  logo_type: string;
  logo_sha: string;
  logo_size: number;
  background_type: string;
  background_sha: string;
  background_size: number;
  enabled: number;
  seeded: number;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

export interface CustomDomainFilter {
  search?: string | undefined;
  vendor?: number | undefined;
  enabled?: boolean | undefined;
}

/** The columns of a record: never the picture bytes. */
const COLUMNS = [
  'd.id',
  'd.host',
  'd.vendor_id',
  'a.usr as vendor_usr',
  'a.vendor_code as vendor_code',
  'a.cname as vendor_name',
  'd.title',
  'd.languages',
  'd.force_language',
  'd.demo',
  'd.qr_login',
  'd.phone_num',
  'd.email',
  'd.wechat',
  'd.english_name',
  'd.logo_type',
  'd.logo_sha',
  'd.logo_size',
  'd.background_type',
  'd.background_sha',
  'd.background_size',
  'd.enabled',
  'd.seeded',
  'd.created_at',
  'd.updated_at',
  'd.updated_by',
] as const;

/** pg answers bigint columns as strings on some paths: one shape for both engines. */
function normalize(r: CustomDomainRecord): CustomDomainRecord {
  return {
    ...r,
    id: Number(r.id),
    vendor_id: r.vendor_id === null ? null : Number(r.vendor_id),
    demo: Number(r.demo),
    qr_login: Number(r.qr_login),
    logo_size: Number(r.logo_size),
    background_size: Number(r.background_size),
    enabled: Number(r.enabled),
    seeded: Number(r.seeded),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** SQL of the custom domains (issue 14). Joins the caller's transaction (`currentDb`). */
export class CustomDomainsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  private base() {
    return this.db.selectFrom('custom_domains as d').leftJoin('accounts as a', 'a.id', 'd.vendor_id');
  }

  async byId(id: number): Promise<CustomDomainRecord | undefined> {
    const r = await this.base().select(COLUMNS).where('d.id', '=', id).executeTakeFirst();
    return r && normalize(r as CustomDomainRecord);
  }

  /** The enabled domain of a host: one read by the unique index, no picture bytes. */
  async enabledByHost(host: string): Promise<CustomDomainRecord | undefined> {
    const r = await this.base()
      .select(COLUMNS)
      .where('d.host', '=', host)
      .where('d.enabled', '=', 1)
      .executeTakeFirst();
    return r && normalize(r as CustomDomainRecord);
  }

  async idByHost(host: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('custom_domains').select('id').where('host', '=', host).executeTakeFirst();
    return r === undefined ? undefined : Number(r.id);
  }

  /** The picture of an enabled host's domain. */
  async image(host: string, kind: CustomDomainImageKind): Promise<{ bytes: Uint8Array; type: string } | undefined> {
    const r =
      kind === 'logo'
        ? await this.db
            .selectFrom('custom_domains')
            .select(['logo as bytes', 'logo_type as type'])
            .where('host', '=', host)
            .where('enabled', '=', 1)
            .executeTakeFirst()
        : await this.db
            .selectFrom('custom_domains')
            .select(['background as bytes', 'background_type as type'])
            .where('host', '=', host)
            .where('enabled', '=', 1)
            .executeTakeFirst();
    if (!r || !r.bytes || r.type === '') return undefined;
    return { bytes: r.bytes, type: r.type };
  }

  /** Inserts unless the host exists; the new id, or undefined when it existed. */
  async insertIfAbsent(row: Insertable<CustomDomainsTable>): Promise<number | undefined> {
    const r = await this.db
      .insertInto('custom_domains')
      .values(row)
      .onConflict((oc) => oc.column('host').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r === undefined ? undefined : Number(r.id);
  }

  async update(id: number, changes: Updateable<CustomDomainsTable>): Promise<void> {
    await this.db.updateTable('custom_domains').set(changes).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('custom_domains').where('id', '=', id).execute();
  }

  /** Whether an account is a manufacturer (role 1, not a sub-administrator). */
  async isManufacturer(id: number): Promise<boolean> {
    const r = await this.db.selectFrom('accounts').select(['role', 'admin_of']).where('id', '=', id).executeTakeFirst();
    return r !== undefined && r.role === ROLE.MANUFACTURER && r.admin_of === null;
  }

  /** Host names of these manufacturers' domains, by manufacturer. */
  async hostsOf(vendorIds: readonly number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (vendorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('custom_domains')
      .select(['vendor_id', 'host'])
      .where('vendor_id', 'in', [...vendorIds])
      .orderBy('host')
      .execute();
    for (const r of rows) {
      const v = Number(r.vendor_id);
      out.set(v, [...(out.get(v) ?? []), r.host]);
    }
    return out;
  }

  private listQuery(f: CustomDomainFilter) {
    let q = this.base();
    if (f.vendor !== undefined) q = q.where('d.vendor_id', '=', f.vendor);
    if (f.enabled !== undefined) q = q.where('d.enabled', '=', f.enabled ? 1 : 0);
    const s = f.search?.trim();
    if (s) {
      const p = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(d.host) like ${p} escape '\\' or lower(d.title) like ${p} escape '\\' or lower(d.english_name) like ${p} escape '\\' or lower(d.email) like ${p} escape '\\' or lower(coalesce(a.usr, '')) like ${p} escape '\\' or lower(coalesce(a.vendor_code, '')) like ${p} escape '\\' or lower(coalesce(a.cname, '')) like ${p} escape '\\')`,
      );
    }
    return q;
  }

  async count(f: CustomDomainFilter): Promise<number> {
    const r = await this.listQuery(f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async list(f: CustomDomainFilter, offset: number, limit: number): Promise<CustomDomainRecord[]> {
    const rows = await this.listQuery(f).select(COLUMNS).orderBy('d.id', 'desc').offset(offset).limit(limit).execute();
    return rows.map((r) => normalize(r as CustomDomainRecord));
  }
}
