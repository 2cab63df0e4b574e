import { DEVICE_STATUS } from '@sunwatch/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { DataloggerOrdersTable } from '../../db/schema.js';
import { currentDb } from '../../db/transaction.js';

/** What distribution needs of a datalogger. */
export interface StockRow {
  id: number;
  pn: string;
  alias: string;
  owner_id: number | null;
  admin_id: number | null;
  vendor_id: number | null;
  project_id: number | null;
  tz_offset: number;
  country: string;
  province: string;
  city: string;
  address: string;
  lon: number | null;
  lat: number | null;
}

export type OrderRow = Selectable<DataloggerOrdersTable>;

/** Where a datalogger was when the call read it: unbound stock of this administrator. */
export interface StockState {
  adminId: number | null;
}

/** The SQL of datalogger distribution (stock, assignment, orders). */
export class DistributionRepository {
  constructor(
    private readonly root: Db,
    private readonly now: () => number,
  ) {}

  /** The open transaction of this call if any, else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  async byPns(pns: readonly string[]): Promise<Map<string, StockRow>> {
    if (pns.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('dataloggers')
      .select([
        'id',
        'pn',
        'alias',
        'owner_id',
        'admin_id',
        'vendor_id',
        'project_id',
        'tz_offset',
        'country',
        'province',
        'city',
        'address',
        'lon',
        'lat',
      ])
      .where('pn', 'in', [...pns])
      .execute();
    return new Map(rows.map((r) => [r.pn, { ...r, id: Number(r.id) }]));
  }

  /** A new datalogger in a distributor's or manufacturer's stock (not yet bound to anyone). */
  async insertStock(
    pn: string,
    alias: string,
    adminId: number | null,
    vendorId: number | null,
    typeCode: string,
    commMethod = '',
  ): Promise<number> {
    const now = this.now();
    const row = await this.db
      .insertInto('dataloggers')
      .values({
        pn,
        alias,
        type_code: typeCode,
        model: '',
        comm_method: commMethod,
        comm_address: '',
        devcode: null,
        online_domain: '',
        status: DEVICE_STATUS.OFFLINE,
        active: 0,
        firmware: '',
        signal: 0,
        load_count: 0,
        comm_balance: 0,
        owner_id: null,
        admin_id: adminId,
        vendor_id: vendorId,
        project_id: null,
        tz_offset: 0,
        collect_interval: 300,
        heartbeat_interval: 60,
        storage_days: 365,
        poll_start: 0,
        poll_end: 0,
        min_addr: 1,
        max_addr: 247,
        transparent: 0,
        protocol_set: '',
        country: '',
        province: '',
        city: '',
        county: '',
        district: '',
        address: '',
        lon: null,
        lat: null,
        device_token_hash: null,
        last_seen_at: null,
        ccid: '',
        card_status: 0,
        card_expire_at: null,
        gprs_traffic: 0,
        bad_frames: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /**
   * Gives a datalogger to an administrator. With `from`, only while it is still unbound stock of
   * `from.adminId` (a conditional write); returns false when another call moved it first.
   */
  async setAdmin(id: number, adminId: number, alias?: string, from?: StockState): Promise<boolean> {
    let q = this.db
      .updateTable('dataloggers')
      .set({ admin_id: adminId, ...(alias !== undefined ? { alias } : {}), updated_at: this.now() })
      .where('id', '=', id);
    if (from) q = q.where('owner_id', 'is', null).where('admin_id', from.adminId === null ? 'is' : '=', from.adminId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Binds a datalogger and its devices to an owner's plant. With `from`, only while it is still
   * unbound stock of `from.adminId`; returns false (nothing written) when another call moved it first.
   */
  async bindToOwner(id: number, ownerId: number, projectId: number, alias?: string, from?: StockState): Promise<boolean> {
    let q = this.db
      .updateTable('dataloggers')
      .set({ owner_id: ownerId, project_id: projectId, ...(alias !== undefined ? { alias } : {}), updated_at: this.now() })
      .where('id', '=', id);
    if (from) q = q.where('owner_id', 'is', null).where('admin_id', from.adminId === null ? 'is' : '=', from.adminId);
    const r = await q.executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await this.db.updateTable('devices').set({ project_id: projectId }).where('datalogger_id', '=', id).execute();
    return true;
  }

  /** The owner's default plant (else its oldest one), if it has any. */
  async defaultPlantOf(ownerId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ownerId)
      .orderBy('is_default', 'desc')
      .orderBy('id')
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /**
   * The default plant the vendor's registration creates for a new owner, named after the
   * datalogger's PN and placed where the datalogger is.
   */
  async createDefaultPlant(ownerId: number, dl: StockRow): Promise<number> {
    const now = this.now();
    const row = await this.db
      .insertInto('projects')
      .values({
        owner_id: ownerId,
        name: dl.pn,
        remark: '',
        image: '',
        is_default: 1,
        country: dl.country,
        province: dl.province,
        city: dl.city,
        county: '',
        district: '',
        address: dl.address,
        lon: dl.lon,
        lat: dl.lat,
        tz_offset: dl.tz_offset,
        nominal_power: 0,
        install_at: now,
        installer: '',
        design_company: '',
        energy_year_estimate: 0,
        energy_offset: 0,
        currency: '',
        unit_profit: 0,
        price_buy: 0,
        price_sell: 0,
        price_use: 0,
        coal_factor: 0.4,
        co2_factor: 0.997,
        so2_factor: 0.03,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** The nearest manufacturer (role 1) on an account's path (itself included), by the ids of the path. */
  async manufacturerOnPath(path: string): Promise<{ id: number; vendor_code: string | null } | undefined> {
    const ids = path
      .split('/')
      .filter((s) => s !== '')
      .map(Number)
      .filter(Number.isInteger);
    if (ids.length === 0) return undefined;
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'vendor_code', 'path'])
      .where('id', 'in', ids)
      .where('role', '=', 1)
      .execute();
    rows.sort((a, b) => b.path.length - a.path.length);
    const r = rows[0];
    return r ? { id: Number(r.id), vendor_code: r.vendor_code } : undefined;
  }

  async manufacturerByCode(code: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 1)
      .where('vendor_code', '=', code)
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async order(orderNo: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('datalogger_orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  }

  async orderPns(orderId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('datalogger_order_items')
      .select('pn')
      .where('order_id', '=', orderId)
      .orderBy('pn')
      .execute();
    return rows.map((r) => r.pn);
  }

  /** Marks an unbound order bound to `uid`; false when another allocation bound it first. */
  async markOrderBound(orderId: number, uid: number): Promise<boolean> {
    const r = await this.db
      .updateTable('datalogger_orders')
      .set({ bound_to: uid, bound_at: this.now() })
      .where('id', '=', orderId)
      .where('bound_to', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Creates an order with its PNs (demo seed, tests); returns its id. */
  async insertOrder(o: { orderNo: string; vendorCode: string; distId: number; status?: number; pns: string[] }): Promise<number> {
    const row = await this.db
      .insertInto('datalogger_orders')
      .values({
        order_no: o.orderNo,
        vendor_code: o.vendorCode,
        dist_id: o.distId,
        status: o.status ?? 0,
        bound_to: null,
        bound_at: null,
        created_at: this.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    if (o.pns.length > 0) {
      await this.db
        .insertInto('datalogger_order_items')
        .values(o.pns.map((pn) => ({ order_id: id, pn })))
        .execute();
    }
    return id;
  }
}
