import {
  ApiError,
  BATCH_MAX,
  statusFromListFilter,
  type Catalogue,
  type CollectorRow,
  type ParsedParamsOf,
  type WebCollectorRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import { fmtTs } from '../../shared/local-time.js';
import type { DataloggerRow, DataloggersRepository } from './dataloggers.repository.js';

export interface DataloggersServiceDeps {
  access: Pick<AccessService, 'scopeOf' | 'requireAccess'>;
  dataloggers: Pick<DataloggersRepository, 'list' | 'byPns' | 'devicesOf'>;
}

const tzOf = (r: DataloggerRow) => r.p_tz ?? r.tz_offset;

export function collectorRow(r: DataloggerRow): CollectorRow {
  return {
    pn: r.pn,
    alias: r.alias,
    datFetch: r.collect_interval,
    timezone: tzOf(r),
    load: r.load_count,
    status: r.status,
    uid: r.owner_id ?? 0,
    pid: r.project_id ?? 0,
  };
}

export class DataloggersService {
  private readonly repo: DataloggersServiceDeps['dataloggers'];

  constructor(private readonly deps: DataloggersServiceDeps) {
    this.repo = deps.dataloggers;
  }

  async webList(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['webQueryCollectorsEs']>,
  ): Promise<{ total: number; page: number; pagesize: number; collector: WebCollectorRow[] }> {
    const scope = await this.deps.access.scopeOf(caller);
    const { total, rows } = await this.repo.list(
      scope,
      {
        pid: p.pid,
        devtype: p.devtype,
        pn: p.pn,
        status: p.statusFilter !== undefined ? statusFromListFilter(p.statusFilter) : p.status,
        search: p.search?.trim() || undefined,
      },
      p.page,
      p.pagesize,
    );
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      collector: rows.map((r) => ({
        pn: r.pn,
        alias: r.alias,
        pid: r.project_id ?? 0,
        pname: r.pname ?? '',
        status: r.status,
        fireware: r.firmware,
        uid: r.owner_id ?? 0,
        usr: r.owner_usr ?? '',
        signal: r.signal,
        devices: r.devices,
        datFetch: r.collect_interval,
        timezone: tzOf(r),
        load: r.load_count,
        model: r.model,
        typeCode: r.type_code,
        lts: r.last_seen_at != null ? fmtTs(Number(r.last_seen_at), tzOf(r)) : '',
        gts: fmtTs(Number(r.created_at), tzOf(r)),
      })),
    };
  }

  async queryCollectors(caller: Caller, p: ParsedParamsOf<Catalogue['queryCollectors']>) {
    const scope = await this.deps.access.scopeOf(caller);
    // A plant the caller cannot see answers as a missing one (err 260).
    if (p.plantid !== undefined) {
      await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [p.plantid], scope });
    }
    const { total, rows } = await this.repo.list(
      scope,
      { pid: p.plantid, pn: p.pn, status: p.status },
      p.page,
      p.pagesize,
    );
    if (p.pn && total === 0) throw new ApiError(257);
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      collector: rows.map((r) => ({ ...collectorRow(r), type: r.type_code, fireware: r.firmware })),
    };
  }

  /** queryCollectorInfo / queryCollectorStatus: ≤ 256 PNs, failing fast on the first one not visible. */
  async batch(caller: Caller, pns: string[]): Promise<DataloggerRow[]> {
    if (pns.length > BATCH_MAX) throw new ApiError(13, 'pn');
    const unique = [...new Set(pns)];
    // Another tenant's PN answers err 257 with that PN, exactly like a missing one.
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: unique });
    const rows = await this.repo.byPns(unique);
    const byPn = new Map(rows.map((r) => [r.pn, r]));
    const missing = unique.find((pn) => !byPn.has(pn));
    if (missing !== undefined) throw new ApiError(257, missing);
    return unique.map((pn) => byPn.get(pn)!);
  }

  async devices(caller: Caller, pn: string) {
    const [dl] = await this.batch(caller, [pn]);
    const devs = await this.repo.devicesOf(dl!.id);
    if (devs.length === 0) throw new ApiError(258);
    return { pn, dev: devs };
  }
}
