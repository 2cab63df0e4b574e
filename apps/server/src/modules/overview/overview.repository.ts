import { sql, type RawBuilder } from 'kysely';
import { dataloggerScopeSql, plantScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import { plantSourceSql } from '../telemetry/rollups.js';

/** The SQL of the fleet overview: every figure one query over indexes, scoped by the access module. */
export class OverviewRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  /** The visible devices with their latest sample (one join). */
  devicesWithLatest(scope: TelemetryScope) {
    return this.db
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
      .execute();
  }

  /** Plant count, nominal power, energy offsets and their income of the visible plants, per currency. */
  plantTotalsByCurrency(scope: TelemetryScope) {
    return this.db
      .selectFrom('projects as p')
      .where(plantScopeSql(scope, 'p'))
      .select((eb) => [
        'p.currency',
        eb.fn.countAll<number>().as('plants'),
        eb.fn.sum<number>('p.nominal_power').as('kw'),
        eb.fn.sum<number>('p.energy_offset').as('offset'),
        eb.fn.sum<number>(sql`p.energy_offset * p.unit_profit`).as('offset_income'),
      ])
      .groupBy('p.currency')
      .execute();
  }

  /** The visible plants' time zone, energy offset and currency (their income, issue 15). */
  plantsOf(scope: TelemetryScope) {
    return this.db
      .selectFrom('projects as p')
      .where(plantScopeSql(scope, 'p'))
      .select(['p.id', 'p.tz_offset', 'p.energy_offset', 'p.currency'])
      .orderBy('p.id')
      .execute();
  }

  /** Start instants of the visible alarms started since `since`. */
  alarmsSince(scope: TelemetryScope, since: number) {
    return this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .where('a.started_at', '>=', since)
      .select('a.started_at')
      .execute();
  }

  /** The number of visible open alarms. */
  async activeAlarmCount(scope: TelemetryScope): Promise<number> {
    const r = await this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .where(dataloggerScopeSql(scope, 'dl'))
      .where('a.ended_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * The visible plant-source devices of one timezone as a subquery (scope, timezone, plant source):
   * no 1,000-parameter IN list for fleet-wide energy.
   */
  sourceDevicesInTz(scope: TelemetryScope, tz: number): RawBuilder<unknown> {
    return sql`select d.id from devices d
        inner join dataloggers dl on dl.id = d.datalogger_id
        left join projects p on p.id = d.project_id
        where ${dataloggerScopeSql(scope, 'dl')} and coalesce(p.tz_offset, dl.tz_offset) = ${tz}
          and ${plantSourceSql('generated', 'd')}`;
  }
}
