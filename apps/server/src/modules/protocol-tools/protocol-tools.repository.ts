import type { Db } from '../../db/db.js';
import { olderDefs } from '../devices/devcode-history.js';

/** Reads of the operator's protocol tools (issue 14). The operator sees the whole platform. */
export class ProtocolToolsRepository {
  constructor(private readonly db: () => Db) {}

  async device(pn: string, devcode: number, devaddr: number, sn: string): Promise<{ id: number } | undefined> {
    const r = await this.db()
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', pn)
      .where('devcode', '=', devcode)
      .where('devaddr', '=', devaddr)
      .where('sn', '=', sn)
      .executeTakeFirst();
    return r ? { id: Number(r.id) } : undefined;
  }

  /** A device's samples in [from, to], newest first, one page. */
  async samples(
    deviceId: number,
    from: number,
    to: number,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: Array<{ ts: number; data: Uint8Array; devcode?: number }> }> {
    const q = this.db()
      .selectFrom('samples')
      .where('device_id', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<=', to);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .select(['ts', 'data'])
      .orderBy('ts', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    // a sample stored before a devcode change (protocolChange) re-parses with the devcode of its time
    const older = await olderDefs(this.db(), [deviceId], from);
    return {
      total,
      rows: rows.map((r) => ({ ts: Number(r.ts), data: r.data, devcode: older.at(deviceId, Number(r.ts))?.devcode })),
    };
  }

  /** Devices per devcode over the platform. */
  async devicesByDevcode(): Promise<Map<number, number>> {
    const rows = await this.db()
      .selectFrom('devices')
      .select(['devcode', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('devcode')
      .execute();
    return new Map(rows.map((r) => [Number(r.devcode), Number(r.n)]));
  }

  /** Datalogger type codes (`q`: one code, case-insensitive) with their count; paged (a few dozen codes at most: one letter each). */
  async typeCodes(
    q: string,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: Array<{ typeCode: string; n: number }> }> {
    let base = this.db().selectFrom('dataloggers');
    if (q !== '') base = base.where((eb) => eb(eb.fn('lower', ['type_code']), '=', q.toLowerCase()));
    const all = await base
      .select(['type_code', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('type_code')
      .orderBy('type_code')
      .execute();
    const total = all.length;
    const rows = all
      .slice(page * pagesize, page * pagesize + pagesize)
      .map((r) => ({ typeCode: r.type_code, n: Number(r.n) }));
    return { total, rows };
  }

  /** Per type code: its distinct communication methods, models and reported devcodes. */
  async typeDetails(typeCodes: string[]): Promise<{
    comm: Array<{ type_code: string; v: string }>;
    models: Array<{ type_code: string; v: string }>;
    devcodes: Array<{ type_code: string; v: number }>;
    defaults: Array<{ type_code: string; n: number }>;
  }> {
    if (typeCodes.length === 0) return { comm: [], models: [], devcodes: [], defaults: [] };
    const db = this.db();
    const comm = await db
      .selectFrom('dataloggers')
      .select(['type_code', 'comm_method as v'])
      .distinct()
      .where('type_code', 'in', typeCodes)
      .where('comm_method', '!=', '')
      .orderBy('comm_method')
      .execute();
    const models = await db
      .selectFrom('dataloggers')
      .select(['type_code', 'model as v'])
      .distinct()
      .where('type_code', 'in', typeCodes)
      .where('model', '!=', '')
      .orderBy('model')
      .execute();
    const devcodes = await db
      .selectFrom('devices as d')
      .innerJoin('dataloggers as dl', 'dl.id', 'd.datalogger_id')
      .select(['dl.type_code as type_code', 'd.devcode as v'])
      .distinct()
      .where('dl.type_code', 'in', typeCodes)
      .orderBy('d.devcode')
      .execute();
    const defaults = await db
      .selectFrom('default_firmwares')
      .select(['datalogger_type as type_code', (eb) => eb.fn.countAll<number>().as('n')])
      .where('datalogger_type', 'in', typeCodes)
      .groupBy('datalogger_type')
      .execute();
    return {
      comm,
      models,
      devcodes: devcodes.map((r) => ({ type_code: r.type_code, v: Number(r.v) })),
      defaults: defaults.map((r) => ({ type_code: r.type_code, n: Number(r.n) })),
    };
  }
}
