import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import type { FirmwareSigningKeysTable, FirmwaresTable } from '../../db/schema-firmware.js';
import { currentDb } from '../../db/transaction.js';

export type FirmwareRecord = Selectable<FirmwaresTable>;
export type SigningKeyRecord = Selectable<FirmwareSigningKeysTable>;

/** A firmware with what the list shows besides its row: vendor name, key fingerprint and state. */
export interface FirmwareListRecord extends FirmwareRecord {
  vendor_usr: string;
  key_fingerprint: string | null;
  key_revoked_at: number | null;
}

export interface FirmwareFilter {
  /** Undefined = every manufacturer (the operator). */
  vendorId: number | undefined;
  search?: string | undefined;
  type?: number | undefined;
  source?: number | undefined;
}

/** The firmware tables of the library part (migration 0022): firmwares, signing keys, defaults. */
export class FirmwareRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  private listQuery(f: FirmwareFilter) {
    let q = this.db
      .selectFrom('firmwares as f')
      .innerJoin('accounts as a', 'a.id', 'f.vendor_id')
      .leftJoin('firmware_signing_keys as k', 'k.id', 'f.key_id')
      .where('f.deleted_at', 'is', null);
    if (f.vendorId !== undefined) q = q.where('f.vendor_id', '=', f.vendorId);
    if (f.type !== undefined) q = q.where('f.type', '=', f.type);
    if (f.source !== undefined) q = q.where('f.source', '=', f.source);
    const s = f.search?.trim();
    if (s) {
      const p = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(f.name) like ${p} escape '\\' or lower(f.version) like ${p} escape '\\' or lower(f.file_name) like ${p} escape '\\' or lower(f.description) like ${p} escape '\\')`,
      );
    }
    return q;
  }

  async count(f: FirmwareFilter): Promise<number> {
    const r = await this.listQuery(f)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async list(f: FirmwareFilter, offset: number, limit: number): Promise<FirmwareListRecord[]> {
    const rows = await this.listQuery(f)
      .selectAll('f')
      .select(['a.usr as vendor_usr', 'k.fingerprint as key_fingerprint', 'k.revoked_at as key_revoked_at'])
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(normalize);
  }

  async byCode(code: string): Promise<FirmwareListRecord | undefined> {
    const r = await this.db
      .selectFrom('firmwares as f')
      .innerJoin('accounts as a', 'a.id', 'f.vendor_id')
      .leftJoin('firmware_signing_keys as k', 'k.id', 'f.key_id')
      .selectAll('f')
      .select(['a.usr as vendor_usr', 'k.fingerprint as key_fingerprint', 'k.revoked_at as key_revoked_at'])
      .where('f.code', '=', code)
      .where('f.deleted_at', 'is', null)
      .executeTakeFirst();
    return r ? normalize(r) : undefined;
  }

  async insert(row: Insertable<FirmwaresTable>): Promise<number> {
    const r = await this.db.insertInto('firmwares').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Whether a live (not deleted) firmware keeps its image under `blobKey` (read outside any transaction). */
  async blobInUse(blobKey: string): Promise<boolean> {
    const r = await this.root
      .selectFrom('firmwares')
      .select('id')
      .where('blob_key', '=', blobKey)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return r !== undefined;
  }

  async update(id: number, patch: Updateable<FirmwaresTable>): Promise<void> {
    await this.db.updateTable('firmwares').set(patch).where('id', '=', id).execute();
  }

  /** Strategies not cancelled whose window has not ended at `now` that use the firmware. */
  async liveStrategiesUsing(firmwareId: number, now: number): Promise<number> {
    const r = await this.db
      .selectFrom('upgrade_strategies')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('firmware_id', '=', firmwareId)
      .where('cancelled_at', 'is', null)
      .where('ends_at', '>', now)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async defaultsUsing(firmwareId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('default_firmwares')
      .select('datalogger_type')
      .where('firmware_id', '=', firmwareId)
      .orderBy('datalogger_type')
      .execute();
    return rows.map((r) => r.datalogger_type);
  }

  /** Default firmware ids by datalogger type of one manufacturer. */
  async defaults(vendorId: number): Promise<Array<{ datalogger_type: string; firmware_id: number }>> {
    const rows = await this.db
      .selectFrom('default_firmwares')
      .select(['datalogger_type', 'firmware_id'])
      .where('vendor_id', '=', vendorId)
      .execute();
    return rows.map((r) => ({ datalogger_type: r.datalogger_type, firmware_id: Number(r.firmware_id) }));
  }

  /** Datalogger types (models) of a manufacturer's fleet with their counts. */
  async fleetTypes(vendorId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('dataloggers')
      .select(['model', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('vendor_id', '=', vendorId)
      .groupBy('model')
      .execute();
    return new Map(rows.filter((r) => r.model !== '').map((r) => [r.model, Number(r.n)]));
  }

  async firmwareById(id: number): Promise<FirmwareListRecord | undefined> {
    const r = await this.db
      .selectFrom('firmwares as f')
      .innerJoin('accounts as a', 'a.id', 'f.vendor_id')
      .leftJoin('firmware_signing_keys as k', 'k.id', 'f.key_id')
      .selectAll('f')
      .select(['a.usr as vendor_usr', 'k.fingerprint as key_fingerprint', 'k.revoked_at as key_revoked_at'])
      .where('f.id', '=', id)
      .executeTakeFirst();
    return r ? normalize(r) : undefined;
  }

  async setDefault(vendorId: number, type: string, firmwareId: number, by: number | null, now: number): Promise<void> {
    await this.db
      .insertInto('default_firmwares')
      .values({ vendor_id: vendorId, datalogger_type: type, firmware_id: firmwareId, updated_by: by, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['vendor_id', 'datalogger_type']).doUpdateSet({ firmware_id: firmwareId, updated_by: by, updated_at: now }),
      )
      .execute();
  }

  async clearDefault(vendorId: number, type: string): Promise<void> {
    await this.db
      .deleteFrom('default_firmwares')
      .where('vendor_id', '=', vendorId)
      .where('datalogger_type', '=', type)
      .execute();
  }

  async defaultOf(vendorId: number, type: string): Promise<number | undefined> {
    const r = await this.db
      .selectFrom('default_firmwares')
      .select('firmware_id')
      .where('vendor_id', '=', vendorId)
      .where('datalogger_type', '=', type)
      .executeTakeFirst();
    return r ? Number(r.firmware_id) : undefined;
  }

  // --- signing keys ---

  async keys(vendorId: number): Promise<SigningKeyRecord[]> {
    const rows = await this.db
      .selectFrom('firmware_signing_keys')
      .selectAll()
      .where('vendor_id', '=', vendorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(normalizeKey);
  }

  async keyByFingerprint(fingerprint: string): Promise<SigningKeyRecord | undefined> {
    const r = await this.db
      .selectFrom('firmware_signing_keys')
      .selectAll()
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    return r ? normalizeKey(r) : undefined;
  }

  async keyById(id: number): Promise<SigningKeyRecord | undefined> {
    const r = await this.db.selectFrom('firmware_signing_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? normalizeKey(r) : undefined;
  }

  async insertKey(row: Insertable<FirmwareSigningKeysTable>): Promise<number> {
    const r = await this.db.insertInto('firmware_signing_keys').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async revokeKey(id: number, now: number): Promise<void> {
    await this.db.updateTable('firmware_signing_keys').set({ revoked_at: now }).where('id', '=', id).execute();
  }
}

/** PostgreSQL returns bigint columns as strings: numbers everywhere. */
function normalize<T extends FirmwareRecord & { key_revoked_at?: number | string | null }>(r: T): FirmwareListRecord {
  const x = r as unknown as FirmwareListRecord;
  return {
    ...x,
    id: Number(r.id),
    vendor_id: Number(r.vendor_id),
    size: Number(r.size),
    created_at: Number(r.created_at),
    key_id: r.key_id === null ? null : Number(r.key_id),
    deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
    key_revoked_at: r.key_revoked_at === null || r.key_revoked_at === undefined ? null : Number(r.key_revoked_at),
    key_fingerprint: x.key_fingerprint ?? null,
  };
}

function normalizeKey(r: SigningKeyRecord): SigningKeyRecord {
  return {
    ...r,
    id: Number(r.id),
    vendor_id: Number(r.vendor_id),
    created_at: Number(r.created_at),
    revoked_at: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}
