import { getDefinition, type DeviceDefinition } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';

/**
 * A device's devcode history (operator protocolChange, issue 14; table `device_devcode_changes`):
 * a sample stored before a change was encoded with the devcode in force then, so it decodes with
 * that devcode's definition. `olderDefs` gives, for the samples of some devices in [from, …), the
 * definition to decode each with when it is not the device's current one.
 */
export interface DevcodePeriods {
  /** The definition in force at `ts` for a device, or undefined when it is the current devcode's. */
  at(deviceId: number, ts: number): DeviceDefinition | undefined;
}

const NONE: DevcodePeriods = { at: () => undefined };

export async function olderDefs(db: Db, deviceIds: readonly number[], from: number): Promise<DevcodePeriods> {
  if (deviceIds.length === 0) return NONE;
  const rows = await db
    .selectFrom('device_devcode_changes')
    .select(['device_id', 'old_devcode', 'from_ts'])
    .where('device_id', 'in', deviceIds)
    .where('from_ts', '>', from)
    .orderBy('from_ts')
    .execute();
  if (rows.length === 0) return NONE;
  const byDevice = new Map<number, Array<{ until: number; devcode: number }>>();
  for (const r of rows) {
    const id = Number(r.device_id);
    let l = byDevice.get(id);
    if (!l) byDevice.set(id, (l = []));
    l.push({ until: Number(r.from_ts), devcode: Number(r.old_devcode) });
  }
  return {
    at(deviceId, ts) {
      const l = byDevice.get(deviceId);
      if (!l) return undefined;
      // the first change after the sample: the sample was stored under that change's old devcode
      const c = l.find((x) => ts < x.until);
      return c ? getDefinition(c.devcode) : undefined;
    },
  };
}
