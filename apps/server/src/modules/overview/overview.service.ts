import type { FleetOverviewDat, IncomeFigures, StatusCounts } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { addDays, dayStartMs, dayString, localDay } from '../../shared/local-time.js';
import { priceLike, type PlantIncomeSource } from '../../shared/plant-income.js';
import { num4 } from '../../shared/wire-format.js';
import type { DataloggersRepository } from '../dataloggers/dataloggers.repository.js';
import { definitionOf, OFFLINE, outputPowerW, toSample } from '../devices/device-sample.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { EnergyRepository } from '../energy/energy.repository.js';
import type { PlantsRepository } from '../plants/plants.repository.js';
import { plantBalance, type BalanceDevice } from '../plants/plant-consumption.js';
import { plantSourceIds } from '../telemetry/rollups.js';
import type { OverviewRepository } from './overview.repository.js';

export interface OverviewServiceDeps {
  access: Pick<AccessService, 'scopeOf'>;
  overview: OverviewRepository;
  plants: Pick<PlantsRepository, 'statusCounts'>;
  dataloggers: Pick<DataloggersRepository, 'statusCounts'>;
  devices: Pick<DevicesRepository, 'statusCounts'>;
  energy: Pick<EnergyRepository, 'fleetByDevice'>;
  now: Clock;
  /**
   * Issue 15: the plants' generation income on the tariff path (tariffs module). Absent: energy ×
   * each plant's current unit_profit.
   */
  income?: Pick<PlantIncomeSource, 'generation'>;
}

function counts(rows: Array<{ status: number; n: number }>): StatusCounts {
  const byStatus = [0, 0, 0, 0, 0, 0, 0];
  let total = 0;
  for (const r of rows) {
    total += r.n;
    if (r.status >= 0 && r.status < byStatus.length) byStatus[r.status]! += r.n;
  }
  return { total, byStatus };
}

/** The fleet overview (webQueryFleetOverview): everything the caller may see, in one answer. */
export class OverviewService {
  constructor(private readonly deps: OverviewServiceDeps) {}

  async fleet(caller: Caller, timezone: number): Promise<FleetOverviewDat> {
    const { overview } = this.deps;
    const scope = await this.deps.access.scopeOf(caller);
    const now = this.deps.now();
    const today = localDay(now, timezone);
    const first = addDays(today, -6);
    const since = dayStartMs(first, timezone);
    // Every figure is one query over indexes: grouped status counts, the visible devices with their
    // latest sample (one join), alarms of the last 7 days, the open alarm count.
    const [plantCounts, collectorCounts, deviceCounts, rows, nominal, alarms, active] = await Promise.all([
      this.deps.plants.statusCounts(scope),
      this.deps.dataloggers.statusCounts(scope),
      this.deps.devices.statusCounts(scope),
      overview.devicesWithLatest(scope),
      overview.plantTotalsByCurrency(scope),
      overview.alarmsSince(scope, since),
      overview.activeAlarmCount(scope),
    ]);
    // Generated energy (plant sources only, rollups.ts), per device timezone: today's energy and the
    // lifetime counter by indexed lookups per device, the past reset carry from its cache (energy.ts).
    const sources = plantSourceIds('generated', rows);
    const byTz = new Map<number, number[]>();
    for (const r of rows) {
      if (!sources.has(r.id)) continue;
      const tz = r.p_tz ?? r.dl_tz;
      const list = byTz.get(tz);
      if (list) list.push(r.id);
      else byTz.set(tz, [r.id]);
    }
    const energy = new Map<number, { today: number; total: number }>();
    await Promise.all(
      [...byTz].map(async ([tz, ids]) => {
        // The same devices as a subquery (scope, timezone, plant source): no 1,000-parameter IN list.
        const inTz = overview.sourceDevicesInTz(scope, tz);
        const m = await this.deps.energy.fleetByDevice('generated', inTz, ids, now, tz);
        for (const id of ids) energy.set(id, m.get(id) ?? { today: 0, total: 0 });
      }),
    );

    // Consumption: each plant's balance (plant-consumption.ts), summed over the plants that can tell.
    const byPlant = new Map<number, BalanceDevice[]>();
    for (const r of rows) {
      if (r.project_id === null) continue;
      const def = definitionOf(r.devcode);
      const d: BalanceDevice = {
        devtype: r.devtype,
        def,
        values: r.data != null ? toSample(def, r.data).values : undefined,
        online: r.status !== OFFLINE,
      };
      const list = byPlant.get(r.project_id);
      if (list) list.push(d);
      else byPlant.set(r.project_id, [d]);
    }
    let loadW: number | undefined;
    for (const list of byPlant.values()) {
      const b = plantBalance(list).loadW;
      if (b !== undefined) loadW = (loadW ?? 0) + b;
    }

    let powerW = 0;
    let energyToday = 0;
    let energyTotal = 0;
    const incomes = new Map<string, { today: number; total: number; devices: number }>();
    for (const r of rows) {
      if (r.data != null && r.status !== OFFLINE) {
        const def = definitionOf(r.devcode);
        powerW += outputPowerW(def, toSample(def, r.data));
      }
      const e = energy.get(r.id) ?? { today: 0, total: 0 };
      energyToday += e.today;
      energyTotal += e.total;
      const cur = r.currency ?? '';
      let inc = incomes.get(cur);
      if (!inc) incomes.set(cur, (inc = { today: 0, total: 0, devices: 0 }));
      inc.today += e.today * (r.unit_profit ?? 0);
      inc.total += e.total * (r.unit_profit ?? 0);
      inc.devices += 1;
    }
    // A plant's total includes its energy offset (generated energy before its devices' counters).
    for (const n of nominal) {
      if (!Number(n.offset ?? 0)) continue;
      energyTotal += Number(n.offset);
      const cur = n.currency ?? '';
      let inc = incomes.get(cur);
      if (!inc) incomes.set(cur, (inc = { today: 0, total: 0, devices: 0 }));
      inc.total += Number(n.offset_income ?? 0);
    }
    if (this.deps.income) await this.tariffIncomes(scope, rows, energy, incomes);
    const incomeList: IncomeFigures[] = [...incomes.entries()]
      .sort((a, b) => b[1].devices - a[1].devices)
      .map(([currency, v]) => ({ currency, today: num4(v.today), total: num4(v.total) }));

    const perDay = new Map<number, number>();
    for (const a of alarms) {
      const d = localDay(Number(a.started_at), timezone);
      perDay.set(d, (perDay.get(d) ?? 0) + 1);
    }
    const main = incomeList[0] ?? { currency: '', today: num4(0), total: num4(0) };
    // The figures' currency: the main income's, else any income's, else the one most visible
    // plants use (a fleet without data still shows "EUR 0.00"; the home needs no plant list).
    const currency = main.currency || incomeList.find((i) => i.currency)?.currency || mostPlantsCurrency(nominal);
    return {
      plant: counts(plantCounts),
      collector: counts(collectorCounts),
      device: counts(deviceCounts),
      energyToday: num4(energyToday),
      energyTotal: num4(energyTotal),
      currentPower: num4(powerW / 1000),
      consumptionPower: loadW === undefined ? '--' : num4(loadW / 1000),
      nominalPower: num4(nominal.reduce((a, n) => a + Number(n.kw ?? 0), 0)),
      currency,
      incomeToday: main.today,
      incomeTotal: main.total,
      incomes: incomeList,
      alarmsPerDay: Array.from({ length: 7 }, (_, i) => {
        const d = addDays(first, i);
        return { date: dayString(d), count: perDay.get(d) ?? 0 };
      }),
      activeAlarms: active,
    };
  }

  /**
   * The income figures on the tariff path (docs/money/tariffs.md, "One income on every screen"):
   * each visible plant's total (frozen days + open days + opening balance) and today's (its energy
   * today at the average price of today's measured kWh), added per currency. The currencies listed
   * and their order (devices per current currency) stay as the energy loop made them; a currency a
   * plant earned in before a change is added after them.
   */
  private async tariffIncomes(
    scope: Parameters<OverviewRepository['plantsOf']>[0],
    rows: readonly DeviceRow[],
    energy: ReadonlyMap<number, { today: number; total: number }>,
    incomes: Map<string, { today: number; total: number; devices: number }>,
  ): Promise<void> {
    const plants = await this.deps.overview.plantsOf(scope);
    const e = new Map<number, { today: number; total: number }>(
      plants.map((p) => [p.id, { today: 0, total: Number(p.energy_offset ?? 0) }]),
    );
    for (const r of rows) {
      if (r.project_id === null) continue;
      const x = e.get(r.project_id);
      const d = energy.get(r.id);
      if (!x || !d) continue;
      x.today += d.today;
      x.total += d.total;
    }
    const gens = await this.deps.income!.generation(
      plants.map((p) => ({ id: p.id, tz: p.tz_offset, lifetime: e.get(p.id)!.total })),
      scope,
    );
    for (const inc of incomes.values()) {
      inc.today = 0;
      inc.total = 0;
    }
    const add = (currency: string, k: 'today' | 'total', v: number) => {
      let inc = incomes.get(currency);
      if (!inc) {
        if (!v) return;
        incomes.set(currency, (inc = { today: 0, total: 0, devices: 0 }));
      }
      inc[k] += v;
    };
    for (const p of plants) {
      const g = gens.get(p.id);
      if (!g) continue;
      for (const [c, v] of g.total) add(c, 'total', v);
      for (const [c, v] of priceLike(e.get(p.id)!.today, g.today, g.now)) add(c, 'today', v);
    }
  }
}

type DeviceRow = Awaited<ReturnType<OverviewRepository['devicesWithLatest']>>[number];
/** The currency used by most plants (ties: the first in currency order); '' when none has one. */
export function mostPlantsCurrency(
  rows: ReadonlyArray<{ currency: string | null; plants: number | string | null }>,
): string {
  let best = '';
  let n = 0;
  for (const r of [...rows].sort((a, b) => (a.currency ?? '').localeCompare(b.currency ?? ''))) {
    const k = Number(r.plants ?? 0);
    if (r.currency && k > n) {
      best = r.currency;
      n = k;
    }
  }
  return best;
}
