import {
  ApiError,
  DEVICE_DEFINITIONS,
  RAW_HISTORY_MAX_MS,
  controlItems,
  dataloggerTypeFunctions,
  devcodeFunctions,
  getDefinition,
  translateDeviceText,
  type DataloggerTypeFunctionRow,
  type DeviceDefinition,
  type DeviceFunctionRow,
  type ProtocolControlRow,
  type ProtocolDefinitionRow,
  type ProtocolFaultRow,
  type ProtocolFieldRow,
  type RawParseDat,
  type RawSampleRow,
} from '@sunwatch/protocol';
import type { IngestLimitsConfig } from '../../config.js';
import type { ProtocolToolsRepository } from './protocol-tools.repository.js';
import { parseRaw, reparseStored } from './raw-parse.js';

/** Items of a control shown in its row (a long generated range is summarised by its count). */
const SAMPLE_ITEMS = 8;

interface Paging {
  page: number;
  pagesize: number;
}
interface Paged<T> {
  total: number;
  rows: T[];
}

function pageOf<T>(all: readonly T[], p: Paging): Paged<T> {
  return { total: all.length, rows: all.slice(p.page * p.pagesize, p.page * p.pagesize + p.pagesize) };
}

function contains(hay: string, q: string): boolean {
  return hay.toLowerCase().includes(q.toLowerCase());
}

/**
 * The operator's protocol tools and device functions (issue 14; docs/operator/protocol-tools.md).
 * Definitions are code (packages/protocol): their lists are filtered and paged here, in memory
 * (eight devcodes, a few hundred fields); what lives in the database (devices, samples, type codes)
 * is paged in SQL. Every action is operator-only, checked by the dispatcher (roles [15]).
 */
export class ProtocolToolsService {
  constructor(
    private readonly deps: { repo: ProtocolToolsRepository; limits: Pick<IngestLimitsConfig, 'maxValues'> },
  ) {}

  parse(p: { frame: string; devcode: number; start: number }, locale: string): RawParseDat {
    return parseRaw(p.frame, p.devcode, p.start, this.deps.limits, locale);
  }

  async storedRaw(
    p: { pn: string; devcode: number; devaddr: number; sn: string; from: number; to: number } & Paging,
    locale: string,
  ): Promise<Paged<RawSampleRow>> {
    if (p.to < p.from) throw new ApiError(6, 'to');
    if (p.to - p.from > RAW_HISTORY_MAX_MS) throw new ApiError(6, 'to');
    const dev = await this.deps.repo.device(p.pn, p.devcode, p.devaddr, p.sn);
    if (!dev) throw new ApiError(12);
    const { total, rows } = await this.deps.repo.samples(dev.id, p.from, p.to, p.page, p.pagesize);
    const id = { devcode: p.devcode, devaddr: p.devaddr, sn: p.sn };
    return {
      total,
      rows: rows.map((r) => ({
        ts: r.ts,
        device: reparseStored({ ...id, devcode: r.devcode ?? id.devcode }, r.data, this.deps.limits, locale),
      })),
    };
  }

  definitions(p: { q: string; kind: string } & Paging): Paged<ProtocolDefinitionRow> {
    const list = [...DEVICE_DEFINITIONS]
      .sort((a, b) => a.devcode - b.devcode)
      .filter((d) => p.kind === '' || d.kind === p.kind)
      .filter((d) => p.q === '' || String(d.devcode).includes(p.q) || contains(d.name, p.q) || contains(d.vendor, p.q));
    const page = pageOf(list, p);
    return { total: page.total, rows: page.rows.map(definitionRow) };
  }

  fields(p: { devcode: number; q: string; group: string } & Paging, locale: string): Paged<ProtocolFieldRow> {
    const def = this.def(p.devcode);
    const rows = def.fields.map((f): ProtocolFieldRow => ({
      id: f.id,
      title: translateDeviceText(f.title, { devcode: def.devcode, id: f.id, kind: 'field' }, locale),
      unit: f.unit ?? '',
      group: f.group ?? '',
      address: f.register.address,
      words: f.register.words,
      signed: f.register.signed === true,
      scale: f.scale,
      decimals: f.decimals,
      min: f.min ?? null,
      max: f.max ?? null,
      internal: f.internal === true,
      states: Object.entries(f.enum ?? {}).map(([key, label]) => ({
        key,
        label: translateDeviceText(label, { devcode: def.devcode, id: f.id, kind: 'enum' }, locale),
      })),
      chart: f.chart !== undefined,
    }));
    const q = p.q;
    return pageOf(
      rows.filter(
        (r) =>
          (p.group === '' || r.group === p.group) &&
          (q === '' ||
            contains(r.id, q) ||
            contains(r.title, q) ||
            contains(def.fields.find((f) => f.id === r.id)!.title, q) ||
            String(r.address) === q),
      ),
      p,
    );
  }

  controls(p: { devcode: number; q: string } & Paging, locale: string): Paged<ProtocolControlRow> {
    const def = this.def(p.devcode);
    const tr = (s: string, id: string, kind: 'control' | 'hint' | 'item') =>
      translateDeviceText(s, { devcode: def.devcode, id, kind }, locale);
    const rows = def.controls
      .filter(
        (c) => p.q === '' || contains(c.id, p.q) || contains(c.name, p.q) || contains(tr(c.name, c.id, 'control'), p.q),
      )
      .map((c): ProtocolControlRow => {
        const items = controlItems(c) ?? [];
        return {
          id: c.id,
          name: tr(c.name, c.id, 'control'),
          unit: c.unit ?? '',
          hint: c.hint ? tr(c.hint, c.id, 'hint') : '',
          type: c.type ?? (items.length > 0 ? 'choice' : 'number'),
          address: c.register.address,
          words: c.register.words,
          scale: c.scale,
          readback: c.readback ?? '',
          items: items.length,
          sample: items.slice(0, SAMPLE_ITEMS).map((it) => ({ key: it.key, val: tr(it.val, c.id, 'item') })),
          ranges: c.ranges ?? [],
        };
      });
    return pageOf(rows, p);
  }

  faults(p: { devcode: number; q: string } & Paging, locale: string): Paged<ProtocolFaultRow> {
    const def = this.def(p.devcode);
    const rows = def.faults
      .map((f) => ({
        ...f,
        text: translateDeviceText(f.description, { devcode: def.devcode, id: String(f.code), kind: 'fault' }, locale),
      }))
      .filter((f) => p.q === '' || String(f.code) === p.q || contains(f.description, p.q) || contains(f.text, p.q))
      .map((f): ProtocolFaultRow => ({ code: f.code, level: f.level, description: f.text }));
    return pageOf(rows, p);
  }

  async deviceFunctions(p: { q: string } & Paging): Promise<Paged<DeviceFunctionRow>> {
    const counts = await this.deps.repo.devicesByDevcode();
    const list = [...DEVICE_DEFINITIONS]
      .sort((a, b) => a.devcode - b.devcode)
      .filter((d) => p.q === '' || String(d.devcode).includes(p.q) || contains(d.name, p.q));
    const page = pageOf(list, p);
    return {
      total: page.total,
      rows: page.rows.map((d) => ({
        ...devcodeFunctions(d),
        name: d.name,
        kind: d.kind,
        devices: counts.get(d.devcode) ?? 0,
      })),
    };
  }

  async dataloggerTypeFunctions(p: { q: string } & Paging): Promise<Paged<DataloggerTypeFunctionRow>> {
    const { total, rows } = await this.deps.repo.typeCodes(p.q, p.page, p.pagesize);
    const d = await this.deps.repo.typeDetails(rows.map((r) => r.typeCode));
    const of = <T extends { type_code: string }>(list: T[], code: string) => list.filter((x) => x.type_code === code);
    return {
      total,
      rows: rows.map((r) => {
        const commMethods = of(d.comm, r.typeCode).map((x) => x.v);
        return {
          typeCode: r.typeCode,
          dataloggers: r.n,
          commMethods,
          models: of(d.models, r.typeCode).map((x) => x.v),
          devcodes: of(d.devcodes, r.typeCode).map((x) => x.v),
          defaultFirmwares: of(d.defaults, r.typeCode)[0]?.n ?? 0,
          ...dataloggerTypeFunctions(commMethods),
        };
      }),
    };
  }

  private def(devcode: number): DeviceDefinition {
    const def = getDefinition(devcode);
    if (!def) throw new ApiError(12);
    return def;
  }
}

function definitionRow(d: DeviceDefinition): ProtocolDefinitionRow {
  const addrs = d.fields.flatMap((f) => [f.register.address, f.register.address + f.register.words - 1]);
  return {
    devcode: d.devcode,
    name: d.name,
    vendor: d.vendor,
    kind: d.kind,
    category: d.category,
    devtype: d.devtype,
    deviceType: d.deviceType,
    origin: d.origin,
    ratedPower: d.ratedPower,
    fields: d.fields.length,
    controls: d.controls.length,
    faults: d.faults.length,
    registerMin: Math.min(...addrs),
    registerMax: Math.max(...addrs),
    notes: d.notes ?? '',
  };
}
