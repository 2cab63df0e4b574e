import {
  ApiError,
  displayValue,
  ENV_MONITOR_DEVTYPE,
  ENV_MONITOR_FIELDS,
  fieldIndex,
  keyParameterValue,
  localizeSample,
  statusFromListFilter,
  type DesignatedDeviceRow,
  type PlantCurrentKey,
  type PlantDeviceStatusDat,
  type PlantListDat,
  type PlantMapPin,
  type PlantWire,
  type ValTs,
  type Catalogue,
  type ParsedParamsOf,
  type EnergyCounterName,
  type WebPlantRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { addDays, dayOf, dayStartMs, dayTs, daysInMonth, fmtTs, localDay } from '../../shared/local-time.js';
import { priceLike, type PlantIncomeSource } from '../../shared/plant-income.js';
import { num4, optNum } from '../../shared/wire-format.js';
import { definitionOf, OFFLINE, outputPowerW, toSample, type Sample } from '../devices/device-sample.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import { ZERO_PERIOD, type EnergyRepository, type PeriodEnergy } from '../energy/energy.repository.js';
import type { EnergyService } from '../energy/energy.service.js';
import { plantSourceIds, roundKwh } from '../telemetry/rollups.js';
import { plantBalance, type BalanceDevice, type PlantBalance } from './plant-consumption.js';
import type { PlantFilter, PlantRow, PlantsRepository } from './plants.repository.js';

type Params<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;

/** What the plants service uses (constructor injection; tests pass fakes). */
export interface PlantsServiceDeps {
  access: Pick<AccessService, 'scopeOf' | 'requireAccess'>;
  plants: Pick<PlantsRepository, 'list' | 'all' | 'findById' | 'counts' | 'dataloggersOf'>;
  devices: Pick<DevicesRepository, 'ofPlants' | 'latest' | 'samplesOf'>;
  energyRepo: Pick<EnergyRepository, 'series' | 'lifetimeTotals'>;
  energy: Pick<EnergyService, 'periodByDevice' | 'todayByDevice'>;
  now: Clock;
  /** Issue 15: plants' generation income on the tariff path. Absent: energy × the plant's unit_profit. */
  income?: Pick<PlantIncomeSource, 'generation'>;
}

export function plantWire(p: PlantRow): PlantWire {
  const tz = p.tz_offset;
  return {
    pid: p.id,
    uid: p.owner_id,
    usr: p.owner_usr ?? '',
    name: p.name,
    status: p.status,
    energyOffset: num4(p.energy_offset),
    address: {
      country: p.country,
      province: p.province,
      city: p.city,
      county: p.county,
      town: p.district,
      village: p.village ?? '',
      address: p.address,
      lon: optNum(p.lon),
      lat: optNum(p.lat),
      timezone: tz,
    },
    profit: {
      unitProfit: num4(p.unit_profit),
      currency: p.currency,
      coal: num4(p.coal_factor),
      co2: num4(p.co2_factor),
      so2: num4(p.so2_factor),
      soldProfit: num4(p.price_sell),
      purchProfit: num4(p.price_buy),
      consProfit: num4(p.price_use),
      selfProfit: num4(p.price_self ?? 0),
      feedProfit: num4(p.price_feed ?? 0),
      currencyCountry: p.currency_country ?? '',
    },
    nominalPower: num4(p.nominal_power),
    energyYearEstimate: num4(p.energy_year_estimate),
    designCompany: p.design_company,
    installer: p.installer,
    remark: p.remark,
    picBig: p.image,
    picSmall: p.image_small || p.image,
    isDefault: p.is_default === 1,
    install: p.install_at != null ? fmtTs(Number(p.install_at), tz) : '',
    gts: fmtTs(Number(p.created_at), tz),
  };
}

/**
 * A plant's total energy: what its devices measured plus its energy offset (editPlantEnergyOffset;
 * e.g. what it produced before it was monitored). A negative offset corrects an over-count; the
 * total never goes below 0.
 */
export function withOffset(measured: number, offset: number): number {
  return Math.max(0, roundKwh(measured + Number(offset)));
}

/** Live figures of a set of plants: power, energy today/month/year/total, last data time. */
export interface PlantLive {
  powerW: number;
  energy: PeriodEnergy;
  lts: number | null;
  socs: number[];
  temps: number[];
  /** Issue 10: irradiance (W/m²) and ambient temperature (°C) of the plant's environment monitors. */
  radiant: number[];
  ambient: number[];
  /** Consumption and grid exchange (plant-consumption.ts); computed with `balance: true`. */
  balance?: PlantBalance;
}

/** Kinds of today's energy the consumption balance reads. */
const BALANCE_KINDS = ['used', 'bought', 'sold', 'charged', 'discharged'] as const;

/** The consumption fields of plant rows ("--" when the plant's devices cannot tell). */
export function balanceWire(
  b: PlantBalance | undefined,
): Pick<WebPlantRow, 'loadPower' | 'gridPower' | 'batteryPower' | 'energyUsed'> {
  const kw = (w: number | undefined) => (w === undefined ? '--' : num4(w / 1000));
  return {
    loadPower: kw(b?.loadW),
    gridPower: kw(b?.gridW),
    batteryPower: kw(b?.batteryW),
    energyUsed: b?.usedToday === undefined ? '--' : num4(b.usedToday),
  };
}

export class PlantsService {
  private readonly repo: PlantsServiceDeps['plants'];

  constructor(private readonly deps: PlantsServiceDeps) {
    this.repo = deps.plants;
  }

  /** The visible plant, else err 260 (another tenant's plant answers exactly as a missing one). */
  async require(caller: Caller, plantid: number, scope?: TelemetryScope): Promise<PlantRow> {
    await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [plantid], scope });
    const row = await this.repo.findById(plantid);
    if (!row) throw new ApiError(260);
    return row;
  }

  /** Current power and energies of plants from their devices' latest values and day rollups. */
  async live(
    plantIds: readonly number[],
    opts: { energy: 'full' | 'today'; balance?: boolean } = { energy: 'full', balance: true },
  ) {
    const devices = await this.deps.devices.ofPlants(plantIds);
    const latest = await this.deps.devices.latest(devices.map((d) => d.id));
    const energy =
      opts.energy === 'full'
        ? await this.deps.energy.periodByDevice(devices)
        : await this.deps.energy.todayByDevice(devices);
    const todayByKind = new Map<string, Map<number, PeriodEnergy>>();
    if (opts.balance) {
      for (const kind of BALANCE_KINDS) {
        const need = devices.filter((d) => definitionOf(d.devcode).energy[kind] !== undefined);
        if (need.length > 0) todayByKind.set(kind, await this.deps.energy.todayByDevice(need, kind));
      }
    }
    const out = new Map<number, PlantLive>(
      plantIds.map((id) => [
        id,
        { powerW: 0, energy: { ...ZERO_PERIOD }, lts: null, socs: [], temps: [], radiant: [], ambient: [] },
      ]),
    );
    const samples = new Map<number, Sample>();
    const sources = plantSourceIds('generated', devices);
    for (const d of devices) {
      const live = out.get(d.project_id!)!;
      const l = latest.get(d.id);
      const e = sources.has(d.id) ? energy.get(d.id) : undefined;
      if (e) {
        live.energy.today += e.today;
        live.energy.month += e.month;
        live.energy.year += e.year;
        live.energy.total += e.total;
      }
      if (!l) continue;
      live.lts = Math.max(live.lts ?? 0, l.ts);
      const def = definitionOf(d.devcode);
      const s = toSample(def, l.data);
      samples.set(d.id, s);
      if (d.status !== OFFLINE) live.powerW += outputPowerW(def, s);
      if (d.devtype === ENV_MONITOR_DEVTYPE) {
        // The weather station: the plant's irradiance and air temperature, not a device temperature.
        if (d.status === OFFLINE) continue;
        const irr = s.values[ENV_MONITOR_FIELDS.irradiance];
        const amb = s.values[ENV_MONITOR_FIELDS.ambientTemp];
        if (irr !== undefined) live.radiant.push(irr);
        if (amb !== undefined) live.ambient.push(amb);
        continue;
      }
      const soc = keyParameterValue(def, s, 'BATTERY_SOC');
      if (soc !== undefined) live.socs.push(soc);
      const temp = def.fields.find((f) => /temp/i.test(f.id) && s.values[f.id] !== undefined);
      if (temp) live.temps.push(s.values[temp.id]!);
    }
    if (opts.balance) {
      for (const id of plantIds) {
        const own = devices.filter((d) => d.project_id === id);
        out.get(id)!.balance = plantBalance(
          own.map((d): BalanceDevice => {
            const today: BalanceDevice['today'] = { generated: energy.get(d.id)?.today ?? 0 };
            for (const [kind, m] of todayByKind) today[kind as EnergyCounterName] = m.get(d.id)?.today ?? 0;
            return {
              devtype: d.devtype,
              def: definitionOf(d.devcode),
              values: samples.get(d.id)?.values,
              online: d.status !== OFFLINE,
              today,
            };
          }),
        );
      }
    }
    return { devices, latest, samples, live: out };
  }

  async queryPlants(caller: Caller, p: Params<'queryPlants'>): Promise<PlantListDat> {
    const scope = await this.deps.access.scopeOf(caller);
    const { total, rows } = await this.repo.list(
      scope,
      { status: p.status, plantName: p.plantName?.trim() || undefined },
      p.orderBy,
      p.page,
      p.pagesize,
    );
    return { total, page: p.page, pagesize: p.pagesize, plant: rows.map(plantWire) };
  }

  async plantsInfo(caller: Caller) {
    const rows = await this.repo.all(await this.deps.access.scopeOf(caller), {}, 100_000);
    return {
      info: rows.map((r) => ({ uid: r.owner_id, usr: r.owner_usr ?? '', pid: r.id, pname: r.name, status: r.status })),
    };
  }

  async webQueryPlants(
    caller: Caller,
    p: Params<'webQueryPlants'>,
  ): Promise<{ total: number; page: number; pagesize: number; plant: WebPlantRow[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const filter: PlantFilter = {
      status: p.statusFilter !== undefined ? statusFromListFilter(p.statusFilter) : p.status,
      plantName: p.plantName?.trim() || undefined,
      ownerId: p.uid,
    };
    const { total, rows } = await this.repo.list(scope, filter, p.orderBy, p.page, p.pagesize);
    const ids = rows.map((r) => r.id);
    const [{ live }, counts] = await Promise.all([this.live(ids), this.repo.counts(ids)]);
    const money = await this.income(rows, live);
    const plant = rows.map((r): WebPlantRow => {
      const l = live.get(r.id)!;
      const w = plantWire(r);
      const total = withOffset(l.energy.total, r.energy_offset);
      const m = money.get(r.id);
      return {
        pid: r.id,
        uid: r.owner_id,
        usr: r.owner_usr ?? '',
        name: r.name,
        status: r.status,
        outputPower: num4(l.powerW / 1000),
        energy: num4(l.energy.today),
        energyMonth: num4(l.energy.month),
        energyYear: num4(l.energy.year),
        energyTotal: num4(total),
        profitToday: num4(m ? m.today : l.energy.today * r.unit_profit),
        profitTotal: num4(m ? m.total : total * r.unit_profit),
        powerEfficiency: num4(r.nominal_power > 0 ? (l.powerW / 1000 / r.nominal_power) * 100 : 0),
        nominalPower: w.nominalPower,
        lts: l.lts != null ? fmtTs(l.lts, r.tz_offset) : '',
        install: w.install,
        gts: w.gts,
        address: w.address,
        profit: w.profit,
        collectors: counts.get(r.id)?.collectors ?? 0,
        devices: counts.get(r.id)?.devices ?? 0,
        ...balanceWire(l.balance),
      };
    });
    return { total, page: p.page, pagesize: p.pagesize, plant };
  }

  /**
   * Today's and total generation income of plants in each plant's current currency, on the tariff
   * path (docs/money/tariffs.md, "One income on every screen"); empty without the tariffs module.
   */
  private async income(
    rows: readonly PlantRow[],
    live: ReadonlyMap<number, { energy: { today: number; total: number } }>,
  ): Promise<Map<number, { today: number; total: number }>> {
    const out = new Map<number, { today: number; total: number }>();
    if (!this.deps.income || rows.length === 0) return out;
    const gens = await this.deps.income.generation(
      rows.map((r) => ({
        id: r.id,
        tz: r.tz_offset,
        lifetime: withOffset(live.get(r.id)!.energy.total, r.energy_offset),
      })),
    );
    for (const r of rows) {
      const g = gens.get(r.id);
      if (!g) continue;
      const today = priceLike(live.get(r.id)!.energy.today, g.today, g.now);
      out.set(r.id, { today: today.get(r.currency) ?? 0, total: g.total.get(r.currency) ?? 0 });
    }
    return out;
  }

  async info(caller: Caller, plantid: number): Promise<PlantWire> {
    return plantWire(await this.require(caller, plantid));
  }

  async deviceStatus(caller: Caller, plantid: number): Promise<PlantDeviceStatusDat> {
    const plant = await this.require(caller, plantid);
    const dls = await this.repo.dataloggersOf(plant.id);
    const devices = await this.deps.devices.ofPlants([plant.id]);
    return {
      status: plant.status,
      collector: dls.map((dl) => ({
        pn: dl.pn,
        alias: dl.alias,
        status: dl.status,
        device: devices
          .filter((d) => d.datalogger_id === dl.id)
          .map((d) => ({
            devcode: d.devcode,
            devaddr: d.devaddr,
            sn: d.sn,
            alias: d.alias,
            status: d.status,
            devtype: d.devtype,
            comStatus: d.status === OFFLINE ? (0 as const) : (1 as const),
          })),
      })),
    };
  }

  async currentData(
    caller: Caller,
    plantid: number,
    keys: PlantCurrentKey[],
  ): Promise<Array<{ key: PlantCurrentKey; val: string }>> {
    const plant = await this.require(caller, plantid);
    const { live } = await this.live([plant.id]);
    const l = live.get(plant.id)!;
    const total = withOffset(l.energy.total, plant.energy_offset);
    const money = keys.includes('ENERGY_PROCEEDS') ? (await this.income([plant], live)).get(plant.id) : undefined;
    const avg = (xs: number[]) => (xs.length ? num4(xs.reduce((a, b) => a + b, 0) / xs.length) : '--');
    const value = (k: PlantCurrentKey): string => {
      switch (k) {
        case 'ENERGY_TODAY':
          return num4(l.energy.today);
        case 'ENERGY_MONTH':
          return num4(l.energy.month);
        case 'ENERGY_YEAR':
          return num4(l.energy.year);
        case 'ENERGY_TOTAL':
          return num4(total);
        case 'ENERGY_PROCEEDS':
          return num4(money ? money.total : total * plant.unit_profit);
        case 'ENERGY_CO2':
          return num4(total * plant.co2_factor);
        case 'ENERGY_COAL':
          return num4(total * plant.coal_factor);
        case 'ENERGY_SO2':
          return num4(total * plant.so2_factor);
        case 'CURRENT_POWER':
          return num4(l.powerW / 1000);
        case 'CURRENT_TEMP':
          // The ambient temperature of the plant's environment monitor; without one, its devices'.
          return l.ambient.length ? avg(l.ambient) : avg(l.temps);
        case 'CURRENT_RADIANT':
          return avg(l.radiant);
        case 'BATTERY_SOC':
          return avg(l.socs);
      }
    };
    return keys.map((key) => ({ key, val: value(key) }));
  }

  async designated(caller: Caller, p: Params<'queryPlantDeviceDesignatedInformation'>, locale?: string) {
    const plant = await this.require(caller, p.plantid);
    const { devices, latest, samples } = await this.live([plant.id], { energy: 'today' });
    const energy = await this.deps.energy.periodByDevice(devices);
    const device = devices
      .filter((d) => p.devtype === undefined || d.devtype === p.devtype)
      .map((d): DesignatedDeviceRow => {
        const def = definitionOf(d.devcode);
        const live = samples.get(d.id);
        // Enum fields show their label, in the call's language.
        const s = live && localizeSample(def, live, locale);
        const e = energy.get(d.id) ?? ZERO_PERIOD;
        const row: DesignatedDeviceRow = {
          devcode: d.devcode,
          sn: d.sn,
          devaddr: d.devaddr,
          status: d.status,
          cpn: d.pn,
          alias: d.alias,
          lts: latest.has(d.id) ? fmtTs(latest.get(d.id)!.ts, plant.tz_offset) : '',
        };
        for (const key of p.parameter) {
          if (key in row) continue;
          const f = fieldIndex(def).get(key);
          if (f) row[key] = s ? displayValue(f, s) : '--';
          else if (key === 'ENERGY_TODAY') row[key] = num4(e.today);
          else if (key === 'ENERGY_MONTH') row[key] = num4(e.month);
          else if (key === 'ENERGY_YEAR') row[key] = num4(e.year);
          else if (key === 'ENERGY_TOTAL') row[key] = num4(e.total);
          else if (key === 'CURRENT_POWER' || key === 'OUTPUT_POWER')
            row[key] = s && d.status !== OFFLINE ? num4(outputPowerW(def, s) / 1000) : '0.0000';
          else row[key] = '--';
        }
        return row;
      });
    return { device };
  }

  async outputPowerOneDay(caller: Caller, plantid: number, date: string): Promise<{ outputPower: ValTs[] }> {
    const plant = await this.require(caller, plantid);
    const tz = plant.tz_offset;
    const day = dayOf(date);
    const devices = await this.deps.devices.ofPlants([plant.id]);
    const samples = await this.deps.devices.samplesOf(
      devices.map((d) => d.id),
      dayStartMs(day, tz),
      dayStartMs(addDays(day, 1), tz),
    );
    if (samples.length === 0) throw new ApiError(12);
    const byId = new Map(devices.map((d) => [d.id, d]));
    // 5-minute buckets; the last value of each device in a bucket, summed over devices.
    const buckets = new Map<number, Map<number, number>>();
    for (const s of samples) {
      const d = byId.get(s.device_id)!;
      const def = s.def ?? definitionOf(d.devcode);
      const b = Math.floor(s.ts / 300_000) * 300_000;
      let m = buckets.get(b);
      if (!m) buckets.set(b, (m = new Map()));
      m.set(d.id, outputPowerW(def, toSample(def, s.data)));
    }
    const outputPower = [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, m]) => ({ val: num4([...m.values()].reduce((x, y) => x + y, 0) / 1000), ts: fmtTs(b, tz) }));
    return { outputPower };
  }

  async monthPerDay(caller: Caller, plantid: number, month: string): Promise<{ perday: ValTs[] }> {
    const plant = await this.require(caller, plantid);
    const [y, m] = month.split('-').map(Number) as [number, number];
    if (m < 1 || m > 12) throw new ApiError(6, 'date');
    const from = y * 10000 + m * 100 + 1;
    const n = daysInMonth(y, m);
    const series = await this.deps.energyRepo.series(
      'generated',
      { projectIds: [plant.id] },
      from,
      from + n - 1,
      'day',
    );
    return {
      perday: Array.from({ length: n }, (_, i) => ({ val: num4(series.get(from + i) ?? 0), ts: dayTs(from + i) })),
    };
  }

  async yearPerMonth(caller: Caller, plantid: number, year: string): Promise<{ permonth: ValTs[] }> {
    const plant = await this.require(caller, plantid);
    const y = Number(year);
    const series = await this.deps.energyRepo.series(
      'generated',
      { projectIds: [plant.id] },
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

  async totalPerYear(caller: Caller, plantid: number): Promise<{ peryear: ValTs[] }> {
    const plant = await this.require(caller, plantid);
    const today = localDay(this.deps.now(), plant.tz_offset);
    const series = await this.deps.energyRepo.series('generated', { projectIds: [plant.id] }, 0, today, 'year');
    const y1 = Math.floor(today / 10000);
    const firstData = series.size ? Math.min(...series.keys()) : y1;
    const installYear =
      plant.install_at != null ? Math.floor(localDay(Number(plant.install_at), plant.tz_offset) / 10000) : y1;
    const y0 = Math.min(firstData, installYear, y1);
    return {
      peryear: Array.from({ length: y1 - y0 + 1 }, (_, i) => ({
        val: num4(series.get(y0 + i) ?? 0),
        ts: dayTs((y0 + i) * 10000 + 101),
      })),
    };
  }

  async energyOf(
    caller: Caller,
    plantid: number,
    period: 'day' | 'month' | 'year' | 'total',
    date?: string,
  ): Promise<{ energy: string }> {
    const plant = await this.require(caller, plantid);
    const today = localDay(this.deps.now(), plant.tz_offset);
    if (period === 'total') {
      // Lifetime: the plant's source devices' counters (rollups.ts) plus its energy offset.
      const totals = await this.deps.energyRepo.lifetimeTotals('generated', { projectIds: [plant.id] });
      let t = 0;
      for (const v of totals.values()) t = roundKwh(t + v);
      return { energy: num4(withOffset(t, plant.energy_offset)) };
    }
    let from: number;
    let to: number;
    if (period === 'day') {
      from = to = date ? dayOf(date) : today;
    } else if (period === 'month') {
      const [y, m] = date
        ? (date.split('-').map(Number) as [number, number])
        : [Math.floor(today / 10000), Math.floor(today / 100) % 100];
      if (m < 1 || m > 12) throw new ApiError(6, 'date');
      from = y * 10000 + m * 100 + 1;
      to = y * 10000 + m * 100 + daysInMonth(y, m);
    } else {
      const y = date ? Number(date) : Math.floor(today / 10000);
      from = y * 10000 + 101;
      to = y * 10000 + 1231;
    }
    const series = await this.deps.energyRepo.series('generated', { projectIds: [plant.id] }, from, to, 'none');
    return { energy: num4(series.get(0) ?? 0) };
  }

  async powerNow(caller: Caller, plantid: number): Promise<{ outputPower: string }> {
    const plant = await this.require(caller, plantid);
    const { live } = await this.live([plant.id], { energy: 'today' });
    return { outputPower: num4(live.get(plant.id)!.powerW / 1000) };
  }

  async map(caller: Caller, p: Params<'webQueryPlantsMap'>): Promise<{ total: number; plant: PlantMapPin[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const rows = await this.repo.all(scope, {
      status: p.status,
      plantName: p.plantName?.trim() || undefined,
      located: true,
    });
    const { live } = await this.live(
      rows.map((r) => r.id),
      { energy: 'today' },
    );
    return {
      total: rows.length,
      plant: rows.map((r) => {
        const l = live.get(r.id)!;
        return {
          pid: r.id,
          name: r.name,
          status: r.status,
          lon: optNum(r.lon),
          lat: optNum(r.lat),
          outputPower: num4(l.powerW / 1000),
          nominalPower: num4(r.nominal_power),
          energy: num4(l.energy.today),
          country: r.country,
          city: r.city,
          address: r.address,
        };
      }),
    };
  }
}
