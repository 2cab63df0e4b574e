import { DEVICE_STATUS } from '@sunwatch/protocol';
import type { Clock } from '../../shared/clock.js';
import type { IngestLookupCache } from './ingest-cache.js';
import type { IngestLookupRepository } from './ingest-lookups.repository.js';
import type { NewDevice } from './ingest-store.js';
import type { DataloggerEntry, DeviceEntry, PreparedDevice } from './ingest.types.js';

/** A device first heard of: registered by the batch's write transaction, which sets `entry.id`. */
export type Registration = NewDevice & { entry: DeviceEntry };

export interface WantedDevice {
  dl: DataloggerEntry;
  p: PreparedDevice;
}

/**
 * Device rows of a batch's entries (docs/security/ingest.md promises 5 and 7): cached, else looked
 * up by identity (datalogger, devcode, devaddr, SN); a device not stored yet gets an entry with id 0
 * and a registration that the write transaction performs, so a failed or refused batch leaves no
 * device behind. `registered` caches the new rows once their transaction committed.
 */
export class DeviceRegistrar {
  constructor(
    private readonly cache: Pick<IngestLookupCache, 'device' | 'putDevice'>,
    private readonly lookups: Pick<IngestLookupRepository, 'devicesByIdentity'>,
    private readonly now: Clock,
  ) {}

  async resolve(wanted: readonly WantedDevice[]): Promise<{ devices: DeviceEntry[]; register: Registration[] }> {
    const keyOf = (w: WantedDevice) => `${w.dl.id}|${w.p.dev.devcode}|${w.p.dev.devaddr}|${w.p.dev.sn}`;
    const found = new Map<string, DeviceEntry>();
    const missing = new Map<string, WantedDevice>();
    for (const w of wanted) {
      const k = keyOf(w);
      const c = this.cache.device(k);
      if (c) found.set(k, c);
      else missing.set(k, w);
    }
    const register: Registration[] = [];
    if (missing.size > 0) {
      const rows = await this.lookups.devicesByIdentity(
        [...missing.values()].map((w) => ({
          dataloggerId: w.dl.id,
          devcode: w.p.def.devcode,
          devaddr: w.p.dev.devaddr,
          sn: w.p.dev.sn,
        })),
      );
      for (const r of rows) {
        const k = `${r.datalogger_id}|${r.devcode}|${r.devaddr}|${r.sn}`;
        const w = missing.get(k);
        if (!w) continue;
        const e: DeviceEntry = {
          id: r.id,
          dataloggerId: r.datalogger_id,
          def: w.p.def,
          expires: 0,
          firmware: r.firmware,
        };
        this.cache.putDevice(k, e);
        found.set(k, e);
      }
      const created = this.now();
      for (const [k, w] of missing) {
        if (found.has(k)) continue;
        // Registered with firmware '' (the insert may lose a race to another instance's): a frame's
        // `fw` is then written by the same transaction like any change (ingest-planner.ts).
        const entry: DeviceEntry = { id: 0, dataloggerId: w.dl.id, def: w.p.def, expires: 0, firmware: '' };
        found.set(k, entry);
        register.push({
          key: k,
          entry,
          row: {
            datalogger_id: w.dl.id,
            pn: w.dl.pn,
            devcode: w.p.def.devcode,
            devaddr: w.p.dev.devaddr,
            sn: w.p.dev.sn,
            devtype: w.p.def.devtype,
            device_type: w.p.def.deviceType,
            model: w.p.def.name.slice(0, 64),
            brand: String(w.p.def.brand),
            status: DEVICE_STATUS.NORMAL,
            project_id: w.dl.projectId,
            created_at: created,
          },
        });
      }
    }
    return { devices: wanted.map((w) => found.get(keyOf(w))!), register };
  }

  /** After the commit: the registered devices (ids set by the transaction) are cached. */
  registered(register: readonly Registration[]): void {
    for (const r of register) this.cache.putDevice(r.key, r.entry);
  }
}
