import {
  alarmDeviceType,
  alarmRuleMatches,
  alarmText,
  ApiError,
  LIMITS,
  type AlarmListDat,
  type AlarmRow,
  type AlarmRule,
  type AlarmStatDay,
  type Catalogue,
  type ParsedParamsOf,
} from '@sunwatch/protocol';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { fmtTs, parseLocal } from '../../shared/local-time.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DeviceResolver } from '../devices/device-resolver.js';
import type { AlarmRulesService } from './alarm-rules.service.js';
import type { AlarmFilter, AlarmListRow, AlarmsRepository } from './alarms.repository.js';

export interface AlarmsServiceDeps {
  repo: AlarmsRepository;
  access: Pick<AccessService, 'scopeOf' | 'requireAccess'>;
  resolver: Pick<DeviceResolver, 'resolve'>;
  rules: Pick<AlarmRulesService, 'hidingRules'>;
  audit: Pick<AuditService, 'record'>;
  now: Clock;
}

type DeviceListParams = ParsedParamsOf<Catalogue['queryDeviceWarning']>;
type DeviceCountParams = ParsedParamsOf<Catalogue['queryDeviceWarningCount']>;
type PlantsListParams = ParsedParamsOf<Catalogue['webQueryPlantsWarning']>;
type StatParams = ParsedParamsOf<Catalogue['webQueryWarningStatistic']>;
/** The fleet list's filters without paging (the alarm export's params). */
type FleetParams = ParsedParamsOf<Catalogue['exportPlantsWarning']>;

const LEVEL_KEY = { 0: 'warning', 1: 'error', 2: 'fault', 3: 'offline' } as const;
const DAY_MS = 86_400_000;

/** The half-open window of `sdate`/`edate` read in `tz`; both or neither (err 6). */
function window(p: { sdate?: string | undefined; edate?: string | undefined }, tz: number) {
  if ((p.sdate === undefined) !== (p.edate === undefined))
    throw new ApiError(6, p.sdate === undefined ? 'sdate' : 'edate');
  if (p.sdate === undefined || p.edate === undefined) return {};
  return { from: parseLocal(p.sdate, tz), to: parseLocal(p.edate, tz) };
}

/** The list/count filters common to every alarm call. */
function common(p: Partial<DeviceListParams>): AlarmFilter {
  return {
    handle: p.handle,
    levels: p.level,
    devtype: p.devtype,
    atype: p.atype,
    code: p.code,
    id: p.id,
    state: p.state,
  };
}

/**
 * Alarm lists, counts, the 7-day statistics and handling (issue 11). Every read goes through the
 * caller's scope (access module: another tenant's device 258, plant 260, alarm 264); descriptions
 * are resolved in the reader's language at read time (protocol alarmText), never read from the
 * stored English column.
 */
export class AlarmsService {
  constructor(private readonly deps: AlarmsServiceDeps) {}

  /** The wire row of an alarm in `locale`; `hidden` when one of the hiding rules matches. */
  static row(r: AlarmListRow, locale: string, hideRules: readonly AlarmRule[]): AlarmRow {
    const devcode = r.devcode === null ? null : Number(r.devcode);
    const facts = {
      devcode,
      devtype: r.devtype === null ? null : Number(r.devtype),
      code: Number(r.code),
      level: Number(r.level),
      sn: r.sn ?? '',
      pn: r.pn,
      pid: r.pid === null ? null : Number(r.pid),
      timezone: r.tz,
    };
    return {
      id: r.id,
      uid: r.owner_id === null ? 0 : Number(r.owner_id),
      usr: r.owner_usr ?? '',
      sn: r.sn ?? '',
      pn: r.pn,
      devcode: devcode ?? -1,
      devaddr: r.devaddr === null ? -1 : Number(r.devaddr),
      devtype: facts.devtype ?? 0,
      atype: alarmDeviceType(devcode, facts.devtype),
      devalias: r.dev_alias || r.dl_alias || '',
      desc: alarmText(devcode, facts.code, locale, facts.level),
      level: facts.level,
      code: facts.code,
      gts: fmtTs(r.started_at, r.tz),
      ets: r.ended_at === null ? '' : fmtTs(r.ended_at, r.tz),
      handle: Number(r.handled),
      handleUsr: Number(r.handled) === 1 ? r.handled_usr : '',
      handleTs: r.handled_at === null ? '' : fmtTs(r.handled_at, r.tz),
      pid: facts.pid ?? 0,
      pname: r.pname ?? '',
      address: [r.p_address, r.p_city, r.p_province, r.p_country].filter((x) => x && x.trim() !== '').join(', '),
      timezone: r.tz,
      hidden: hideRules.some((rule) => alarmRuleMatches(rule, facts, r.started_at)),
    };
  }

  private async page(
    scope: TelemetryScope,
    f: AlarmFilter,
    p: { page: number; pagesize: number },
    locale: string,
  ): Promise<AlarmListDat> {
    const [total, rows] = await Promise.all([
      this.deps.repo.count(scope, f),
      this.deps.repo.list(scope, f, p.page * p.pagesize, p.pagesize),
    ]);
    const rules = f.hideRules ?? [];
    return { total, page: p.page, pagesize: p.pagesize, warning: rows.map((r) => AlarmsService.row(r, locale, rules)) };
  }

  /** queryDeviceWarning: one device's alarms; the window in device time (its plant's timezone). */
  async deviceList(caller: Caller, p: DeviceListParams, locale: string): Promise<AlarmListDat> {
    const scope = await this.deps.access.scopeOf(caller);
    const dev = await this.deps.resolver.resolve(caller, p, scope);
    const tz = Number(dev.p_tz ?? dev.dl_tz ?? 0);
    const hideRules = await this.deps.rules.hidingRules(caller.accountId);
    const f: AlarmFilter = { ...common(p), ...window(p, tz), deviceId: dev.id, hideRules, hidden: p.hidden };
    return this.page(scope, f, p, locale);
  }

  /** queryDeviceWarningCount: without `handle`, the untreated alarms. */
  async deviceCount(caller: Caller, p: DeviceCountParams): Promise<{ count: number }> {
    const scope = await this.deps.access.scopeOf(caller);
    const dev = await this.deps.resolver.resolve(caller, p, scope);
    const tz = Number(dev.p_tz ?? dev.dl_tz ?? 0);
    const hideRules = await this.deps.rules.hidingRules(caller.accountId);
    const f: AlarmFilter = {
      ...common(p),
      handle: p.handle ?? 0,
      ...window(p, tz),
      deviceId: dev.id,
      hideRules,
      hidden: p.hidden,
    };
    return { count: await this.deps.repo.count(scope, f) };
  }

  /** queryPlantsWarning / webQueryPlantsWarning: every visible plant's alarms; the window in `tz` (UTC by default). */
  async plantsList(caller: Caller, p: PlantsListParams, locale: string, noneIs264: boolean): Promise<AlarmListDat> {
    const { scope, f } = await this.fleetFilter(caller, p);
    const dat = await this.page(scope, f, p, locale);
    if (noneIs264 && dat.total === 0) throw new ApiError(264);
    return dat;
  }

  /**
   * The alarm list export (reports module): how many alarms the fleet list's filters match, and
   * those alarms as wire rows in `locale`, newest first, in keyset batches (stable while alarms
   * arrive or are handled during the walk). Same scope and filters as webQueryPlantsWarning.
   */
  async fleetExport(caller: Caller, p: FleetParams) {
    const { scope, f } = await this.fleetFilter(caller, p);
    const repo = this.deps.repo;
    return {
      count: () => repo.count(scope, f),
      async *batches(locale: string, size: number): AsyncGenerator<AlarmRow[]> {
        let before: AlarmFilter['before'];
        for (;;) {
          const rows = await repo.list(scope, { ...f, before }, 0, size);
          if (rows.length === 0) return;
          yield rows.map((r) => AlarmsService.row(r, locale, f.hideRules ?? []));
          const last = rows[rows.length - 1]!;
          before = { startedAt: last.started_at, id: last.id };
          if (rows.length < size) return;
        }
      },
    };
  }

  /** The scope and filter of the fleet lists (queryPlantsWarning, webQueryPlantsWarning, the export). */
  private async fleetFilter(caller: Caller, p: FleetParams) {
    const scope = await this.deps.access.scopeOf(caller);
    if (p.plantid !== undefined)
      await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [p.plantid], scope });
    const hideRules = await this.deps.rules.hidingRules(caller.accountId);
    const f: AlarmFilter = {
      ...common(p),
      ...window(p, p.tz ?? 0),
      plantId: p.plantid,
      pname: p.pname,
      province: p.province,
      city: p.city,
      county: p.county,
      town: p.town,
      pn: p.pn,
      sn: p.sn,
      search: p.search,
      ownerId: p.uid,
      hideRules,
      hidden: p.hidden,
    };
    return { scope, f };
  }

  /** Devices (or dataloggers, for their offline alarm) with an ongoing, not hidden alarm. */
  async devicesInAlarm(
    caller: Caller,
    p: { plantid?: number | undefined; devtype?: number | undefined; level?: number[] | undefined },
  ): Promise<{ count: number }> {
    const scope = await this.deps.access.scopeOf(caller);
    if (p.plantid !== undefined)
      await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [p.plantid], scope });
    const hideRules = await this.deps.rules.hidingRules(caller.accountId);
    const f: AlarmFilter = { plantId: p.plantid, devtype: p.devtype, levels: p.level, hideRules, hidden: 0 };
    return { count: await this.deps.repo.sourcesInAlarm(scope, f) };
  }

  /** webQueryWarningStatistic: the last 7 local days (today included) per type. */
  async statistic(caller: Caller, p: StatParams) {
    const scope = await this.deps.access.scopeOf(caller);
    let tz = p.tz ?? 0;
    if (p.plantid !== undefined) {
      await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [p.plantid], scope });
      tz = await this.deps.repo.plantTz(p.plantid);
    }
    const hideRules = await this.deps.rules.hidingRules(caller.accountId);
    const today = Math.floor((this.deps.now() + tz * 1000) / DAY_MS);
    const first = today - (LIMITS.ALARM_STATS_DAYS - 1);
    const base: AlarmFilter = { plantId: p.plantid, devtype: p.devtype, hideRules, hidden: 0 };
    const [rows, ongoing] = await Promise.all([
      this.deps.repo.perDayLevel(scope, { ...base, from: first * DAY_MS - tz * 1000 }, tz),
      this.deps.repo.count(scope, { ...base, state: 1 }),
    ]);
    const zero = () => ({ warning: 0, error: 0, fault: 0, offline: 0, total: 0 });
    const days: AlarmStatDay[] = [];
    for (let d = first; d <= today; d++) days.push({ date: fmtTs(d * DAY_MS, 0).slice(0, 10), ...zero() });
    const total = zero();
    let untreated = 0;
    for (const r of rows) {
      const day = days[r.day - first];
      const key = LEVEL_KEY[r.level as keyof typeof LEVEL_KEY];
      if (!day || !key) continue;
      day[key] += r.n;
      day.total += r.n;
      total[key] += r.n;
      total.total += r.n;
      untreated += r.untreated;
    }
    return { days, total, untreated, ongoing };
  }

  /**
   * Marks alarms processed (all or nothing: 264 when one is not an alarm the caller sees); an
   * already processed alarm keeps who and when. Each change is audited.
   */
  async handle(
    caller: Caller,
    ids: readonly number[],
  ): Promise<{ count: number; handleUsr: string; handleTs: string }> {
    const { repo, audit, access } = this.deps;
    const unique = [...new Set(ids)];
    const scope = await access.scopeOf(caller);
    const seen = await repo.visible(scope, unique);
    if (seen.length !== unique.length) throw new ApiError(264);
    const at = this.deps.now();
    const changed = await repo.handle(unique, { accountId: caller.accountId, usr: caller.usr }, at);
    for (const id of changed) {
      await audit.record({
        entity: 'alarm',
        entityId: id,
        before: { handled: 0 },
        after: { handled: 1, handled_by: caller.accountId, handled_usr: caller.usr, handled_at: at },
      });
    }
    return { count: changed.length, handleUsr: caller.usr, handleTs: fmtTs(at, 0) };
  }
}
