import { ApiError, ROLE, type CommandAck, type DeviceDefinition, type ErrorCode } from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { Db } from '../../../db/db.js';
import { currentDb } from '../../../db/transaction.js';
import type { DeviceResolver } from '../device-resolver.js';
import { definitionOf } from '../device-sample.js';
import type { DeviceKey, DeviceRow } from '../devices.repository.js';

/** A device an operation is about: its row (caller's scope), definition and datalogger facts. */
export interface DeviceTarget {
  row: DeviceRow;
  def: DeviceDefinition;
  /** The datalogger's manufacturer and owner (the device-control password's domain). */
  dl: { vendorId: number | null; ownerId: number | null; tz: number };
  /** The tuple as stored (what commands and the operation history carry). */
  tuple: { devcode: number; devaddr: number; sn: string };
}

/**
 * Finds devices for operations: the caller's scope (another tenant's device → 258, like a
 * missing one) and, for writes, the read-only rule (viewers → 11, spec §6).
 */
export class DeviceTargets {
  constructor(
    private readonly deps: {
      db: Db;
      resolver: Pick<DeviceResolver, 'resolve'>;
    },
  ) {}

  async find(caller: Caller, key: DeviceKey): Promise<DeviceTarget> {
    const row = await this.deps.resolver.resolve(caller, key);
    const def = definitionOf(row.devcode);
    const dl = await currentDb(this.deps.db)
      .selectFrom('dataloggers')
      .select(['vendor_id', 'owner_id', 'tz_offset'])
      .where('id', '=', row.datalogger_id)
      .executeTakeFirst();
    return {
      row,
      def,
      dl: { vendorId: dl?.vendor_id ?? null, ownerId: dl?.owner_id ?? null, tz: Number(dl?.tz_offset ?? 0) },
      tuple: { devcode: row.devcode, devaddr: row.devaddr, sn: row.sn },
    };
  }

  /** `find`, refused with 11 for read-only callers (viewers). */
  async forWrite(caller: Caller, key: DeviceKey): Promise<DeviceTarget> {
    // Read-only first, as the dispatcher orders its checks (a viewer learns nothing about the device).
    if (caller.role === ROLE.VIEWER) throw new ApiError(11);
    return this.find(caller, key);
  }
}

/** The device-control errors of spec §8 a datalogger may answer; anything else counts as 1 (failed). */
const ACK_CODES: ReadonlySet<number> = new Set<ErrorCode>([1, 6, 8, 9]);

/** The err of a negative ack: its code when it is a device-control error (1, 6, 8, 9), else 1. */
export function ackErr(ack: CommandAck): ErrorCode {
  return ack.code !== undefined && ACK_CODES.has(ack.code) ? (ack.code as ErrorCode) : 1;
}

/** The err code of a thrown error (ApiError's code, 3 for anything else). */
export function errCode(e: unknown): ErrorCode {
  return e instanceof ApiError ? e.code : 3;
}
