import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import type { CompanyKeysTable } from '../../db/schema.js';
import { currentDb } from '../../db/transaction.js';

export type CompanyKeyRecord = Selectable<CompanyKeysTable>;

export interface CompanyKeyFilter {
  search?: string | undefined;
  client?: string | undefined;
  enabled?: boolean | undefined;
}

/** pg answers bigint columns as strings on some paths: one shape for both engines. */
function normalize(r: CompanyKeyRecord): CompanyKeyRecord {
  return {
    ...r,
    id: Number(r.id),
    enabled: Number(r.enabled),
    seeded: Number(r.seeded),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** SQL of the company keys (issue 14). Joins the caller's transaction (`currentDb`). */
export class CompanyKeysRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** Whether the key with this digest exists and is enabled: one indexed read, no cache. */
  async enabledByHash(keyHash: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('company_keys')
      .select('enabled')
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    return row !== undefined && Number(row.enabled) === 1;
  }

  /** Inserts unless the digest exists; the new id, or undefined when it existed. */
  async insertIfAbsent(row: Insertable<CompanyKeysTable>): Promise<number | undefined> {
    const r = await this.db
      .insertInto('company_keys')
      .values(row)
      .onConflict((oc) => oc.column('key_hash').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r === undefined ? undefined : Number(r.id);
  }

  async byId(id: number): Promise<CompanyKeyRecord | undefined> {
    const r = await this.db.selectFrom('company_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return r && normalize(r);
  }

  /** The entry holding this digest, if any. */
  async idByHash(keyHash: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('company_keys').select('id').where('key_hash', '=', keyHash).executeTakeFirst();
    return r === undefined ? undefined : Number(r.id);
  }

  async update(id: number, changes: Updateable<CompanyKeysTable>): Promise<void> {
    await this.db.updateTable('company_keys').set(changes).where('id', '=', id).execute();
  }

  private listQuery(f: CompanyKeyFilter) {
    let q = this.db.selectFrom('company_keys');
    if (f.client !== undefined) q = q.where('client', '=', f.client);
    if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled ? 1 : 0);
    const s = f.search?.trim();
    if (s) {
      const p = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(company) like ${p} escape '\\' or lower(domain) like ${p} escape '\\' or lower(hostname) like ${p} escape '\\' or lower(contact) like ${p} escape '\\' or lower(description) like ${p} escape '\\' or lower(key_hint) like ${p} escape '\\')`,
      );
    }
    return q;
  }

  async count(f: CompanyKeyFilter): Promise<number> {
    const r = await this.listQuery(f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async list(f: CompanyKeyFilter, offset: number, limit: number): Promise<CompanyKeyRecord[]> {
    const rows = await this.listQuery(f).selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute();
    return rows.map(normalize);
  }
}
