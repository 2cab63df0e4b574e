import {
  ApiError,
  chartFields,
  chartValue,
  keyParameterValue,
  lastDataFields,
  localizeSample,
  parameterSelectionError,
  translateDeviceText,
  KEY_PARAMETERS,
  LIMITS,
  type Catalogue,
  type DeviceDefinition,
  type KeyParameter,
  type ParamCurve,
  type ParsedParamsOf,
  type ValTs,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import { addDays, dayOf, dayStartMs, fmtTs, parseLocal } from '../../shared/local-time.js';
import { num4 } from '../../shared/wire-format.js';
import { definitionOf, outputPowerW, toSample } from './device-sample.js';
import type { DeviceResolver } from './device-resolver.js';
import { titleOf, wireText } from './device-text.js';
import { deviceTz, type DeviceRow, type DevicesRepository } from './devices.repository.js';

type Params<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;

export interface DeviceCurvesServiceDeps {
  resolver: Pick<DeviceResolver, 'resolve'>;
  devices: Pick<DevicesRepository, 'samples' | 'countSamples' | 'samplesPage' | 'latest'>;
}

/** Day curves and tables of one device from its raw samples, and multi-day parameter curves. */
export class DeviceCurvesService {
  constructor(private readonly deps: DeviceCurvesServiceDeps) {}

  private async dayWindow(row: DeviceRow, date: string) {
    const tz = deviceTz(row);
    const day = dayOf(date);
    const from = dayStartMs(day, tz);
    return { tz, day, from, to: dayStartMs(addDays(day, 1), tz) };
  }

  async chartFieldDetail(
    caller: Caller,
    p: Params<'queryDeviceChartFieldDetailData'>,
    locale?: string,
  ): Promise<Array<{ key: string; val: string }>> {
    const row = await this.deps.resolver.resolve(caller, p);
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
    const samples = await this.deps.devices.samples(row.id, from, to);
    if (samples.length === 0) throw new ApiError(12);
    const out: Array<{ key: string; val: string }> = [];
    for (const s of samples) {
      const sd = s.def ?? def;
      const d = localizeSample(sd, toSample(sd, s.data), locale);
      const label = d.labels[f.id];
      const v = chartValue(def, d, f.id);
      if (label === undefined && v === undefined) continue;
      out.push({ key: fmtTs(s.ts, tz), val: label ?? v!.toFixed(p.precision) });
    }
    return out;
  }

  async keyParameterOneDay(caller: Caller, p: Params<'querySPDeviceKeyParameterOneDay'>): Promise<{ detail: ValTs[] }> {
    const row = await this.deps.resolver.resolve(caller, p);
    const def = definitionOf(row.devcode);
    if (
      !(KEY_PARAMETERS as readonly string[]).includes(p.parameter) ||
      !def.keyParameters.some((k) => k.key === p.parameter)
    ) {
      throw new ApiError(6, 'parameter');
    }
    const w = await this.dayWindow(row, p.date);
    const samples = await this.deps.devices.samples(row.id, w.from, w.to);
    if (samples.length === 0) throw new ApiError(12);
    const detail: ValTs[] = [];
    for (const s of samples) {
      const v = keyParameterValue(s.def ?? def, toSample(s.def ?? def, s.data), p.parameter as KeyParameter);
      if (v !== undefined) detail.push({ val: num4(v), ts: fmtTs(s.ts, w.tz) });
    }
    return { detail };
  }

  async outputPowerOneDay(caller: Caller, p: Params<'queryDeviceActiveOuputPowerOneDay24Hour'>): Promise<ValTs[]> {
    const row = await this.deps.resolver.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const samples = await this.deps.devices.samples(row.id, w.from, w.to);
    if (samples.length === 0) throw new ApiError(12);
    return samples.map((s) => ({
      val: num4(outputPowerW(s.def ?? def, toSample(s.def ?? def, s.data)) / 1000),
      ts: fmtTs(s.ts, w.tz),
    }));
  }

  private static tableFields(def: DeviceDefinition) {
    const panel = lastDataFields(def);
    return [...panel, ...def.fields.filter((f) => !f.internal && !panel.includes(f))];
  }

  private static tableRow(
    def: DeviceDefinition,
    fields: ReturnType<typeof DeviceCurvesService.tableFields>,
    s: { ts: number; data: Uint8Array; def?: DeviceDefinition },
    tz: number,
    latestTs: number | undefined,
    locale: string | undefined,
  ) {
    const d = localizeSample(s.def ?? def, toSample(s.def ?? def, s.data), locale);
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

  async dataOneDay(caller: Caller, p: Params<'queryDeviceDataOneDay'>, locale?: string) {
    const row = await this.deps.resolver.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const [samples, latest] = await Promise.all([
      this.deps.devices.samples(row.id, w.from, w.to),
      this.deps.devices.latest([row.id]),
    ]);
    if (samples.length === 0) throw new ApiError(12);
    const fields = DeviceCurvesService.tableFields(def);
    const t = titleOf(def, locale);
    const title = [
      { title: 'id' },
      { title: wireText('Timestamp', locale) },
      ...fields.map((f) => (f.unit ? { title: t(f), unit: f.unit } : { title: t(f) })),
    ];
    const lts = latest.get(row.id)?.ts;
    return { title, row: samples.map((s) => DeviceCurvesService.tableRow(def, fields, s, w.tz, lts, locale)) };
  }

  async dataOneDayPaging(caller: Caller, p: Params<'queryDeviceDataOneDayPaging'>, locale?: string) {
    const row = await this.deps.resolver.resolve(caller, p);
    const def = definitionOf(row.devcode);
    const w = await this.dayWindow(row, p.date);
    const total = await this.deps.devices.countSamples(row.id, w.from, w.to);
    if (total === 0) throw new ApiError(12);
    const [samples, latest] = await Promise.all([
      this.deps.devices.samplesPage(row.id, w.from, w.to, p.page, p.pagesize),
      this.deps.devices.latest([row.id]),
    ]);
    const fields = DeviceCurvesService.tableFields(def);
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
      row: samples.map((s) => DeviceCurvesService.tableRow(def, fields, s, w.tz, lts, locale)),
    };
  }

  async paramCurves(
    caller: Caller,
    p: Params<'webQueryDeviceParamCurves'>,
    locale?: string,
  ): Promise<{ curves: ParamCurve[] }> {
    const row = await this.deps.resolver.resolve(caller, p);
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
    const samples = await this.deps.devices.samples(row.id, dayStartMs(sday, tz), dayStartMs(addDays(eday, 1), tz));
    const curves: ParamCurve[] = selected.map((id) => {
      const f = charts.get(id)!;
      const name = translateDeviceText(f.chart?.name ?? f.title, { devcode: def.devcode, id, kind: 'chart' }, locale);
      return { field: id, name, unit: f.chart?.unit ?? f.unit ?? '', data: [] };
    });
    for (const s of samples) {
      const d = toSample(s.def ?? def, s.data);
      const at = fmtTs(s.ts, tz);
      for (const c of curves) {
        const v = chartValue(s.def ?? def, d, c.field);
        if (v !== undefined) c.data.push({ ts: at, val: num4(v) });
      }
    }
    return { curves };
  }
}
