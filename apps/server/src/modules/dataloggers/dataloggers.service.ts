import { ApiError, BATCH_MAX, statusFromListFilter, type CollectorRow, type WebCollectorRow } from '@sunwatch/protocol';
import type { AppContext, Caller } from '../../context.js';
import { scopeOf } from '../devices/devices.service.js';
import { PlantsService } from '../plants/plants.service.js';
import { fmtTs } from '../plants/telemetry-time.js';
import { DataloggersRepository, type DataloggerRow } from './dataloggers.repository.js';

const reposByCtx = new WeakMap<AppContext, DataloggersRepository>();
export function dataloggersRepo(ctx: AppContext): DataloggersRepository {
  let r = reposByCtx.get(ctx);
  if (!r) reposByCtx.set(ctx, (r = new DataloggersRepository(ctx.db)));
  return r;
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
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return dataloggersRepo(this.ctx);
  }

  async webList(
    caller: Caller,
    p: {
      pid?: number | undefined;
      devtype?: number | undefined;
      page: number;
      pagesize: number;
      status?: number | undefined;
      statusFilter?: number | undefined;
      search?: string | undefined;
      pn?: string | undefined;
    },
  ): Promise<{ total: number; page: number; pagesize: number; collector: WebCollectorRow[] }> {
    const scope = await scopeOf(this.ctx, caller);
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

  async queryCollectors(
    caller: Caller,
    p: {
      plantid?: number | undefined;
      pn?: string | undefined;
      status?: number | undefined;
      page: number;
      pagesize: number;
    },
  ) {
    const scope = await scopeOf(this.ctx, caller);
    // A plant the caller cannot see answers as a missing one (err 260).
    if (p.plantid !== undefined) await new PlantsService(this.ctx).require(caller, p.plantid, scope);
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
    const rows = await this.repo.byPns(await scopeOf(this.ctx, caller), unique);
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
