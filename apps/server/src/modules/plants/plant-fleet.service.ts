import {
  ApiError,
  ENV_MONITOR_DEVTYPE,
  ENV_MONITOR_FIELDS,
  ROLE,
  keyParameterValue,
  type Catalogue,
  type ParsedParamsOf,
  type PlantDeviceViewDat,
  type PlantEnvMonitorRow,
  type PlantProfitDayRow,
  type ValTs,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import { dayOf, dayTs, daysInMonth, fmtTs, localDay } from '../../shared/local-time.js';
import { num4 } from '../../shared/wire-format.js';
import { definitionOf, OFFLINE, outputPowerW, toSample } from '../devices/device-sample.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { EnergyRepository } from '../energy/energy.repository.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PlantAdminRepository } from './plant-admin.repository.js';
import type { PlantRow, PlantsRepository } from './plants.repository.js';
import type { PlantsService } from './plants.service.js';

type Params<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;

export interface PlantFleetDeps {
  access: Pick<AccessService, 'scopeOf'>;
  plantsRepo: Pick<PlantsRepository, 'list' | 'all' | 'statusCounts'>;
  plants: Pick<PlantsService, 'require' | 'live'>;
  adminRepo: Pick<PlantAdminRepository, 'dataloggersOf' | 'openAlarms'>;
  devices: Pick<DevicesRepository, 'ofPlants' | 'latest'>;
  energyRepo: Pick<EnergyRepository, 'series'>;
  energy: Pick<EnergyService, 'todayByDevice'>;
  now: () => number;
  /**
   * Issue 15: a plant's income of one local day per currency, with the tariffs in force then
   * (`genIncome` = generation × unitProfit). Absent: energy × the plant's unitProfit.
   */
  dayIncome?: (projectId: number, tz: number, day: number) => Promise<Map<string, { genIncome: number }>>;
}

/** Most plants a fleet-wide query adds up (the map's limit). */
const FLEET_LIMIT = 100_000;

/**
 * Fleet energy queries (vendor chapter 3, "all plants") and the plant page's tree and
 * environment monitor. Every plant is counted in its own time zone: rollup days are the local
 * days of each plant, so adding plants' day, month or year buckets adds each plant's own.
 */
export class PlantFleetService {
  constructor(private readonly deps: PlantFleetDeps) {}

  private async plantsOf(caller: Caller): Promise<PlantRow[]> {
    return this.deps.plantsRepo.all(await this.deps.access.scopeOf(caller), {}, FLEET_LIMIT);
  }

  /** Vendor: "Refusal (Plant owner)" (0x0008) — the count is the administrators' figure. */
  async count(caller: Caller, status: number | undefined): Promise<{ count: number }> {
    if (caller.role === ROLE.OWNER || caller.role === ROLE.VIEWER) throw new ApiError(8);
    const counts = await this.deps.plantsRepo.statusCounts(await this.deps.access.scopeOf(caller));
    const count = counts.filter((c) => status === undefined || c.status === status).reduce((a, c) => a + c.n, 0);
    return { count };
  }

  async profitOneDay(
    caller: Caller,
    p: Params<'queryPlantsProfitOneDay'>,
  ): Promise<{ total: number; page: number; pagesize: number; plant: PlantProfitDayRow[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const { total, rows } = await this.deps.plantsRepo.list(scope, {}, 'ascPlantName', p.page, p.pagesize);
    if (total === 0) throw new ApiError(260);
    const asked = p.date ? dayOf(p.date) : undefined;
    const now = this.deps.now();
    const plant: PlantProfitDayRow[] = [];
    for (const r of rows) {
      const day = asked ?? localDay(now, r.tz_offset);
      const series = await this.deps.energyRepo.series('generated', { projectIds: [r.id] }, day, day, 'none');
      const energy = series.get(0) ?? 0;
      let profit = energy * r.unit_profit;
      let currency = r.currency;
      if (this.deps.dayIncome) {
        // The tariffs in force that day; a day that changed currency answers the larger income's.
        const inc = [...(await this.deps.dayIncome(r.id, r.tz_offset, day)).entries()].sort((a, b) => b[1].genIncome - a[1].genIncome);
        profit = inc[0]?.[1].genIncome ?? 0;
        currency = inc[0]?.[0] ?? r.currency;
      }
      plant.push({
        pid: r.id,
        energy: num4(energy),
        profit: num4(profit),
        currency,
        coal: num4(energy * r.coal_factor),
        co2: num4(energy * r.co2_factor),
        so2: num4(energy * r.so2_factor),
      });
    }
    return { total, page: p.page, pagesize: p.pagesize, plant };
  }

  async energyYear(caller: Caller, date: string | undefined): Promise<{ energy: string }> {
    const plants = await this.plantsOf(caller);
    if (plants.length === 0) throw new ApiError(12);
    // Plants grouped by the year asked (default: each plant's own current year).
    const byYear = new Map<number, number[]>();
    const now = this.deps.now();
    for (const r of plants) {
      const y = date ? Number(date) : Math.floor(localDay(now, r.tz_offset) / 10000);
      const ids = byYear.get(y) ?? [];
      ids.push(r.id);
      byYear.set(y, ids);
    }
    let energy = 0;
    for (const [y, projectIds] of byYear) {
      const s = await this.deps.energyRepo.series('generated', { projectIds }, y * 10000 + 101, y * 10000 + 1231, 'none');
      energy += s.get(0) ?? 0;
    }
    return { energy: num4(energy) };
  }

  async monthPerDay(caller: Caller, month: string): Promise<{ perday: ValTs[] }> {
    const [y, m] = month.split('-').map(Number) as [number, number];
    if (m < 1 || m > 12) throw new ApiError(6, 'date');
    const from = y * 10000 + m * 100 + 1;
    const n = daysInMonth(y, m);
    const plants = await this.plantsOf(caller);
    const series =
      plants.length === 0
        ? new Map<number, number>()
        : await this.deps.energyRepo.series('generated', { projectIds: plants.map((r) => r.id) }, from, from + n - 1, 'day');
    return {
      perday: Array.from({ length: n }, (_, i) => ({ val: num4(series.get(from + i) ?? 0), ts: dayTs(from + i) })),
    };
  }

  async yearPerMonth(caller: Caller, year: string): Promise<{ permonth: ValTs[] }> {
    const y = Number(year);
    const plants = await this.plantsOf(caller);
    const series =
      plants.length === 0
        ? new Map<number, number>()
        : await this.deps.energyRepo.series(
            'generated',
            { projectIds: plants.map((r) => r.id) },
            y * 10000 + 101,
            y * 10000 + 1231,
            'month',
          );
    return {
      permonth: Array.from({ length: 12 }, (_, i) => ({
        val: num4(series.get(y * 100 + i + 1) ?? 0),
        ts: dayTs((y * 100 + i + 1) * 100 + 1),
      })),
    };
  }

  /** The environment monitors (devtype 768) of a plant with their latest figures; none → 265. */
  async envMonitor(caller: Caller, plantid: number): Promise<{ device: PlantEnvMonitorRow[] }> {
    const plant = await this.deps.plants.require(caller, plantid);
    const monitors = (await this.deps.devices.ofPlants([plant.id])).filter((d) => d.devtype === ENV_MONITOR_DEVTYPE);
    if (monitors.length === 0) throw new ApiError(265);
    const latest = await this.deps.devices.latest(monitors.map((d) => d.id));
    const device = monitors.map((d): PlantEnvMonitorRow => {
      const l = latest.get(d.id);
      const def = definitionOf(d.devcode);
      const values = l ? toSample(def, l.data).values : {};
      const v = (id: string, decimals: number) => {
        const x = values[id];
        return x === undefined ? '--' : x.toFixed(decimals);
      };
      return {
        pn: d.pn,
        devcode: d.devcode,
        devaddr: d.devaddr,
        sn: d.sn,
        alias: d.alias,
        status: d.status,
        devtype: d.devtype,
        lts: l ? fmtTs(l.ts, plant.tz_offset) : '',
        irradiance: v(ENV_MONITOR_FIELDS.irradiance, 0),
        moduleTemp: v(ENV_MONITOR_FIELDS.moduleTemp, 1),
        ambientTemp: v(ENV_MONITOR_FIELDS.ambientTemp, 1),
        windSpeed: v(ENV_MONITOR_FIELDS.windSpeed, 1),
        irradiationToday: v(ENV_MONITOR_FIELDS.irradiationToday, 2),
      };
    });
    return { device };
  }

  /** The plant tree: dataloggers with their devices and key live figures. */
  async deviceView(caller: Caller, plantid: number): Promise<PlantDeviceViewDat> {
    const plant = await this.deps.plants.require(caller, plantid);
    const [dls, { devices, latest, samples, live }, alarms] = await Promise.all([
      this.deps.adminRepo.dataloggersOf(plant.id),
      this.deps.plants.live([plant.id], { energy: 'today' }),
      this.deps.adminRepo.openAlarms(plant.id),
    ]);
    const today = await this.deps.energy.todayByDevice(devices);
    const tz = plant.tz_offset;
    return {
      pid: plant.id,
      name: plant.name,
      status: plant.status,
      outputPower: num4((live.get(plant.id)?.powerW ?? 0) / 1000),
      alarms,
      collector: dls.map((dl) => ({
        pn: dl.pn,
        alias: dl.alias,
        status: dl.status,
        signal: dl.signal,
        firmware: dl.firmware,
        lts: dl.last_seen_at != null ? fmtTs(Number(dl.last_seen_at), tz) : '',
        device: devices
          .filter((d) => d.datalogger_id === dl.id)
          .map((d) => {
            const def = definitionOf(d.devcode);
            const s = samples.get(d.id);
            const soc = s ? keyParameterValue(def, s, 'BATTERY_SOC') : undefined;
            const l = latest.get(d.id);
            return {
              devcode: d.devcode,
              devaddr: d.devaddr,
              sn: d.sn,
              alias: d.alias,
              status: d.status,
              devtype: d.devtype,
              lts: l ? fmtTs(l.ts, tz) : '',
              outputPower: num4(s && d.status !== OFFLINE ? outputPowerW(def, s) / 1000 : 0),
              energyToday: num4(today.get(d.id)?.today ?? 0),
              soc: soc === undefined ? '--' : num4(soc),
            };
          }),
      })),
    };
  }
}
