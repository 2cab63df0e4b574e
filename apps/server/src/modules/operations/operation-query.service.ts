import { ApiError, OPERATION_KINDS, upgradeReasonText, type OperationLogRow } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { addDays, dayOf, dayStartMs, fmtTs, localDay } from '../../shared/local-time.js';

export interface OperationQuery {
  pn?: string | undefined;
  devcode?: number | undefined;
  devaddr?: number | undefined;
  sn?: string | undefined;
  sdate?: string | undefined;
  edate?: string | undefined;
  kind?: string | undefined;
  page: number;
  pagesize: number;
}

/** Default window of the history when no dates are given: the last 31 local days. */
const DEFAULT_DAYS = 31;

/**
 * An entry's detail in the reader's language. Upgrade outcomes store the engine's reason code
 * (`reason:<code>[|<detail>]`, protocol firmware.ts), translated here like the upgrade lists do;
 * rows written before that (English prose) and every other kind's free text are shown as stored.
 */
export function operationDetailText(kind: string, detail: string | null, locale: string | undefined): string {
  if (!detail) return '';
  return kind === 'upgrade' ? upgradeReasonText(detail, locale) : detail;
}

/**
 * webQueryOperationLog: the operation history of a datalogger (pn: its own operations and its
 * devices') or of one device (its tuple, or sn), newest first, in the datalogger's timezone.
 * Readable by whoever may see that datalogger or device (257 / 258 otherwise, like a missing one).
 * Details are given in `locale` where the entry stores a code (`operationDetailText`).
 */
export class OperationQueryService {
  constructor(
    private readonly deps: {
      db: Db;
      access: Pick<AccessService, 'requireAccess'>;
      /** The devices module's resolver (caller's scope, 258 otherwise); structural, so operations imports nothing of devices. */
      resolver: {
        resolve(
          caller: Caller,
          key: { pn?: string | undefined; devcode?: number | undefined; devaddr?: number | undefined; sn?: string | undefined },
        ): Promise<{ pn: string; sn: string }>;
      };
      now: () => number;
    },
  ) {}

  async query(caller: Caller, p: OperationQuery, locale?: string) {
    if (p.kind !== undefined && p.kind !== '' && !(OPERATION_KINDS as readonly string[]).includes(p.kind))
      throw new ApiError(6, 'kind');
    const deviceAsked = p.sn !== undefined || p.devaddr !== undefined || p.devcode !== undefined;
    let pn: string;
    let sn: string | undefined;
    if (deviceAsked) {
      const d = await this.deps.resolver.resolve(caller, p);
      pn = d.pn;
      sn = d.sn;
    } else {
      if (!p.pn) throw new ApiError(7, 'pn');
      await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: [p.pn] });
      pn = p.pn;
    }
    const dl = await this.deps.db.selectFrom('dataloggers').select('tz_offset').where('pn', '=', pn).executeTakeFirst();
    const tz = Number(dl?.tz_offset ?? 0);
    const toDay = p.edate ? dayOf(p.edate) : localDay(this.deps.now(), tz);
    const fromDay = p.sdate ? dayOf(p.sdate) : addDays(toDay, -(DEFAULT_DAYS - 1));
    if (toDay < fromDay) throw new ApiError(6, 'edate');
    const from = dayStartMs(fromDay, tz);
    const to = dayStartMs(addDays(toDay, 1), tz);
    let q = this.deps.db
      .selectFrom('operation_log')
      .where('pn', '=', pn)
      .where('ts', '>=', from)
      .where('ts', '<', to);
    if (sn !== undefined) q = q.where('sn', '=', sn);
    if (p.kind) q = q.where('kind', '=', p.kind);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q
      .selectAll()
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    const log: OperationLogRow[] = rows.map((r) => ({
      id: Number(r.id),
      gts: fmtTs(Number(r.ts), tz),
      usr: r.usr ?? '',
      action: r.action,
      kind: r.kind,
      pn: r.pn,
      devcode: r.devcode === null ? null : Number(r.devcode),
      devaddr: r.devaddr === null ? null : Number(r.devaddr),
      sn: r.sn,
      target: r.target,
      before: r.before ?? '',
      after: r.after ?? '',
      result: Number(r.result),
      detail: operationDetailText(r.kind, r.detail, locale),
    }));
    return { total, page: p.page, pagesize: p.pagesize, log };
  }
}
