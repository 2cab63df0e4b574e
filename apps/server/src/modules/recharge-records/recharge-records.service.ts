import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  ApiError,
  RECHARGE_CREDIT_STATES,
  RECHARGE_EXPORT_MAX_ROWS,
  RECHARGE_ROW_PNS,
  cardStatusName,
  currencyMinorDigits,
  minorToDecimal,
  type CardStatus,
  type Catalogue,
  type ParsedParamsOf,
  type RechargeCreditState,
  type RechargeRecordDetail,
  type RechargeRecordRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { TelemetryScope } from '../../access/access.repository.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';
import { fmtTs } from '../../shared/local-time.js';
import {
  RechargeOrdersRepository,
  type RechargeOrderFilter,
  type RechargeOrderItemRecord,
  type RechargeOrderRecord,
} from '../recharge-orders/recharge-orders.repository.js';
import { toRow } from '../recharge-orders/recharge-orders.service.js';
import { rechargeExportTexts, type RechargeExportTexts } from './recharge-export-texts.js';
import { RechargeRecordsRepository, type RecordCursor } from './recharge-records.repository.js';

type ListParams = ParsedParamsOf<Catalogue['queryMyRechargeOrders']>;
type ExportParams = ParsedParamsOf<Catalogue['exportMyRechargeOrders']>;

/** Orders read per batch while the export is written. */
export const RECHARGE_EXPORT_BATCH = 500;

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const filterOf = (p: ListParams | ExportParams): RechargeOrderFilter => ({
  search: p.search,
  status: p.status,
  area: p.area,
  method: p.method,
  start: p.start,
  end: p.end,
});

const distinct = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** The spreadsheet number format of an amount in `currency` (`#,##0.00`). */
function moneyFormat(currency: string): string {
  const d = currencyMinorDigits(currency);
  return d === 0 ? '#,##0' : `#,##0.${'0'.repeat(d)}`;
}

/** An epoch-ms time as a spreadsheet date showing the wall clock at `tz` seconds east of UTC. */
function cellTime(ms: number | null, tz: number): Date | null {
  return ms === null ? null : new Date(ms + tz * 1000);
}

/**
 * Issue 15 rechargeRecord: the recharge orders an owner, distributor, group account or
 * manufacturer may see (rechargeOrderScopeSql: placed in its subtrees, holding its dataloggers'
 * cards, or of its vendor), filtered and paged on the server, one order's cards, and the bounded
 * xlsx export (at most RECHARGE_EXPORT_MAX_ROWS orders, read in keyset batches and written through
 * exceljs's streaming writer). The operator's own list stays in recharge-orders. A viewer has no
 * records (refused by the catalogue's roles, and here by its scope). docs/money/recharge-records.md.
 */
export class RechargeRecordsService {
  readonly repo: RechargeRecordsRepository;
  private readonly orders: RechargeOrdersRepository;
  /** Most orders one export may hold (lowered by tests). */
  maxRows = RECHARGE_EXPORT_MAX_ROWS;

  constructor(
    root: Db,
    private readonly access: Pick<AccessService, 'scopeOf'>,
    private readonly now: Clock,
  ) {
    this.repo = new RechargeRecordsRepository(root);
    this.orders = new RechargeOrdersRepository(root);
  }

  private async scope(caller: Caller): Promise<TelemetryScope> {
    const scope = await this.access.scopeOf(caller);
    if (scope.kind === 'viewer') throw new ApiError(11);
    return scope;
  }

  private async rows(caller: Caller, records: RechargeOrderRecord[]): Promise<RechargeRecordRow[]> {
    const items = await this.orders.itemsOf(records.map((r) => r.id));
    const byOrder = new Map<number, RechargeOrderItemRecord[]>();
    for (const i of items) byOrder.set(i.order_id, [...(byOrder.get(i.order_id) ?? []), i]);
    return records.map((r) => this.row(caller, r, byOrder.get(r.id) ?? []));
  }

  private row(caller: Caller, r: RechargeOrderRecord, its: readonly RechargeOrderItemRecord[]): RechargeRecordRow {
    const { remedies: _remedies, ...base } = toRow(
      r,
      its.length,
      its.slice(0, RECHARGE_ROW_PNS).map((i) => i.pn),
      0,
    );
    return {
      ...base,
      loads: distinct(its.map((i) => i.load_count)).sort((a, b) => a - b),
      cardStatuses: distinct(its.map((i): CardStatus => cardStatusName(i.card_status))),
      own: r.account_id === caller.accountId,
    };
  }

  async list(
    caller: Caller,
    p: ListParams,
  ): Promise<{ total: number; page: number; pagesize: number; orders: RechargeRecordRow[] }> {
    const scope = await this.scope(caller);
    const filter = filterOf(p);
    const total = await this.repo.count(scope, filter);
    const records = await this.repo.list(scope, filter, p.pagesize, { offset: p.page * p.pagesize });
    return { total, page: p.page, pagesize: p.pagesize, orders: await this.rows(caller, records) };
  }

  /** One visible order with its cards; a foreign order answers like a missing one (372). */
  async detail(caller: Caller, id: number): Promise<RechargeRecordDetail> {
    const scope = await this.scope(caller);
    const order = await this.repo.visibleById(scope, id);
    if (!order) throw new ApiError(372);
    const items = await this.orders.itemsOf([id]);
    const expiries = await this.repo.expiries(
      scope,
      items.map((i) => i.pn),
    );
    return {
      order: this.row(caller, order, items),
      items: items.map((i) => ({
        id: i.id,
        pn: i.pn,
        ccid: i.ccid,
        load: i.load_count,
        cardStatus: cardStatusName(i.card_status),
        creditState: (RECHARGE_CREDIT_STATES as readonly string[]).includes(i.credit_state)
          ? (i.credit_state as RechargeCreditState)
          : 'none',
        expireAt: expiries.get(i.pn) ?? null,
      })),
    };
  }

  /**
   * The filtered orders as an xlsx (first sheet the orders, second the export's facts), in the
   * call's language, times at `tz`. Refuses an empty (264) or too large (13) result before
   * writing anything; the orders are read in keyset batches so memory holds one batch of rows.
   */
  async export(
    caller: Caller,
    p: ExportParams,
    locale: string,
  ): Promise<{ name: string; mime: string; size: number; rows: number; data: string }> {
    const scope = await this.scope(caller);
    const filter = filterOf(p);
    const total = await this.repo.count(scope, filter);
    if (total === 0) throw new ApiError(264);
    if (total > this.maxRows) throw new ApiError(13, String(this.maxRows));
    const tz = p.tz ?? 0;
    const t = rechargeExportTexts(locale);
    const at = this.now();

    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (c: Buffer) => chunks.push(c));
    const finished = new Promise<void>((resolve, reject) => {
      sink.on('end', resolve);
      sink.on('error', reject);
    });
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
    wb.creator = 'Sunwatch';
    wb.created = new Date(at);
    const ws = wb.addWorksheet(t.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    const head = headers(t);
    ws.columns = head.map((h) => ({
      header: h.title,
      width: h.width,
      ...(h.date ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
    }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: head.length } };

    let done = 0;
    let after: RecordCursor | undefined;
    while (done < this.maxRows) {
      const batch = await this.repo.list(scope, filter, Math.min(RECHARGE_EXPORT_BATCH, this.maxRows - done), {
        after,
      });
      if (batch.length === 0) break;
      const items = await this.orders.itemsOf(batch.map((r) => r.id));
      const byOrder = new Map<number, RechargeOrderItemRecord[]>();
      for (const i of items) byOrder.set(i.order_id, [...(byOrder.get(i.order_id) ?? []), i]);
      for (const r of batch) {
        const row = ws.addRow(cells(r, byOrder.get(r.id) ?? [], t, tz));
        row.getCell(AMOUNT_COL).numFmt = moneyFormat(r.currency);
        row.getCell(AMOUNT_COL + 1).numFmt = moneyFormat(r.currency);
        row.commit();
        done++;
      }
      const last = batch[batch.length - 1]!;
      after = { createdAt: last.created_at, id: last.id };
    }
    ws.commit();
    const info = wb.addWorksheet(t.info);
    info.addRow([t.title]).font = { bold: true, size: 14 };
    info.addRow([t.exported, `${fmtTs(at, tz)} (${utcOffset(tz)})`]);
    info.addRow([t.rows, done]);
    const f = filterOf(p);
    const set = Object.entries(f).filter(([, v]) => v !== undefined && v !== '');
    info.addRow([t.filters, set.length === 0 ? t.all : '']);
    for (const [k, v] of set) {
      info.addRow([k, k === 'start' || k === 'end' ? `${fmtTs(Number(v), tz)} (${utcOffset(tz)})` : String(v)]);
    }
    info.commit();
    await wb.commit();
    await finished;
    const data = Buffer.concat(chunks);
    const stamp = fmtTs(at, tz).replace(/[-:]/g, '').replace(' ', '-').slice(0, 13);
    return {
      name: `${t.title}_${stamp}.xlsx`,
      mime: XLSX_MIME,
      size: data.length,
      rows: done,
      data: data.toString('base64'),
    };
  }
}

/** "UTC+01:00" of seconds east of UTC. */
function utcOffset(tz: number): string {
  const sign = tz < 0 ? '-' : '+';
  const a = Math.abs(tz);
  return `UTC${sign}${String(Math.floor(a / 3600)).padStart(2, '0')}:${String(Math.floor((a % 3600) / 60)).padStart(2, '0')}`;
}

/** The 1-based column of the amount (the discount follows it). */
const AMOUNT_COL = 10;

function headers(t: RechargeExportTexts): Array<{ title: string; width: number; date?: boolean }> {
  const c = t.col;
  return [
    { title: c.orderNo, width: 22 },
    { title: c.state, width: 14 },
    { title: c.account, width: 16 },
    { title: c.vendor, width: 16 },
    { title: c.cards, width: 8 },
    { title: c.pns, width: 30 },
    { title: c.ccids, width: 46 },
    { title: c.package, width: 14 },
    { title: c.months, width: 8 },
    { title: c.amount, width: 12 },
    { title: c.discount, width: 12 },
    { title: c.currency, width: 9 },
    { title: c.method, width: 18 },
    { title: c.channel, width: 12 },
    { title: c.area, width: 18 },
    { title: c.load, width: 10 },
    { title: c.cardStatus, width: 18 },
    { title: c.providerRef, width: 20 },
    { title: c.created, width: 20, date: true },
    { title: c.paid, width: 20, date: true },
    { title: c.finished, width: 20, date: true },
  ];
}

/** The cells of one order, in the order of `headers`; amounts as numbers in the currency's unit. */
export function cells(
  r: RechargeOrderRecord,
  items: readonly RechargeOrderItemRecord[],
  t: RechargeExportTexts,
  tz: number,
): Array<string | number | Date | null> {
  const label = <K extends string>(m: Record<K, string>, v: string): string => (v in m ? m[v as K] : v);
  return [
    r.order_no,
    label(t.status, r.status),
    r.account_usr,
    r.vendor_usr ?? '',
    items.length,
    items.map((i) => i.pn).join(', '),
    items.map((i) => i.ccid).join(', '),
    r.package,
    r.months,
    Number(minorToDecimal(r.amount_minor, r.currency)),
    Number(minorToDecimal(r.discount_minor, r.currency)),
    r.currency,
    r.method ? label(t.method, r.method) : '',
    r.channel,
    r.area ? label(t.area, r.area) : '',
    distinct(items.map((i) => i.load_count)).join(', '),
    distinct(items.map((i) => t.card[cardStatusName(i.card_status)])).join(', '),
    r.provider_ref,
    cellTime(r.created_at, tz),
    cellTime(r.paid_at, tz),
    cellTime(r.finished_at, tz),
  ];
}
