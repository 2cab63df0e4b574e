import {
  ApiError,
  ENERGY_COUNTERS,
  POWER_NODES,
  energyCounters,
  powerOf,
  type Catalogue,
  type DeviceEnergyChartDat,
  type DeviceStatisticDat,
  type EnergyCounterName,
  type ParsedParamsOf,
  type PeriodFigures,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { addDays, dayOf, dayStartMs, dayTs, daysInMonth, fmtTs, localDay } from '../../shared/local-time.js';
import { priceLike, type PlantIncomeSource } from '../../shared/plant-income.js';
import { num4 } from '../../shared/wire-format.js';
import { ZERO_PERIOD, type EnergyRepository, type PeriodEnergy } from '../energy/energy.repository.js';
import type { EnergyService } from '../energy/energy.service.js';
import { figureEnergy, figuresWire } from './device-figures.js';
import { definitionOf, OFFLINE, toSample } from './device-sample.js';
import type { DeviceResolver } from './device-resolver.js';
import { deviceTz, type DeviceKey, type DevicesRepository } from './devices.repository.js';

export interface DeviceStatisticsServiceDeps {
  resolver: Pick<DeviceResolver, 'resolve'>;
  devices: Pick<DevicesRepository, 'samples' | 'latest'>;
  energy: Pick<EnergyService, 'periodByDevice'>;
  energyRepo: Pick<EnergyRepository, 'series' | 'firstDay'>;
  now: Clock;
  /**
   * Issue 15: income on the tariff path — the device's kWh at its plant's average price of the same
   * period (docs/money/tariffs.md, "One income on every screen"). Absent: × the plant's unit_profit.
   */
  income?: PlantIncomeSource;
}

/** Energy statistics and energy charts of one device (rollups; hourly bars from samples). */
export class DeviceStatisticsService {
  constructor(private readonly deps: DeviceStatisticsServiceDeps) {}

  async statistic(caller: Caller, key: DeviceKey): Promise<DeviceStatisticDat> {
    const row = await this.deps.resolver.resolve(caller, key);
    const def = definitionOf(row.devcode);
    const kinds = ENERGY_COUNTERS.filter((k) => def.energy[k] !== undefined);
    const energy = {} as Record<EnergyCounterName, PeriodFigures>;
    const fig = (e: PeriodEnergy, f = 1): PeriodFigures => ({
      today: num4(e.today * f),
      month: num4(e.month * f),
      year: num4(e.year * f),
      total: num4(e.total * f),
    });
    const byKind = new Map<EnergyCounterName, PeriodEnergy>();
    for (const k of kinds) byKind.set(k, (await this.deps.energy.periodByDevice([row], k)).get(row.id) ?? ZERO_PERIOD);
    for (const k of ENERGY_COUNTERS) energy[k] = fig(byKind.get(k) ?? ZERO_PERIOD);
    const latest = (await this.deps.devices.latest([row.id])).get(row.id);
    const tz = deviceTz(row);
    const today = localDay(this.deps.now(), tz);
    // Since the platform first saw the device: the sum of its day energies (the first day counts
    // from its first sample), where the lifetime total is its own counter (energy from before included).
    const sincePlatform = {} as Record<EnergyCounterName, string>;
    for (const k of ENERGY_COUNTERS) {
      sincePlatform[k] = byKind.has(k)
        ? num4((await this.deps.energyRepo.series(k, { deviceIds: [row.id] }, 0, today, 'none')).get(0) ?? 0)
        : num4(0);
    }
    const first = await this.deps.energyRepo.firstDay(row.id);
    const figures = figuresWire(
      def,
      row.id,
      latest ? toSample(def, latest.data) : undefined,
      row.status !== OFFLINE,
      await figureEnergy(this.deps.energy, [row]),
    );
    const gen = byKind.get('generated') ?? ZERO_PERIOD;
    return {
      currency: row.currency ?? '',
      kinds,
      energy,
      income:
        this.deps.income && row.project_id !== null
          ? await this.income(row.project_id, tz, today, row.currency ?? '', gen, Number(sincePlatform.generated))
          : fig(gen, row.unit_profit ?? 0),
      lts: latest ? fmtTs(latest.ts, tz) : '',
      figures,
      sincePlatform,
      firstDay: first ? dayTs(first).slice(0, 10) : '',
    };
  }

  /**
   * A device's income today / this month / this year / in total: each period's kWh at its plant's
   * average price of the kWh measured in that period; the total adds the kWh the platform did not
   * measure (device counter − the device's day energies) at the plant's first tariff (opening balance).
   */
  private async income(
    projectId: number,
    tz: number,
    today: number,
    currency: string,
    e: PeriodEnergy,
    measured: number,
  ): Promise<PeriodFigures> {
    const income = this.deps.income!;
    const yearStart = Math.floor(today / 10000) * 10000 + 101;
    const monthStart = Math.floor(today / 100) * 100 + 1;
    const days = await income.buckets(projectId, tz, yearStart, today, 'day');
    const sum = (from: number) => {
      const m = { kwh: 0, income: new Map<string, number>() };
      for (const [d, b] of days) {
        if (d < from) continue;
        m.kwh += b.kwh;
        for (const [c, v] of b.income) m.income.set(c, (m.income.get(c) ?? 0) + v);
      }
      return m;
    };
    const now = days.get(today)?.fallback;
    const at = (kwh: number, m: ReturnType<typeof sum> | undefined) => priceLike(kwh, m, now).get(currency) ?? 0;
    const all = (await income.buckets(projectId, tz, 19700101, today, 'none')).get(0);
    const opening = all && all.fallback.currency === currency ? (e.total - measured) * all.fallback.price : 0;
    return {
      today: num4(at(e.today, days.get(today))),
      month: num4(at(e.month, sum(monthStart))),
      year: num4(at(e.year, sum(yearStart))),
      total: num4((priceLike(measured, all, all?.fallback).get(currency) ?? 0) + opening),
    };
  }

  async energyChart(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['webQueryDeviceEnergyChart']>,
  ): Promise<DeviceEnergyChartDat> {
    const row = await this.deps.resolver.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const tz = deviceTz(row);
    const kinds = ENERGY_COUNTERS.filter((k) => def.energy[k] !== undefined);
    const today = localDay(this.deps.now(), tz);
    const unitProfit = row.unit_profit ?? 0;
    const date = p.date?.trim() ?? '';
    let ts: string[] = [];
    const series: DeviceEnergyChartDat['series'] = [];
    let power: DeviceEnergyChartDat['power'];
    if (p.view === 'day') {
      const day = date ? dayOf(date) : today;
      const from = dayStartMs(day, tz);
      const samples = await this.deps.devices.samples(row.id, from - 3600_000, dayStartMs(addDays(day, 1), tz));
      ts = Array.from({ length: 24 }, (_, h) => `${dayTs(day).slice(0, 10)} ${String(h).padStart(2, '0')}:00:00`);
      // Energy per hour: growth of each cumulative counter within the hour (from the last value before it).
      const perKind = new Map<EnergyCounterName, number[]>(kinds.map((k) => [k, new Array<number>(24).fill(0)]));
      const last = new Map<EnergyCounterName, number>();
      for (const s of samples) {
        const c = energyCounters(s.def ?? def, toSample(s.def ?? def, s.data));
        const h = Math.floor((s.ts - from) / 3600_000);
        for (const k of kinds) {
          const v = c[k];
          if (v === undefined) continue;
          const prev = last.get(k);
          if (prev !== undefined && h >= 0 && h < 24 && v >= prev) perKind.get(k)![h]! += v - prev;
          last.set(k, v);
        }
      }
      for (const k of kinds) series.push({ kind: k, val: perKind.get(k)!.map((v) => num4(v)) });
      // The power curve: every sample of the day as measured (kW), per power node of the device.
      const dayEnd = dayStartMs(addDays(day, 1), tz);
      power = POWER_NODES.filter((n) => def.power[n] !== undefined).map((node) => ({
        node,
        points: samples
          .filter((s) => s.ts >= from && s.ts < dayEnd)
          .flatMap((s) => {
            const w = powerOf(s.def ?? def, toSample(s.def ?? def, s.data), node);
            return w === undefined ? [] : [{ val: num4(w / 1000), ts: fmtTs(s.ts, tz) }];
          }),
      }));
    } else {
      let fromDay: number;
      let toDay: number;
      let buckets: number[];
      let bucket: 'day' | 'month' | 'year';
      if (p.view === 'month') {
        const m = /^(\d{4})-(\d{1,2})/.exec(date);
        const y = m ? Number(m[1]) : Math.floor(today / 10000);
        const mo = m ? Number(m[2]) : Math.floor(today / 100) % 100;
        if (mo < 1 || mo > 12) throw new ApiError(6, 'date');
        fromDay = y * 10000 + mo * 100 + 1;
        toDay = y * 10000 + mo * 100 + daysInMonth(y, mo);
        buckets = Array.from({ length: daysInMonth(y, mo) }, (_, i) => fromDay + i);
        bucket = 'day';
        ts = buckets.map(dayTs);
      } else if (p.view === 'year') {
        const m = /^(\d{4})/.exec(date);
        const y = m ? Number(m[1]) : Math.floor(today / 10000);
        fromDay = y * 10000 + 101;
        toDay = y * 10000 + 1231;
        buckets = Array.from({ length: 12 }, (_, i) => y * 100 + i + 1);
        bucket = 'month';
        ts = buckets.map((b) => dayTs(b * 100 + 1));
      } else {
        const first = await this.deps.energyRepo.firstDay(row.id);
        const y0 = first ? Math.floor(first / 10000) : Math.floor(today / 10000);
        const y1 = Math.floor(today / 10000);
        fromDay = y0 * 10000 + 101;
        toDay = y1 * 10000 + 1231;
        buckets = Array.from({ length: y1 - y0 + 1 }, (_, i) => y0 + i);
        bucket = 'year';
        ts = buckets.map((b) => dayTs(b * 10000 + 101));
      }
      for (const k of kinds) {
        const m = await this.deps.energyRepo.series(k, { deviceIds: [row.id] }, fromDay, toDay, bucket);
        series.push({ kind: k, val: buckets.map((b) => num4(m.get(b) ?? 0)) });
      }
    }
    const gen = series.find((s) => s.kind === 'generated');
    let income = ts.map((_, i) => num4(Number(gen?.val[i] ?? 0) * unitProfit));
    if (this.deps.income && row.project_id !== null) {
      // Each bucket's kWh at the plant's average price of that bucket (an hour of the day view: the day's).
      const first = dayOf(ts[0]!.slice(0, 10));
      const bucket = p.view === 'year' ? 'month' : p.view === 'total' ? 'year' : 'day';
      const keyAt = (i: number) => {
        const d = dayOf(ts[i]!.slice(0, 10));
        return bucket === 'month' ? Math.floor(d / 100) : bucket === 'year' ? Math.floor(d / 10000) : d;
      };
      const last = p.view === 'day' ? first : dayOf(ts[ts.length - 1]!.slice(0, 10));
      const to = bucket === 'day' ? last : bucket === 'month' ? Math.floor(last / 100) * 100 + 31 : Math.floor(last / 10000) * 10000 + 1231;
      const m = await this.deps.income.buckets(row.project_id, tz, first, Math.min(to, Math.max(today, first)), bucket);
      income = ts.map((_, i) => {
        const b = m.get(keyAt(i));
        return num4(priceLike(Number(gen?.val[i] ?? 0), b, b?.fallback).get(row.currency ?? '') ?? 0);
      });
    }
    return {
      view: p.view,
      ts,
      series,
      income,
      currency: row.currency ?? '',
      ...(power ? { power } : {}),
    };
  }
}
