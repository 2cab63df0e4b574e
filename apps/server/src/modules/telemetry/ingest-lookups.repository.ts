import type { Db } from '../../db/db.js';

/** The reads of the ingestion path (its writes are `IngestStore.commit`): dataloggers by PN, devices by identity. */

export interface DataloggerLookupRow {
  id: number;
  pn: string;
  device_token_hash: string | null;
  project_id: number | null;
  tz_offset: number;
  created_at: number | string;
  project_tz: number | null;
  type_code: string;
}

/** Device identity: (datalogger, devcode, devaddr, SN). */
export interface DeviceIdentity {
  dataloggerId: number;
  devcode: number;
  devaddr: number;
  sn: string;
}

export interface DeviceLookupRow {
  id: number;
  datalogger_id: number;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  firmware: string;
}

const DATALOGGER_CHUNK = 500;
const DEVICE_CHUNK = 200;

export class IngestLookupRepository {
  constructor(private readonly db: Db) {}

  /** Dataloggers of these PNs with their plant's timezone (absent PNs have no row). */
  async dataloggersByPn(pns: readonly string[]): Promise<DataloggerLookupRow[]> {
    const out: DataloggerLookupRow[] = [];
    for (let i = 0; i < pns.length; i += DATALOGGER_CHUNK) {
      const rows = await this.db
        .selectFrom('dataloggers as d')
        .leftJoin('projects as p', 'p.id', 'd.project_id')
        .select([
          'd.id',
          'd.pn',
          'd.device_token_hash',
          'd.project_id',
          'd.tz_offset',
          'd.created_at',
          'p.tz_offset as project_tz',
          'd.type_code',
        ])
        .where('d.pn', 'in', pns.slice(i, i + DATALOGGER_CHUNK))
        .execute();
      out.push(...rows);
    }
    return out;
  }

  /** Stored devices of these identities (absent ones have no row). */
  async devicesByIdentity(ids: readonly DeviceIdentity[]): Promise<DeviceLookupRow[]> {
    const out: DeviceLookupRow[] = [];
    for (let i = 0; i < ids.length; i += DEVICE_CHUNK) {
      const chunk = ids.slice(i, i + DEVICE_CHUNK);
      const rows = await this.db
        .selectFrom('devices')
        .select(['id', 'datalogger_id', 'pn', 'devcode', 'devaddr', 'sn', 'firmware'])
        .where((eb) =>
          eb.or(
            chunk.map((w) =>
              eb.and([
                eb('datalogger_id', '=', w.dataloggerId),
                eb('devcode', '=', w.devcode),
                eb('devaddr', '=', w.devaddr),
                eb('sn', '=', w.sn),
              ]),
            ),
          ),
        )
        .execute();
      out.push(...rows);
    }
    return out;
  }
}
