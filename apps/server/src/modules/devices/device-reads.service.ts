import {
  ApiError,
  chartFields,
  chartValue,
  deviceWireOptions,
  localizeSample,
  toChartsFields,
  toChartsFieldsByType,
  toDeviceParsEs,
  toEnergyFlow,
  toKeyParameters,
  toLastDataList,
  toSPLastData,
  type ValTs,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { fmtTs } from '../../shared/local-time.js';
import { num4 } from '../../shared/wire-format.js';
import { definitionOf, OFFLINE } from './device-sample.js';
import type { DeviceResolver } from './device-resolver.js';
import { wireText } from './device-text.js';
import { deviceTz, type DeviceKey } from './devices.repository.js';

export interface DeviceReadsServiceDeps {
  resolver: Pick<DeviceResolver, 'resolve' | 'resolveLive' | 'requireLive'>;
  now: Clock;
}

/** queryPlantDeviceChartsFieldsByType: the chart fields of a devcode (the plant is checked by the caller). */
export function chartsFieldsByType(devcode: number, locale?: string) {
  return toChartsFieldsByType(definitionOf(devcode), deviceWireOptions(locale));
}

/** Real-time reads of one device (device_latest): last data, energy flow, parameters, chart fields. */
export class DeviceReadsService {
  constructor(private readonly deps: DeviceReadsServiceDeps) {}

  async lastDataList(caller: Caller, key: DeviceKey, locale?: string) {
    const { row, def, sample, ts } = await this.deps.resolver.requireLive(caller, key);
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
    const { row, def, sample, ts } = await this.deps.resolver.requireLive(caller, key);
    return toSPLastData(def, localizeSample(def, sample, locale), fmtTs(ts, deviceTz(row)), deviceWireOptions(locale));
  }

  async energyFlow(caller: Caller, key: DeviceKey) {
    const { row, def, live: l } = await this.deps.resolver.resolveLive(caller, key);
    const sample = l?.sample ?? { values: {}, labels: {} };
    const date = fmtTs(l?.ts ?? this.deps.now(), deviceTz(row));
    return toEnergyFlow(def, sample, { status: row.status, date });
  }

  async parsEs(caller: Caller, key: DeviceKey, locale?: string) {
    const { def, live } = await this.deps.resolver.resolveLive(caller, key);
    const sample = localizeSample(def, live?.sample ?? { values: {}, labels: {} }, locale);
    return toDeviceParsEs(def, sample, deviceWireOptions(locale));
  }

  async chartsFields(caller: Caller, key: DeviceKey, locale?: string) {
    const row = await this.deps.resolver.resolve(caller, key);
    return toChartsFields(definitionOf(row.devcode), row.owner_id ?? 0, deviceWireOptions(locale));
  }

  async keyParameters(caller: Caller, key: DeviceKey) {
    const row = await this.deps.resolver.resolve(caller, key);
    return toKeyParameters(definitionOf(row.devcode));
  }

  async realLastData(caller: Caller, key: DeviceKey, locale?: string): Promise<Record<string, ValTs>> {
    const live = await this.deps.resolver.requireLive(caller, key);
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
}
