import type { FleetOverviewDat, IncomeFigures, StatusCounts } from '@sunwatch/protocol';
import { sql } from 'kysely';
import type { AppContext, Caller } from '../../context.js';
import { dataloggersRepo } from '../dataloggers/dataloggers.service.js';
import { definitionOf, outputPowerW, toSample } from '../devices/device-sample.js';
import { devicesRepo, OFFLINE, scopeOf } from '../devices/devices.service.js';
import { fleetEnergyByDevice } from '../plants/energy.js';
import { plantsRepo } from '../plants/plants.service.js';
import { plantSourceIds, plantSourceSql } from '../telemetry/rollups.js';
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

/** webQueryFleetOverview: everything the caller may see, in one answer. */
export async function fleetOverview(ctx: AppContext, caller: Caller, timezone: number): Promise<FleetOverviewDat> {
  const scope = await scopeOf(ctx, caller);
  const devices = devicesRepo(ctx);
  const today = localDay(ctx.now(), timezone);
  const first = addDays(today, -6);
  const since = dayStartMs(first, timezone);
  // Every figure is one query over indexes: grouped status counts, the visible devices with their
  // latest sample (one join), alarms of the last 7 days, the open alarm count.
  const [plantCounts, collectorCounts, deviceCounts, rows, nominal, alarms, active] = await Promise.all([
    plantsRepo(ctx).statusCounts(scope),
    dataloggersRepo(ctx).statusCounts(scope),
    devices.statusCounts(scope),
    ctx.db
      .selectFrom('devices as d')
      .innerJoin('dataloggers as dl', 'dl.id', 'd.datalogger_id')
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .leftJoin('device_latest as l', 'l.device_id', 'd.id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .select([
        'd.id',
        'd.devcode',
        'd.devtype',
        'd.status',
        'd.project_id',
        'dl.tz_offset as dl_tz',
        'p.tz_offset as p_tz',
        'p.unit_profit',
        'p.currency',
        'l.data',
      ])
      .orderBy('d.id')
      .execute(),
    ctx.db
      .selectFrom('projects as p')
      .where(plantScopeSql(scope, 'p'))
      .select((eb) => [
        'p.currency',
        eb.fn.sum<number>('p.nominal_power').as('kw'),
        eb.fn.sum<number>('p.energy_offset').as('offset'),
        eb.fn.sum<number>(sql`p.energy_offset * p.unit_profit`).as('offset_income'),
      ])
      .groupBy('p.currency')
      .execute(),
    ctx.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .where('a.started_at', '>=', since)
      .select('a.started_at')
      .execute(),
    ctx.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .where('a.ended_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
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
      const inTz = sql`select d.id from devices d
        inner join dataloggers dl on dl.id = d.datalogger_id
        left join projects p on p.id = d.project_id
        where ${dataloggerScopeSql(scope, 'dl')} and coalesce(p.tz_offset, dl.tz_offset) = ${tz}
          and ${plantSourceSql('generated', 'd')}`;
      const m = await fleetEnergyByDevice(ctx.db, 'generated', inTz, ids, ctx.now(), tz);
      for (const id of ids) energy.set(id, m.get(id) ?? { today: 0, total: 0 });
    }),
  );

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
  const incomeList: IncomeFigures[] = [...incomes.entries()]
    .sort((a, b) => b[1].devices - a[1].devices)
    .map(([currency, v]) => ({ currency, today: num4(v.today), total: num4(v.total) }));

  const perDay = new Map<number, number>();
  for (const a of alarms) {
    const d = localDay(Number(a.started_at), timezone);
    perDay.set(d, (perDay.get(d) ?? 0) + 1);
  }
  const main = incomeList[0] ?? { currency: '', today: num4(0), total: num4(0) };
  return {
    plant: counts(plantCounts),
    collector: counts(collectorCounts),
    device: counts(deviceCounts),
    energyToday: num4(energyToday),
    energyTotal: num4(energyTotal),
    currentPower: num4(powerW / 1000),
    nominalPower: num4(nominal.reduce((a, n) => a + Number(n.kw ?? 0), 0)),
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
