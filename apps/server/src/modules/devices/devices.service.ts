import {
  ApiError,
  BATCH_MAX,
  ENERGY_COUNTERS,
  chartFields,
  chartValue,
  deviceWireOptions,
  energyCounters,
  keyParameterValue,
  lastDataFields,
  localizeSample,
  parameterSelectionError,
  statusFromListFilter,
  toChartsFields,
  toChartsFieldsByType,
  toDeviceParsEs,
  toEnergyFlow,
  toKeyParameters,
  toLastDataList,
  toSPLastData,
  translateDeviceText,
  KEY_PARAMETERS,
  LIMITS,
  type DeviceDefinition,
  type DeviceInfoRow,
  type DeviceStatisticDat,
  type DeviceEnergyChartDat,
  type EnergyCounterName,
  type KeyParameter,
  type ParamCurve,
  type PeriodFigures,
  type ValTs,
  type WebDeviceRow,
} from '@sunwatch/protocol';
import type { AppContext, Caller } from '../../context.js';
import { energySeries, periodEnergyByDevice, ZERO_PERIOD, type PeriodEnergy } from '../plants/energy.js';
import { resolveTelemetryScope, type TelemetryScope } from '../plants/telemetry-scope.js';
import {
  addDays,
  dayOf,
  dayStartMs,
  dayTs,
  daysInMonth,
  fmtTs,
  localDay,
  num4,
  parseLocal,
} from '../plants/telemetry-time.js';
import { definitionOf, outputPowerW, toSample, type Sample } from './device-sample.js';
import { DevicesRepository, deviceTz, type DeviceKey, type DeviceRow } from './devices.repository.js';

/** A text of the wire builders themselves ("Timestamp") in the call's language. */
function wireText(english: string, locale: string | undefined): string {
  return translateDeviceText(english, { kind: 'wire' }, locale);
}

/** Field titles in the call's language. */
function titleOf(def: DeviceDefinition, locale: string | undefined) {
  return (f: DeviceDefinition['fields'][number]) =>
    translateDeviceText(f.title, { devcode: def.devcode, id: f.id, kind: 'field' }, locale);
}

/** A device is "communicating" when its status is not offline. */
export const OFFLINE = 1;

const reposByCtx = new WeakMap<AppContext, DevicesRepository>();
export function devicesRepo(ctx: AppContext): DevicesRepository {
  let r = reposByCtx.get(ctx);
  if (!r) reposByCtx.set(ctx, (r = new DevicesRepository(ctx.db)));
  return r;
}

export function scopeOf(ctx: AppContext, caller: Caller): Promise<TelemetryScope> {
  return resolveTelemetryScope(ctx.db, ctx.repos.accounts, caller);
}

/** Groups items by a key (timezone) for per-timezone energy queries. */
function groupBy<T>(items: readonly T[], key: (t: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/** Today/month/year/total of generated energy per device, each in its own timezone. */
export async function generatedByDevice(
  ctx: AppContext,
  rows: readonly Pick<DeviceRow, 'id' | 'p_tz' | 'dl_tz'>[],
  kind: EnergyCounterName = 'generated',
): Promise<Map<number, PeriodEnergy>> {
  const out = new Map<number, PeriodEnergy>();
  for (const [tz, list] of groupBy(rows, deviceTz)) {
    const m = await periodEnergyByDevice(
      ctx.db,
      kind,
      list.map((r) => r.id),
      ctx.now(),
      tz,
    );
    for (const [id, e] of m) out.set(id, e);
  }
  return out;
}

export class DevicesService {
  constructor(private readonly ctx: AppContext) {}

  private get repo(): DevicesRepository {
    return devicesRepo(this.ctx);
  }

  /** The device named by the call's tuple, visible to the caller; err 7 without sn/pn, err 258 otherwise. */
  async resolve(caller: Caller, key: DeviceKey, scope?: TelemetryScope): Promise<DeviceRow> {
    if (!key.sn && !key.pn) throw new ApiError(7, 'sn');
    if (!key.sn && key.devaddr === undefined) throw new ApiError(7, 'devaddr');
    const row = await this.repo.find(scope ?? (await scopeOf(this.ctx, caller)), key);
    if (!row) throw new ApiError(258);
    return row;
  }

  /** `resolve` and the latest sample in one query (real-time screens). */
  async resolveLive(
    caller: Caller,
    key: DeviceKey,
  ): Promise<{ row: DeviceRow; def: DeviceDefinition; live: { sample: Sample; ts: number } | undefined }> {
    if (!key.sn && !key.pn) throw new ApiError(7, 'sn');
    if (!key.sn && key.devaddr === undefined) throw new ApiError(7, 'devaddr');
    const row = await this.repo.findWithLatest(await scopeOf(this.ctx, caller), key);
    if (!row) throw new ApiError(258);
    const def = definitionOf(row.devcode);
    const live =
      row.latest_data != null && row.latest_ts != null
        ? { sample: toSample(def, row.latest_data), ts: Number(row.latest_ts) }
        : undefined;
    return { row, def, live };
  }

  private async requireLive(caller: Caller, key: DeviceKey) {
    const r = await this.resolveLive(caller, key);
    if (!r.live) throw new ApiError(12);
    return { row: r.row, def: r.def, sample: r.live.sample, ts: r.live.ts };
  }

  // ---------------------------------------------------------------------------------------
  // Lists
  // ---------------------------------------------------------------------------------------

  async webList(
    caller: Caller,
    p: {
      page: number;
      pagesize: number;
      pid?: number | undefined;
      pn?: string | undefined;
      sn?: string | undefined;
      devtype?: number | undefined;
      devcode?: number | undefined;
      status?: number | undefined;
      statusFilter?: number | undefined;
      search?: string | undefined;
      focus?: number | undefined;
    },
  ): Promise<{ total: number; page: number; pagesize: number; device: WebDeviceRow[] }> {
    const scope = await scopeOf(this.ctx, caller);
    const status = p.statusFilter !== undefined ? statusFromListFilter(p.statusFilter) : p.status;
    const { total, rows } = await this.repo.list(
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
    const [latest, energy, follows] = await Promise.all([
      this.repo.latest(ids),
      generatedByDevice(this.ctx, rows),
      this.repo.followed(caller.accountId, ids),
    ]);
    const device = rows.map((r): WebDeviceRow => {
      const def = definitionOf(r.devcode);
      const l = latest.get(r.id);
      const e = energy.get(r.id) ?? ZERO_PERIOD;
      const powerW = l && r.status !== OFFLINE ? outputPowerW(def, toSample(def, l.data)) : 0;
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
        profitToday: num4(e.today * (r.unit_profit ?? 0)),
        currency: r.currency ?? '',
        focus: follows.has(r.id),
        lts: l ? fmtTs(l.ts, deviceTz(r)) : '',
      };
    });
    return { total, page: p.page, pagesize: p.pagesize, device };
  }

  /** queryDeviceInfo / queryDeviceStatus: the tuple, or `device=…;…` (≤ 256, fail fast). */
  async batch(caller: Caller, p: DeviceKey & { device?: DeviceKey[] | undefined }): Promise<DeviceRow[]> {
    const keys = p.device ?? [p];
    if (keys.length > BATCH_MAX) throw new ApiError(13, 'device');
    const scope = await scopeOf(this.ctx, caller);
    const out: DeviceRow[] = [];
    for (const k of keys) out.push(await this.resolve(caller, k, scope));
    return out;
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
    };
  }

  // ---------------------------------------------------------------------------------------
  // Real-time (device_latest)
  // ---------------------------------------------------------------------------------------

  async lastDataList(caller: Caller, key: DeviceKey, locale?: string) {
    const { row, def, sample, ts } = await this.requireLive(caller, key);
    const out = toLastDataList(
      def,
      localizeSample(def, sample, locale),
      row.id,
      fmtTs(ts, deviceTz(row)),
      deviceWireOptions(locale),
    );
    // dat[1] is the builder's own "Timestamp" row.
    if (out[1]) out[1].title = wireText(out[1].title, locale);
    return out;
  }

  async spLastData(caller: Caller, key: DeviceKey, locale?: string) {
    const { row, def, sample, ts } = await this.requireLive(caller, key);
    return toSPLastData(def, localizeSample(def, sample, locale), fmtTs(ts, deviceTz(row)), deviceWireOptions(locale));
  }

  async energyFlow(caller: Caller, key: DeviceKey) {
    const { row, def, live: l } = await this.resolveLive(caller, key);
    const sample = l?.sample ?? { values: {}, labels: {} };
    const date = fmtTs(l?.ts ?? this.ctx.now(), deviceTz(row));
    return toEnergyFlow(def, sample, { status: row.status, date });
  }

  async parsEs(caller: Caller, key: DeviceKey, locale?: string) {
    const { def, live } = await this.resolveLive(caller, key);
    const sample = localizeSample(def, live?.sample ?? { values: {}, labels: {} }, locale);
    return toDeviceParsEs(def, sample, deviceWireOptions(locale));
  }

  async chartsFields(caller: Caller, key: DeviceKey, locale?: string) {
    const row = await this.resolve(caller, key);
    return toChartsFields(definitionOf(row.devcode), row.owner_id ?? 0, deviceWireOptions(locale));
  }

  async keyParameters(caller: Caller, key: DeviceKey) {
    const row = await this.resolve(caller, key);
    return toKeyParameters(definitionOf(row.devcode));
  }

  async realLastData(caller: Caller, key: DeviceKey, locale?: string): Promise<Record<string, ValTs>> {
    const live = await this.requireLive(caller, key);
    const { row, def, ts } = live;
    if (row.status === OFFLINE) throw new ApiError(12);
    const sample = localizeSample(def, live.sample, locale);
    const out: Record<string, ValTs> = {};
    const at = fmtTs(ts, deviceTz(row));
    for (const f of chartFields(def)) {
      const label = sample.labels[f.id];
      const v = chartValue(def, sample, f.id);
      out[f.id] = { val: label ?? (v === undefined ? '--' : num4(v)), ts: at };
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // Day curves (samples)
  // ---------------------------------------------------------------------------------------

  private async dayWindow(row: DeviceRow, date: string) {
    const tz = deviceTz(row);
    const day = dayOf(date);
    const from = dayStartMs(day, tz);
    return { tz, day, from, to: dayStartMs(addDays(day, 1), tz) };
  }

  async chartFieldDetail(
    caller: Caller,
    p: DeviceKey & { field: string; precision: number; sdate: string; edate?: string | undefined },
    locale?: string,
  ): Promise<Array<{ key: string; val: string }>> {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const f = def.fields.find((x) => x.id === p.field && !x.internal);
    if (!f) throw new ApiError(768, p.field);
    const tz = deviceTz(row);
    const sday = dayOf(p.sdate);
    const eday = p.edate ? dayOf(p.edate) : sday;
    const hasTime = (s: string) => s.trim().length > 10;
    const dayEnd = dayStartMs(addDays(sday, 1), tz);
    if (eday !== sday) {
      // One day per call; an edate at the next midnight still is that day.
      const nextMidnight =
        eday === addDays(sday, 1) && p.edate !== undefined && hasTime(p.edate) && parseLocal(p.edate, tz) === dayEnd;
      if (!nextMidnight) throw new ApiError(6, 'edate');
    }
    const from = hasTime(p.sdate) ? parseLocal(p.sdate, tz) : dayStartMs(sday, tz);
    const to = p.edate && hasTime(p.edate) ? Math.min(parseLocal(p.edate, tz) + 1, dayEnd) : dayEnd;
    if (to <= from) throw new ApiError(6, 'edate');
    const samples = await this.repo.samples(row.id, from, to);
    if (samples.length === 0) throw new ApiError(12);
    const out: Array<{ key: string; val: string }> = [];
    for (const s of samples) {
      const d = localizeSample(def, toSample(def, s.data), locale);
      const label = d.labels[f.id];
      const v = chartValue(def, d, f.id);
      if (label === undefined && v === undefined) continue;
      out.push({ key: fmtTs(s.ts, tz), val: label ?? v!.toFixed(p.precision) });
    }
    return out;
  }

  async keyParameterOneDay(
    caller: Caller,
    p: DeviceKey & { parameter: string; date: string },
  ): Promise<{ detail: ValTs[] }> {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    if (
      !(KEY_PARAMETERS as readonly string[]).includes(p.parameter) ||
      !def.keyParameters.some((k) => k.key === p.parameter)
    ) {
      throw new ApiError(6, 'parameter');
    }
    const w = await this.dayWindow(row, p.date);
    const samples = await this.repo.samples(row.id, w.from, w.to);
    if (samples.length === 0) throw new ApiError(12);
    const detail: ValTs[] = [];
    for (const s of samples) {
      const v = keyParameterValue(def, toSample(def, s.data), p.parameter as KeyParameter);
      if (v !== undefined) detail.push({ val: num4(v), ts: fmtTs(s.ts, w.tz) });
    }
    return { detail };
  }

  async outputPowerOneDay(caller: Caller, p: DeviceKey & { date: string }): Promise<ValTs[]> {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const samples = await this.repo.samples(row.id, w.from, w.to);
    if (samples.length === 0) throw new ApiError(12);
    return samples.map((s) => ({ val: num4(outputPowerW(def, toSample(def, s.data)) / 1000), ts: fmtTs(s.ts, w.tz) }));
  }

  private static tableFields(def: DeviceDefinition) {
    const panel = lastDataFields(def);
    return [...panel, ...def.fields.filter((f) => !f.internal && !panel.includes(f))];
  }

  private static tableRow(
    def: DeviceDefinition,
    fields: ReturnType<typeof DevicesService.tableFields>,
    s: { ts: number; data: Uint8Array },
    tz: number,
    latestTs: number | undefined,
    locale: string | undefined,
  ) {
    const d = localizeSample(def, toSample(def, s.data), locale);
    return {
      realtime: s.ts === latestTs,
      field: [
        String(s.ts),
        fmtTs(s.ts, tz),
        ...fields.map((f) => {
          const label = d.labels[f.id];
          const v = d.values[f.id];
          return label ?? (v === undefined ? '--' : v.toFixed(f.decimals));
        }),
      ],
    };
  }

  async dataOneDay(caller: Caller, p: DeviceKey & { date: string }, locale?: string) {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const [samples, latest] = await Promise.all([this.repo.samples(row.id, w.from, w.to), this.repo.latest([row.id])]);
    if (samples.length === 0) throw new ApiError(12);
    const fields = DevicesService.tableFields(def);
    const t = titleOf(def, locale);
    const title = [
      { title: 'id' },
      { title: wireText('Timestamp', locale) },
      ...fields.map((f) => (f.unit ? { title: t(f), unit: f.unit } : { title: t(f) })),
    ];
    const lts = latest.get(row.id)?.ts;
    return { title, row: samples.map((s) => DevicesService.tableRow(def, fields, s, w.tz, lts, locale)) };
  }

  async dataOneDayPaging(
    caller: Caller,
    p: DeviceKey & { date: string; page: number; pagesize: number },
    locale?: string,
  ) {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const total = await this.repo.countSamples(row.id, w.from, w.to);
    if (total === 0) throw new ApiError(12);
    const [samples, latest] = await Promise.all([
      this.repo.samplesPage(row.id, w.from, w.to, p.page, p.pagesize),
      this.repo.latest([row.id]),
    ]);
    const fields = DevicesService.tableFields(def);
    const t = titleOf(def, locale);
    const title = [
      { title: 'id', isDisplay: false },
      { title: wireText('Timestamp', locale), isDisplay: true },
      ...fields.map((f) =>
        f.unit ? { title: t(f), unit: f.unit, isDisplay: true } : { title: t(f), isDisplay: true },
      ),
    ];
    const lts = latest.get(row.id)?.ts;
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      title,
      row: samples.map((s) => DevicesService.tableRow(def, fields, s, w.tz, lts, locale)),
    };
  }

  // ---------------------------------------------------------------------------------------
  // Web extras
  // ---------------------------------------------------------------------------------------

  async statistic(caller: Caller, key: DeviceKey): Promise<DeviceStatisticDat> {
    const row = await this.resolve(caller, key);
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
    for (const k of kinds) byKind.set(k, (await generatedByDevice(this.ctx, [row], k)).get(row.id) ?? ZERO_PERIOD);
    for (const k of ENERGY_COUNTERS) energy[k] = fig(byKind.get(k) ?? ZERO_PERIOD);
    const latest = (await this.repo.latest([row.id])).get(row.id);
    return {
      currency: row.currency ?? '',
      kinds,
      energy,
      income: fig(byKind.get('generated') ?? ZERO_PERIOD, row.unit_profit ?? 0),
      lts: latest ? fmtTs(latest.ts, deviceTz(row)) : '',
    };
  }

  async energyChart(
    caller: Caller,
    p: DeviceKey & { view: 'day' | 'month' | 'year' | 'total'; date?: string | undefined },
  ): Promise<DeviceEnergyChartDat> {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const tz = deviceTz(row);
    const kinds = ENERGY_COUNTERS.filter((k) => def.energy[k] !== undefined);
    const today = localDay(this.ctx.now(), tz);
    const unitProfit = row.unit_profit ?? 0;
    const date = p.date?.trim() ?? '';
    let ts: string[] = [];
    const series: DeviceEnergyChartDat['series'] = [];
    if (p.view === 'day') {
      const day = date ? dayOf(date) : today;
      const from = dayStartMs(day, tz);
      const samples = await this.repo.samples(row.id, from - 3600_000, dayStartMs(addDays(day, 1), tz));
      ts = Array.from({ length: 24 }, (_, h) => `${dayTs(day).slice(0, 10)} ${String(h).padStart(2, '0')}:00:00`);
      // Energy per hour: growth of each cumulative counter within the hour (from the last value before it).
      const perKind = new Map<EnergyCounterName, number[]>(kinds.map((k) => [k, new Array<number>(24).fill(0)]));
      const last = new Map<EnergyCounterName, number>();
      for (const s of samples) {
        const c = energyCounters(def, toSample(def, s.data));
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
        const first = await this.ctx.db
          .selectFrom('device_days')
          .select((eb) => eb.fn.min('day').as('d'))
          .where('device_id', '=', row.id)
          .executeTakeFirst();
        const y0 = first?.d ? Math.floor(Number(first.d) / 10000) : Math.floor(today / 10000);
        const y1 = Math.floor(today / 10000);
        fromDay = y0 * 10000 + 101;
        toDay = y1 * 10000 + 1231;
        buckets = Array.from({ length: y1 - y0 + 1 }, (_, i) => y0 + i);
        bucket = 'year';
        ts = buckets.map((b) => dayTs(b * 10000 + 101));
      }
      for (const k of kinds) {
        const m = await energySeries(this.ctx.db, k, { deviceIds: [row.id] }, fromDay, toDay, bucket);
        series.push({ kind: k, val: buckets.map((b) => num4(m.get(b) ?? 0)) });
      }
    }
    const gen = series.find((s) => s.kind === 'generated');
    return {
      view: p.view,
      ts,
      series,
      income: ts.map((_, i) => num4(Number(gen?.val[i] ?? 0) * unitProfit)),
      currency: row.currency ?? '',
    };
  }

  async paramCurves(
    caller: Caller,
    p: DeviceKey & { fields: string[]; sdate: string; edate: string; mode: 'display' | 'compare' },
    locale?: string,
  ): Promise<{ curves: ParamCurve[] }> {
    const row = await this.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const charts = new Map(chartFields(def).map((f) => [f.id, f]));
    const selected = [...new Set(p.fields)];
    for (const id of selected) if (!charts.has(id)) throw new ApiError(768, id);
    const units = selected.map((id) => {
      const f = charts.get(id)!;
      return { unit: f.chart?.unit ?? f.unit ?? '' };
    });
    const rule = parameterSelectionError(units, p.mode);
    if (rule) throw new ApiError(6, rule);
    const tz = deviceTz(row);
    const sday = dayOf(p.sdate);
    const eday = dayOf(p.edate);
    if (eday < sday) throw new ApiError(6, 'rules.dateRange.order');
    if (addDays(sday, LIMITS.REPORT_MAX_DAYS - 1) < eday) throw new ApiError(6, 'rules.dateRange.reportTooLong');
    const samples = await this.repo.samples(row.id, dayStartMs(sday, tz), dayStartMs(addDays(eday, 1), tz));
    const curves: ParamCurve[] = selected.map((id) => {
      const f = charts.get(id)!;
      const name = translateDeviceText(f.chart?.name ?? f.title, { devcode: def.devcode, id, kind: 'chart' }, locale);
      return { field: id, name, unit: f.chart?.unit ?? f.unit ?? '', data: [] };
    });
    for (const s of samples) {
      const d = toSample(def, s.data);
      const at = fmtTs(s.ts, tz);
      for (const c of curves) {
        const v = chartValue(def, d, c.field);
        if (v !== undefined) c.data.push({ ts: at, val: num4(v) });
      }
    }
    return { curves };
  }

  async follow(caller: Caller, key: DeviceKey, on: boolean): Promise<undefined> {
    const row = await this.resolve(caller, key);
    if (on) await this.repo.follow(caller.accountId, row.id, this.ctx.now());
    else await this.repo.unfollow(caller.accountId, row.id);
    return undefined;
  }

  /** queryPlantDeviceChartsFieldsByType: the devcode must be used in the (visible) plant. */
  static chartsFieldsByType(devcode: number, locale?: string) {
    return toChartsFieldsByType(definitionOf(devcode), deviceWireOptions(locale));
  }
}
