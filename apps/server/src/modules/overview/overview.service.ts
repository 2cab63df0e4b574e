import type { FleetOverviewDat, IncomeFigures, StatusCounts } from '@sunwatch/protocol';
import type { AppContext, Caller } from '../../context.js';
import { dataloggersRepo } from '../dataloggers/dataloggers.service.js';
import { definitionOf, outputPowerW, toSample } from '../devices/device-sample.js';
import { deviceTz, type DeviceRow } from '../devices/devices.repository.js';
import { devicesRepo, OFFLINE, scopeOf } from '../devices/devices.service.js';
import { pastEnergyByDevice } from '../plants/energy.js';
import { plantsRepo, PlantsService } from '../plants/plants.service.js';
import { dataloggerScopeSql, plantScopeSql } from '../plants/telemetry-scope.js';
import { addDays, dayStartMs, dayString, localDay, num4 } from '../plants/telemetry-time.js';

function counts(rows: Array<{ status: number; n: number }>): StatusCounts {
  const byStatus = [0, 0, 0, 0, 0, 0, 0];
  let total = 0;
  for (const r of rows) {
    total += r.n;
    if (r.status >= 0 && r.status < byStatus.length) byStatus[r.status]! += r.n;
  }
  return { total, byStatus };
}

function groupByTz(rows: readonly DeviceRow[]): Map<number, DeviceRow[]> {
  const m = new Map<number, DeviceRow[]>();
  for (const r of rows) {
    const tz = deviceTz(r);
    const list = m.get(tz);
    if (list) list.push(r);
    else m.set(tz, [r]);
  }
  return m;
}

/** webQueryFleetOverview: everything the caller may see, in one answer. */
export async function fleetOverview(ctx: AppContext, caller: Caller, timezone: number): Promise<FleetOverviewDat> {
  const scope = await scopeOf(ctx, caller);
  const devices = devicesRepo(ctx);
  const [plantCounts, collectorCounts, deviceCounts, rows, nominal] = await Promise.all([
    plantsRepo(ctx).statusCounts(scope),
    dataloggersRepo(ctx).statusCounts(scope),
    devices.statusCounts(scope),
    devices.all(scope, {}),
    ctx.db
      .selectFrom('projects as p')
      .where(plantScopeSql(scope, 'p'))
      .select((eb) => eb.fn.sum<number>('p.nominal_power').as('kw'))
      .executeTakeFirst(),
  ]);
  const ids = rows.map((r) => r.id);
  // Today's energy from the last week of rollups, the past from the (cached) rollup totals.
  const [latest, todays] = await Promise.all([devices.latest(ids), new PlantsService(ctx).todayByDevice(rows)]);
  const energy = new Map<number, { today: number; total: number }>();
  for (const [tz, list] of groupByTz(rows)) {
    const past = await pastEnergyByDevice(
      ctx.db,
      'generated',
      list.map((r) => r.id),
      ctx.now(),
      tz,
    );
    for (const r of list) {
      const today = todays.get(r.id)?.today ?? 0;
      energy.set(r.id, { today, total: (past.get(r.id) ?? 0) + today });
    }
  }

  let powerW = 0;
  let energyToday = 0;
  let energyTotal = 0;
  const incomes = new Map<string, { today: number; total: number; devices: number }>();
  for (const r of rows) {
    const l = latest.get(r.id);
    if (l && r.status !== OFFLINE) {
      const def = definitionOf(r.devcode);
      powerW += outputPowerW(def, toSample(def, l.data));
    }
    const e = energy.get(r.id);
    if (!e) continue;
    energyToday += e.today;
    energyTotal += e.total;
    const cur = r.currency ?? '';
    let inc = incomes.get(cur);
    if (!inc) incomes.set(cur, (inc = { today: 0, total: 0, devices: 0 }));
    inc.today += e.today * (r.unit_profit ?? 0);
    inc.total += e.total * (r.unit_profit ?? 0);
    inc.devices += 1;
  }
  const incomeList: IncomeFigures[] = [...incomes.entries()]
    .sort((a, b) => b[1].devices - a[1].devices)
    .map(([currency, v]) => ({ currency, today: num4(v.today), total: num4(v.total) }));

  // Alarms raised per day over the last 7 days (in `timezone`).
  const today = localDay(ctx.now(), timezone);
  const first = addDays(today, -6);
  const since = dayStartMs(first, timezone);
  const alarms = await ctx.db
    .selectFrom('alarms as a')
    .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
    .where(dataloggerScopeSql(scope, 'dl'))
    .where('a.started_at', '>=', since)
    .select('a.started_at')
    .execute();
  const perDay = new Map<number, number>();
  for (const a of alarms) {
    const d = localDay(Number(a.started_at), timezone);
    perDay.set(d, (perDay.get(d) ?? 0) + 1);
  }
  const active = await ctx.db
    .selectFrom('alarms as a')
    .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
    .where(dataloggerScopeSql(scope, 'dl'))
    .where('a.ended_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();

  const main = incomeList[0] ?? { currency: '', today: num4(0), total: num4(0) };
  return {
    plant: counts(plantCounts),
    collector: counts(collectorCounts),
    device: counts(deviceCounts),
    energyToday: num4(energyToday),
    energyTotal: num4(energyTotal),
    currentPower: num4(powerW / 1000),
    nominalPower: num4(Number(nominal?.kw ?? 0)),
    currency: main.currency,
    incomeToday: main.today,
    incomeTotal: main.total,
    incomes: incomeList,
    alarmsPerDay: Array.from({ length: 7 }, (_, i) => {
      const d = addDays(first, i);
      return { date: dayString(d), count: perDay.get(d) ?? 0 };
    }),
    activeAlarms: Number(active.n),
  };
}
