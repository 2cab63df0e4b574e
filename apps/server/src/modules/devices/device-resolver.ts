import { ApiError, BATCH_MAX, type DeviceDefinition } from '@sunwatch/protocol';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import { definitionOf, toSample, type Sample } from './device-sample.js';
import type { DeviceKey, DeviceRow, DevicesRepository } from './devices.repository.js';

/**
 * Finds the device a call names by its tuple (sn alone, pn + devaddr, or the full tuple) within
 * the caller's scope (access module): another tenant's device answers err 258 like a missing one.
 * Shared by every device service.
 */
export class DeviceResolver {
  constructor(
    private readonly access: Pick<AccessService, 'scopeOf'>,
    private readonly repo: Pick<DevicesRepository, 'find' | 'findWithLatest'>,
  ) {}

  /** The device named by the call's tuple, visible to the caller; err 7 without sn/pn, err 258 otherwise. */
  async resolve(caller: Caller, key: DeviceKey, scope?: TelemetryScope): Promise<DeviceRow> {
    if (!key.sn && !key.pn) throw new ApiError(7, 'sn');
    if (!key.sn && key.devaddr === undefined) throw new ApiError(7, 'devaddr');
    const row = await this.repo.find(scope ?? (await this.access.scopeOf(caller)), key);
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
    const row = await this.repo.findWithLatest(await this.access.scopeOf(caller), key);
    if (!row) throw new ApiError(258);
    const def = definitionOf(row.devcode);
    const live =
      row.latest_data != null && row.latest_ts != null
        ? { sample: toSample(def, row.latest_data), ts: Number(row.latest_ts) }
        : undefined;
    return { row, def, live };
  }

  /** `resolveLive`, err 12 when the device has no data yet. */
  async requireLive(caller: Caller, key: DeviceKey) {
    const r = await this.resolveLive(caller, key);
    if (!r.live) throw new ApiError(12);
    return { row: r.row, def: r.def, sample: r.live.sample, ts: r.live.ts };
  }

  /** queryDeviceInfo / queryDeviceStatus: the tuple, or `device=…;…` (≤ 256, fail fast). */
  async batch(caller: Caller, p: DeviceKey & { device?: DeviceKey[] | undefined }): Promise<DeviceRow[]> {
    const keys = p.device ?? [p];
    if (keys.length > BATCH_MAX) throw new ApiError(13, 'device');
    const scope = await this.access.scopeOf(caller);
    const out: DeviceRow[] = [];
    for (const k of keys) out.push(await this.resolve(caller, k, scope));
    return out;
  }
}
