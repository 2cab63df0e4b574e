import {
  statusFromListFilter,
  type Catalogue,
  type DeviceInfoRow,
  type FleetDeviceRow,
  type ParsedParamsOf,
  type WebDeviceRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import { fmtTs, localDay } from '../../shared/local-time.js';
import { priceLike, type Measured, type PlantIncomeSource } from '../../shared/plant-income.js';
import { num4 } from '../../shared/wire-format.js';
import { ZERO_PERIOD } from '../energy/energy.repository.js';
import type { EnergyService } from '../energy/energy.service.js';
import { figureEnergy, figuresWire } from './device-figures.js';
import { definitionOf, OFFLINE, outputPowerW, toSample } from './device-sample.js';
import type { DeviceResolver } from './device-resolver.js';
import { deviceTz, type DeviceKey, type DeviceRow, type DevicesRepository } from './devices.repository.js';

export interface DeviceListServiceDeps {
  access: Pick<AccessService, 'scopeOf'>;
  devices: Pick<DevicesRepository, 'list' | 'latest' | 'followed' | 'fleet'>;
  energy: Pick<EnergyService, 'periodByDevice'>;
  resolver: Pick<DeviceResolver, 'batch'>;
  /** Issue 15: today's income on the tariff path (each plant's average price of today). Absent: × unit_profit. */
  income?: Pick<PlantIncomeSource, 'buckets'>;
  now?: () => number;
}

/** Device lists and searches (webQueryDeviceEs) and batch lookups (queryDeviceInfo / queryDeviceStatus). */
export class DeviceListService {
  constructor(private readonly deps: DeviceListServiceDeps) {}

  /** Today's measured generation income of the plants of these devices (their own local today). */
  private async plantsToday(rows: readonly DeviceRow[]) {
    const out = new Map<number, Measured & { fallback: { currency: string; price: number } }>();
    const { income, now } = this.deps;
    if (!income || !now) return out;
    for (const r of rows) {
      if (r.project_id === null || out.has(r.project_id)) continue;
      const tz = deviceTz(r);
      const today = localDay(now(), tz);
      const m = (await income.buckets(r.project_id, tz, today, today, 'day')).get(today);
      if (m) out.set(r.project_id, m);
    }
    return out;
  }

  async webList(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['webQueryDeviceEs']>,
  ): Promise<{ total: number; page: number; pagesize: number; device: WebDeviceRow[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const status = p.statusFilter !== undefined ? statusFromListFilter(p.statusFilter) : p.status;
    const { total, rows } = await this.deps.devices.list(
      scope,
      {
        pid: p.pid,
        pn: p.pn,
        sn: p.sn,
        devtype: p.devtype,
        devcode: p.devcode,
        status,
        search: p.search?.trim() || undefined,
        followedBy: p.focus === 1 ? caller.accountId : undefined,
      },
      p.page,
      p.pagesize,
    );
    const ids = rows.map((r) => r.id);
    const [latest, energy, follows, byKind] = await Promise.all([
      this.deps.devices.latest(ids),
      this.deps.energy.periodByDevice(rows),
      this.deps.devices.followed(caller.accountId, ids),
      figureEnergy(this.deps.energy, rows),
    ]);
    const todayOf = await this.plantsToday(rows);
    const device = rows.map((r): WebDeviceRow => {
      const def = definitionOf(r.devcode);
      const l = latest.get(r.id);
      const e = energy.get(r.id) ?? ZERO_PERIOD;
      const sample = l ? toSample(def, l.data) : undefined;
      const powerW = sample && r.status !== OFFLINE ? outputPowerW(def, sample) : 0;
      return {
        uid: r.owner_id ?? 0,
        usr: r.owner_usr ?? '',
        pid: r.project_id ?? 0,
        pname: r.pname ?? '',
        sn: r.sn,
        pn: r.pn,
        status: r.status,
        devalias: r.alias,
        brand: def.brand,
        devtype: r.devtype,
        deviceType: r.device_type,
        collalias: r.dl_alias,
        devaddr: r.devaddr,
        devcode: r.devcode,
        model: r.model,
        outpower: num4(powerW / 1000),
        energyToday: num4(e.today),
        energyYear: num4(e.year),
        energyTotal: num4(e.total),
        profitToday: num4(
          r.project_id !== null && todayOf.has(r.project_id)
            ? (priceLike(e.today, todayOf.get(r.project_id), todayOf.get(r.project_id)!.fallback).get(r.currency ?? '') ??
                0)
            : e.today * (r.unit_profit ?? 0),
        ),
        currency: r.currency ?? '',
        focus: follows.has(r.id),
        lts: l ? fmtTs(l.ts, deviceTz(r)) : '',
        figures: figuresWire(def, r.id, sample, r.status !== OFFLINE, byKind),
      };
    });
    return { total, page: p.page, pagesize: p.pagesize, device };
  }

  /**
   * queryFleetDevices (operator): every device of the caller's scope — the operator's is the whole
   * platform — with owner, manufacturer, datalogger and plant.
   */
  async fleetList(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['queryFleetDevices']>,
  ): Promise<{ total: number; page: number; pagesize: number; device: FleetDeviceRow[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const status = p.statusFilter ? statusFromListFilter(p.statusFilter) : undefined;
    const { total, rows } = await this.deps.devices.fleet(
      scope,
      { search: p.search, status, vendorId: p.vendorUid },
      p.page,
      p.pagesize,
    );
    const device = rows.map(
      (r): FleetDeviceRow => ({
        pn: r.pn,
        devcode: r.devcode,
        devaddr: r.devaddr,
        sn: r.sn,
        devalias: r.alias,
        status: r.status,
        model: r.model,
        uid: r.owner_id ?? 0,
        usr: r.owner_usr ?? '',
        vendorUid: r.vendor_id ?? 0,
        vendorUsr: r.vendor_usr ?? '',
        collalias: r.dl_alias,
        pid: r.project_id ?? 0,
        pname: r.pname ?? '',
      }),
    );
    return { total, page: p.page, pagesize: p.pagesize, device };
  }

  /** queryDeviceInfo / queryDeviceStatus: the tuple, or `device=…;…` (≤ 256, fail fast). */
  batch(caller: Caller, p: DeviceKey & { device?: DeviceKey[] | undefined }): Promise<DeviceRow[]> {
    return this.deps.resolver.batch(caller, p);
  }

  static info(r: DeviceRow): DeviceInfoRow {
    return {
      pn: r.pn,
      devcode: r.devcode,
      devaddr: r.devaddr,
      sn: r.sn,
      alias: r.alias,
      timezone: deviceTz(r),
      status: r.status,
      uid: r.owner_id ?? 0,
      pid: r.project_id ?? 0,
      devtype: r.devtype,
      pname: r.pname ?? '',
    };
  }
}
