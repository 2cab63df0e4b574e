import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import { likePattern } from '../../db/like.js';
import type { DeviceDefinition } from '@sunwatch/protocol';
import { olderDefs } from './devcode-history.js';

/** A device with what its screens need from its datalogger, plant and owner. */
export interface DeviceRow {
  id: number;
  datalogger_id: number;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  alias: string;
  devtype: number;
  device_type: number;
  model: string;
  brand: string;
  status: number;
  firmware: string;
  project_id: number | null;
  last_sample_at: number | null;
  dl_alias: string;
  dl_status: number;
  dl_tz: number;
  owner_id: number | null;
  owner_usr: string | null;
  pname: string | null;
  p_tz: number | null;
  unit_profit: number | null;
  currency: string | null;
}

/** A row of the operator's platform device list. */
export interface FleetDeviceRecord {
  id: number;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  alias: string;
  model: string;
  status: number;
  project_id: number | null;
  dl_alias: string;
  owner_id: number | null;
  owner_usr: string | null;
  vendor_id: number | null;
  vendor_usr: string | null;
  pname: string | null;
}

export interface DeviceKey {
  pn?: string | undefined;
  devcode?: number | undefined;
  devaddr?: number | undefined;
  sn?: string | undefined;
}

export interface DeviceListFilter {
  pid?: number | undefined;
  pn?: string | undefined;
  sn?: string | undefined;
  devtype?: number | undefined;
  devcode?: number | undefined;
  status?: number | undefined;
  search?: string | undefined;
  /** Only devices followed by this account. */
  followedBy?: number | undefined;
  datalogerId?: number | undefined;
}

/** The timezone of a device row: its plant's, else its datalogger's. */
export function deviceTz(d: Pick<DeviceRow, 'p_tz' | 'dl_tz'>): number {
  return d.p_tz ?? d.dl_tz;
}

export class DevicesRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  private base(scope: TelemetryScope) {
    return this.db
      .selectFrom('devices as d')
      .innerJoin('dataloggers as dl', 'dl.id', 'd.datalogger_id')
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .leftJoin('accounts as o', 'o.id', 'dl.owner_id')
      .where(dataloggerScopeSql(scope, 'dl'));
  }

  private withColumns(q: ReturnType<DevicesRepository['base']>) {
    return q.select([
      'd.id',
      'd.datalogger_id',
      'd.pn',
      'd.devcode',
      'd.devaddr',
      'd.sn',
      'd.alias',
      'd.devtype',
      'd.device_type',
      'd.model',
      'd.brand',
      'd.status',
      'd.firmware',
      'd.project_id',
      'd.last_sample_at',
      'dl.alias as dl_alias',
      'dl.status as dl_status',
      'dl.tz_offset as dl_tz',
      'dl.owner_id as owner_id',
      'o.usr as owner_usr',
      'p.name as pname',
      'p.tz_offset as p_tz',
      'p.unit_profit as unit_profit',
      'p.currency as currency',
    ]);
  }

  /**
   * The visible device named by a (partial) tuple: sn alone, pn + devaddr, or the full tuple.
   * Undefined when there is none in scope (the caller answers err 258).
   */
  async find(scope: TelemetryScope, key: DeviceKey): Promise<DeviceRow | undefined> {
    return (await this.findWithLatest(scope, key, false)) as DeviceRow | undefined;
  }

  /** `find` plus the device's latest sample in the same query (one round trip for real-time screens). */
  async findWithLatest(
    scope: TelemetryScope,
    key: DeviceKey,
    latest = true,
  ): Promise<(DeviceRow & { latest_ts: number | null; latest_data: Uint8Array | null }) | undefined> {
    let q = this.withColumns(this.base(scope))
      .leftJoin('device_latest as l', (j) => (latest ? j.onRef('l.device_id', '=', 'd.id') : j.on(sql<SqlBool>`1 = 0`)))
      .select(['l.ts as latest_ts', 'l.data as latest_data']);
    if (key.pn) q = q.where('d.pn', '=', key.pn);
    if (key.sn) q = q.where('d.sn', '=', key.sn);
    if (key.devcode !== undefined) q = q.where('d.devcode', '=', key.devcode);
    if (key.devaddr !== undefined) q = q.where('d.devaddr', '=', key.devaddr);
    const row = await q.orderBy('d.id').limit(1).executeTakeFirst();
    return row as (DeviceRow & { latest_ts: number | null; latest_data: Uint8Array | null }) | undefined;
  }

  private filtered(scope: TelemetryScope, f: DeviceListFilter) {
    let q = this.base(scope);
    if (f.pid !== undefined) q = q.where('d.project_id', '=', f.pid);
    if (f.pn) q = q.where('d.pn', '=', f.pn);
    if (f.sn) q = q.where('d.sn', '=', f.sn);
    if (f.devtype !== undefined) q = q.where('d.devtype', '=', f.devtype);
    if (f.devcode !== undefined) q = q.where('d.devcode', '=', f.devcode);
    if (f.status !== undefined) q = q.where('d.status', '=', f.status);
    if (f.datalogerId !== undefined) q = q.where('d.datalogger_id', '=', f.datalogerId);
    if (f.search) {
      const p = likePattern(f.search);
      q = q.where(
        sql<SqlBool>`(lower(d.sn) like ${p} escape '\\' or lower(d.alias) like ${p} escape '\\' or lower(d.pn) like ${p} escape '\\')`,
      );
    }
    if (f.followedBy !== undefined) {
      q = q.where(
        sql<SqlBool>`d.id in (select f.device_id from device_follows f where f.account_id = ${f.followedBy})`,
      );
    }
    return q;
  }

  async list(
    scope: TelemetryScope,
    f: DeviceListFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: DeviceRow[] }> {
    const count = await this.filtered(scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(count.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await this.withColumns(this.filtered(scope, f))
      .orderBy('d.id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows: rows as DeviceRow[] };
  }

  /** Every visible device matching the filter (unpaged; for plant-level aggregates). */
  async all(scope: TelemetryScope, f: DeviceListFilter): Promise<DeviceRow[]> {
    return (await this.withColumns(this.filtered(scope, f)).orderBy('d.id').execute()) as DeviceRow[];
  }

  /** Devices of plants (no scope check: the caller has checked the plants). */
  async ofPlants(projectIds: readonly number[]): Promise<DeviceRow[]> {
    if (projectIds.length === 0) return [];
    return (await this.withColumns(this.base({ kind: 'all', accountId: 0 }))
      .where('d.project_id', 'in', projectIds)
      .orderBy('d.id')
      .execute()) as DeviceRow[];
  }

  async latest(deviceIds: readonly number[]): Promise<Map<number, { ts: number; data: Uint8Array }>> {
    const out = new Map<number, { ts: number; data: Uint8Array }>();
    if (deviceIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('device_latest')
      .select(['device_id', 'ts', 'data'])
      .where('device_id', 'in', deviceIds)
      .execute();
    for (const r of rows) out.set(r.device_id, { ts: Number(r.ts), data: r.data });
    return out;
  }

  /**
   * Samples in [from, to); `def` is set on a sample stored before a devcode change (issue 14
   * protocolChange): decode it with that definition, not the device's current one.
   */
  async samples(
    deviceId: number,
    from: number,
    to: number,
  ): Promise<Array<{ ts: number; data: Uint8Array; def?: DeviceDefinition }>> {
    const rows = await this.db
      .selectFrom('samples')
      .select(['ts', 'data'])
      .where('device_id', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts')
      .execute();
    const older = await olderDefs(this.db, [deviceId], from);
    return rows.map((r) => ({ ts: Number(r.ts), data: r.data, def: older.at(deviceId, Number(r.ts)) }));
  }

  /** Samples of several devices in [from, to) (plant curves). */
  async samplesOf(
    deviceIds: readonly number[],
    from: number,
    to: number,
  ): Promise<Array<{ device_id: number; ts: number; data: Uint8Array; def?: DeviceDefinition }>> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('samples')
      .select(['device_id', 'ts', 'data'])
      .where('device_id', 'in', deviceIds)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts')
      .execute();
    const older = await olderDefs(this.db, deviceIds, from);
    return rows.map((r) => ({
      device_id: r.device_id,
      ts: Number(r.ts),
      data: r.data,
      def: older.at(r.device_id, Number(r.ts)),
    }));
  }

  async countSamples(deviceId: number, from: number, to: number): Promise<number> {
    const r = await this.db
      .selectFrom('samples')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** One page of samples, newest first. */
  async samplesPage(
    deviceId: number,
    from: number,
    to: number,
    page: number,
    pagesize: number,
  ): Promise<Array<{ ts: number; data: Uint8Array; def?: DeviceDefinition }>> {
    const rows = await this.db
      .selectFrom('samples')
      .select(['ts', 'data'])
      .where('device_id', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    const older = await olderDefs(this.db, [deviceId], from);
    return rows.map((r) => ({ ts: Number(r.ts), data: r.data, def: older.at(deviceId, Number(r.ts)) }));
  }

  async followed(accountId: number, deviceIds: readonly number[]): Promise<Set<number>> {
    if (deviceIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('device_follows')
      .select('device_id')
      .where('account_id', '=', accountId)
      .where('device_id', 'in', deviceIds)
      .execute();
    return new Set(rows.map((r) => r.device_id));
  }

  /** The follow row of this account and device, if any. */
  findFollow(
    accountId: number,
    deviceId: number,
  ): Promise<{ account_id: number; device_id: number; created_at: number } | undefined> {
    return this.db
      .selectFrom('device_follows')
      .select(['account_id', 'device_id', 'created_at'])
      .where('account_id', '=', accountId)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Follows the device; false when it was followed already (a concurrent call included). */
  async follow(accountId: number, deviceId: number, now: number): Promise<boolean> {
    const res = await this.db
      .insertInto('device_follows')
      .values({ account_id: accountId, device_id: deviceId, created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'device_id']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Unfollows the device; false when it was not followed. */
  async unfollow(accountId: number, deviceId: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('device_follows')
      .where('account_id', '=', accountId)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /**
   * The operator's platform device list (queryFleetDevices): the scope's devices with their owner,
   * manufacturer, datalogger and plant; `search` matches PN, SN, alias, owner username (fuzzy) and
   * the devcode (exact, when it is a number).
   */
  async fleet(
    scope: TelemetryScope,
    f: { search?: string | undefined; status?: number | undefined; vendorId?: number | undefined },
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: FleetDeviceRecord[] }> {
    let q = this.base(scope).leftJoin('accounts as v', 'v.id', 'dl.vendor_id');
    if (f.status !== undefined) q = q.where('d.status', '=', f.status);
    if (f.vendorId !== undefined) q = q.where('dl.vendor_id', '=', f.vendorId);
    const text = f.search?.trim() ?? '';
    if (text !== '') {
      const p = likePattern(text);
      const alts = [
        sql<SqlBool>`lower(d.pn) like ${p} escape '\\'`,
        sql<SqlBool>`lower(d.sn) like ${p} escape '\\'`,
        sql<SqlBool>`lower(d.alias) like ${p} escape '\\'`,
        sql<SqlBool>`lower(o.usr) like ${p} escape '\\'`,
      ];
      if (/^\d{1,9}$/.test(text)) alts.push(sql<SqlBool>`d.devcode = ${Number(text)}`);
      q = q.where(sql<SqlBool>`(${sql.join(alts, sql` or `)})`);
    }
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .select([
        'd.id',
        'd.pn',
        'd.devcode',
        'd.devaddr',
        'd.sn',
        'd.alias',
        'd.model',
        'd.status',
        'd.project_id',
        'dl.alias as dl_alias',
        'dl.owner_id as owner_id',
        'o.usr as owner_usr',
        'dl.vendor_id as vendor_id',
        'v.usr as vendor_usr',
        'p.name as pname',
      ])
      .orderBy('d.id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return {
      total,
      rows: rows.map((r) => ({
        ...r,
        id: Number(r.id),
        devcode: Number(r.devcode),
        devaddr: Number(r.devaddr),
        status: Number(r.status),
        project_id: r.project_id != null ? Number(r.project_id) : null,
        owner_id: r.owner_id != null ? Number(r.owner_id) : null,
        vendor_id: r.vendor_id != null ? Number(r.vendor_id) : null,
      })),
    };
  }

  /** Device counts by status in scope. */
  async statusCounts(scope: TelemetryScope): Promise<Array<{ status: number; n: number }>> {
    const rows = await this.base(scope)
      .select(['d.status as status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('d.status')
      .execute();
    return rows.map((r) => ({ status: Number(r.status), n: Number(r.n) }));
  }
}
