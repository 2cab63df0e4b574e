import ExcelJS from 'exceljs';
import type { RoleFunctionsReader } from '../../../access/permissions.js';
import { ApiError, EXPORT_STATUS, type ExportFileRow } from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../../db/db.js';
import type { ExportFilesTable } from '../../../db/schema.js';
import type { DbHandle } from '../../../db/transaction.js';
import { dayString, fmtTs } from '../../../shared/local-time.js';
import type { Keyring } from '../../../security/keyring.js';
import type { AccountsRepository } from '../../accounts/accounts.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { JobLease, lastAttempt, type LeasedQueue } from '../../../db/job-lease.js';
import { jobCaller } from '../../accounts/job-caller.js';
import type { OperationLog } from '../../operations/operation-log.service.js';
import type { DeviceCurvesService } from '../device-curves.service.js';
import { deviceTz, type DeviceKey, type DevicesRepository } from '../devices.repository.js';
import { dayRange } from './day-range.js';
import type { DeviceTargets } from './device-target.js';

/** How long a download address stays valid. */
export const EXPORT_URL_TTL_S = 300;
/** The download route (registered by `registerExportRoutes`). */
export const EXPORT_ROUTE = '/export/file';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type FileRow = {
  id: number;
  name: string;
  size: number;
  status: number;
  progress: number;
  created_at: number;
  pn: string;
  sn: string;
  sdate: string;
  edate: string;
};

function toWire(r: FileRow): ExportFileRow {
  return {
    id: Number(r.id),
    name: r.name,
    size: Number(r.size),
    status: Number(r.status),
    progress: Number(r.progress),
    gts: fmtTs(Number(r.created_at), 0),
    pn: r.pn,
    sn: r.sn,
    sdate: r.sdate,
    edate: r.edate,
  };
}

/** A file name without path or control characters. */
function safeName(s: string): string {
  const printable = [...s].map((ch) => (ch.charCodeAt(0) < 0x20 ? '_' : ch)).join('');
  return printable.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80) || 'device';
}

/** A cell: numbers as numbers (so spreadsheets can sum them), the rest as text. */
function cell(v: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

/** The columns of an export job the builder reads (db/schema.ts `ExportFilesTable`). */
type JobRow = Pick<
  Selectable<ExportFilesTable>,
  'id' | 'account_id' | 'pn' | 'sn' | 'device_id' | 'sdate' | 'edate' | 'locale' | 'attempts'
>;

/**
 * Device report export (spec §2 "report export", §3 "Export file", §5: range ≤ 31 days): an
 * export-file row is created at once (status exporting, progress 0, no lease) and the xlsx is built
 * in the background day by day (progress per day) from the device's samples — the same rows and
 * translated headers as the data-details table (queryDeviceDataOneDay) in the caller's language —
 * then stored in the database (status downloadable). The list shows the caller's files; a
 * download goes through a signed, short-lived address (HMAC of id and expiry).
 *
 * The build is a durable job of the reports runner (`ReportRunner`, the lease of `JobLease`): a
 * restart or a crashed instance leaves the row exporting with an expiring lease, and the next
 * runner (this instance after its restart, or another) builds it again from the stored request.
 */
export class ReportExportService implements LeasedQueue {
  /** Set by the runner: starts a new export without waiting for its poll. */
  onQueued: () => void = () => undefined;
  private readonly lease: JobLease;

  constructor(
    private readonly deps: {
      db: Db;
      dbh: DbHandle;
      keyring: Keyring;
      accounts: Pick<AccountsRepository, 'findById'>;
      /** The function points of an owner's bound role (a job acts as its owner would). */
      roleFunctions: RoleFunctionsReader;
      audit: Pick<AuditService, 'record'>;
      targets: DeviceTargets;
      curves: Pick<DeviceCurvesService, 'dataOneDay'>;
      devices: Pick<DevicesRepository, 'countSamples'>;
      operations: Pick<OperationLog, 'record'>;
      log: { error(obj: unknown, msg?: string): void };
      now: () => number;
    },
  ) {
    this.lease = new JobLease(deps.db, deps.now, 'export_files', {
      column: 'status',
      waiting: [EXPORT_STATUS.EXPORTING],
      running: EXPORT_STATUS.EXPORTING,
    });
  }

  async start(caller: Caller, p: DeviceKey & { sdate: string; edate: string }, locale: string): Promise<ExportFileRow> {
    const t = await this.deps.targets.find(caller, p);
    const tz = deviceTz(t.row);
    const r = dayRange(p.sdate, p.edate, tz, this.deps.now());
    if ((await this.deps.devices.countSamples(t.row.id, r.from, r.to)) === 0) throw new ApiError(12);
    const sdate = dayString(r.fromDay);
    const edate = dayString(r.toDay);
    const name = `${safeName(t.row.alias || t.row.sn)}_${sdate}_${edate}.xlsx`;
    const row = await this.deps.dbh.transaction(() =>
      this.deps.dbh.db
        .insertInto('export_files')
        .values({
          account_id: caller.accountId,
          kind: 'device_report',
          name,
          pn: t.row.pn,
          sn: t.row.sn,
          device_id: t.row.id,
          sdate,
          edate,
          locale,
          status: EXPORT_STATUS.EXPORTING,
          progress: 0,
          size: 0,
          created_at: this.deps.now(),
        })
        .returning(['id', 'name', 'size', 'status', 'progress', 'created_at', 'pn', 'sn', 'sdate', 'edate'])
        .executeTakeFirstOrThrow(),
    );
    // The runner starts it once the request's transaction has committed.
    await this.deps.dbh.durable(() => Promise.resolve(this.onQueued()));
    return toWire(row as FileRow);
  }

  /** The runner's step: claims one waiting export (or one whose lease expired) and builds it. */
  async next(owner: string): Promise<boolean> {
    const id = await this.lease.claim(owner);
    if (id === undefined) return false;
    const row = (await this.deps.db
      .selectFrom('export_files')
      .select(['id', 'account_id', 'pn', 'sn', 'device_id', 'sdate', 'edate', 'locale', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirst()) as JobRow | undefined;
    if (row) await this.build(row, owner);
    return true;
  }

  /**
   * Builds one claimed export from its stored request (owner, device, range, language): the
   * owner must still see the device. Done with its file, or failed after the last attempt (at
   * once for a refusal); a lost lease (row deleted or taken over) drops the work.
   */
  private async build(job: JobRow, owner: string): Promise<void> {
    const db = this.deps.db;
    const id = Number(job.id);
    const gone = new Error('device report export abandoned');
    try {
      const caller = await jobCaller(this.deps.accounts, this.deps.roleFunctions, Number(job.account_id));
      const t = await this.deps.targets.find(caller, { pn: job.pn, sn: job.sn });
      if (job.device_id !== null && Number(job.device_id) !== Number(t.row.id)) throw new ApiError(258);
      const days = dayRange(job.sdate, job.edate, deviceTz(t.row), this.deps.now()).days;
      const key: DeviceKey = { ...t.tuple, pn: t.row.pn };
      const locale = job.locale;
      const sheet = t.row.alias || t.row.sn;
      const wb = new ExcelJS.Workbook();
      wb.creator = 'Sunwatch';
      wb.created = new Date(this.deps.now());
      const ws = wb.addWorksheet(safeName(sheet).slice(0, 31));
      let header = false;
      for (let i = 0; i < days.length; i++) {
        const date = dayString(days[i]!);
        let table: Awaited<ReturnType<DeviceCurvesService['dataOneDay']>> | undefined;
        try {
          table = await this.deps.curves.dataOneDay(caller, { ...key, date } as never, locale);
        } catch (e) {
          if (!(e instanceof ApiError) || e.code !== 12) throw e; // a day without data
        }
        if (table) {
          if (!header) {
            // Column 0 of the data-details table is the sample id (epoch ms): not in the report.
            const titles = table.title.slice(1).map((t) => ('unit' in t && t.unit ? `${t.title} (${t.unit})` : t.title));
            const h = ws.addRow(titles);
            h.font = { bold: true };
            ws.views = [{ state: 'frozen', ySplit: 1 }];
            ws.columns.forEach((c, ci) => (c.width = Math.max(12, Math.min(40, (titles[ci]?.length ?? 10) + 2))));
            header = true;
          }
          for (const row of table.row) ws.addRow(row.field.slice(1).map((v, ci) => (ci === 0 ? v : cell(v))));
        }
        if (!(await this.lease.renew(id, owner, ((i + 1) * 100) / days.length))) throw gone;
      }
      const buf = Buffer.from(await wb.xlsx.writeBuffer());
      await db
        .updateTable('export_files')
        .set({
          data: new Uint8Array(buf),
          size: buf.length,
          status: EXPORT_STATUS.READY,
          progress: 100,
          finished_at: this.deps.now(),
          lease_until: 0,
          error: null,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', EXPORT_STATUS.EXPORTING)
        .execute();
    } catch (e) {
      if (e === gone) return;
      this.deps.log.error({ err: e, export: id }, 'device report export failed');
      const message = e instanceof ApiError ? `err ${e.code}` : e instanceof Error ? e.message : String(e);
      await db
        .updateTable('export_files')
        .set(
          lastAttempt(Number(job.attempts), e)
            ? { status: EXPORT_STATUS.FAILED, error: message.slice(0, 500), finished_at: this.deps.now(), lease_until: 0 }
            : { error: message.slice(0, 500), lease_until: 0 },
        )
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', EXPORT_STATUS.EXPORTING)
        .execute();
    }
  }

  /**
   * retryExportFile: builds a failed export of the caller's again on the same record (same
   * device, range and language), so the list keeps one row per report. The device must still be
   * visible to the caller (258) and the range must still hold samples (12); only a failed file
   * (status 2) may be retried (271 otherwise: exporting or ready). Audited before → after status.
   */
  async retry(caller: Caller, id: number): Promise<ExportFileRow> {
    const f = await this.deps.dbh.db
      .selectFrom('export_files')
      .select(['id', 'status', 'device_id', 'pn', 'sn', 'sdate', 'edate', 'locale', 'error'])
      .where('id', '=', id)
      .where('account_id', '=', caller.accountId)
      .executeTakeFirst();
    if (!f) throw new ApiError(12);
    if (Number(f.status) !== EXPORT_STATUS.FAILED) throw new ApiError(271);
    const t = await this.deps.targets.find(caller, { pn: f.pn, sn: f.sn });
    if (f.device_id !== null && Number(f.device_id) !== Number(t.row.id)) throw new ApiError(258);
    const tz = deviceTz(t.row);
    // The stored range was valid when it was asked for; only its days are recomputed (the
    // range may lie further in the past now, which dayRange accepts).
    const r = dayRange(f.sdate, f.edate, tz, this.deps.now());
    if ((await this.deps.devices.countSamples(t.row.id, r.from, r.to)) === 0) throw new ApiError(12);
    const row = await this.deps.dbh.transaction(async () => {
      const updated = await this.deps.dbh.db
        .updateTable('export_files')
        .set({
          status: EXPORT_STATUS.EXPORTING,
          progress: 0,
          size: 0,
          data: null,
          error: null,
          finished_at: null,
          lease_owner: '',
          lease_until: 0,
          attempts: 0,
        })
        .where('id', '=', id)
        .where('account_id', '=', caller.accountId)
        .where('status', '=', EXPORT_STATUS.FAILED)
        .returning(['id', 'name', 'size', 'status', 'progress', 'created_at', 'pn', 'sn', 'sdate', 'edate'])
        .executeTakeFirst();
      if (!updated) throw new ApiError(271); // retried by another request in between
      await this.deps.audit.record({
        entity: 'export_file',
        entityId: id,
        before: { status: EXPORT_STATUS.FAILED, error: f.error ?? '' },
        after: { status: EXPORT_STATUS.EXPORTING },
      });
      return updated;
    });
    await this.deps.dbh.durable(() => Promise.resolve(this.onQueued()));
    return toWire(row as FileRow);
  }

  async list(caller: Caller, p: { page: number; pagesize: number }) {
    const base = this.deps.db.selectFrom('export_files').where('account_id', '=', caller.accountId);
    const total = Number(
      (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    );
    const rows = await base
      .select(['id', 'name', 'size', 'status', 'progress', 'created_at', 'pn', 'sn', 'sdate', 'edate'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return { total, page: p.page, pagesize: p.pagesize, file: rows.map((r) => toWire(r as FileRow)) };
  }

  private async own(caller: Caller, id: number) {
    const row = await this.deps.dbh.db
      .selectFrom('export_files')
      .select(['id', 'name', 'status'])
      .where('id', '=', id)
      .where('account_id', '=', caller.accountId)
      .executeTakeFirst();
    if (!row) throw new ApiError(12);
    return row;
  }

  private sign(id: number, exp: number): string {
    return this.deps.keyring.mac('export-file', `${id}.${exp}`);
  }

  async url(caller: Caller, id: number): Promise<{ url: string; name: string; expire: number }> {
    const row = await this.own(caller, id);
    if (Number(row.status) !== EXPORT_STATUS.READY) throw new ApiError(12);
    const exp = Math.floor(this.deps.now() / 1000) + EXPORT_URL_TTL_S;
    return { url: `${EXPORT_ROUTE}/${id}?exp=${exp}&sig=${this.sign(id, exp)}`, name: row.name, expire: exp };
  }

  /** delExportFile, and delReportFile with origin `export` (the one export history): audited. */
  async remove(caller: Caller, id: number): Promise<void> {
    const row = await this.own(caller, id);
    await this.deps.dbh.db.deleteFrom('export_files').where('id', '=', id).execute();
    await this.deps.audit.record({
      entity: 'export_file',
      entityId: id,
      before: { name: row.name, status: Number(row.status) },
      after: null,
    });
  }

  /** The file behind a signed address, or undefined when the signature, the expiry or the file is wrong. */
  async download(id: number, exp: number, sig: string): Promise<{ name: string; data: Buffer; mime: string } | undefined> {
    if (!Number.isInteger(id) || !Number.isInteger(exp) || exp * 1000 < this.deps.now()) return undefined;
    const want = this.sign(id, exp);
    if (sig.length !== want.length || !timingSafe(sig, want)) return undefined;
    const row = await this.deps.db
      .selectFrom('export_files')
      .select(['name', 'status', 'data'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || Number(row.status) !== EXPORT_STATUS.READY || !row.data) return undefined;
    return { name: row.name, data: Buffer.from(row.data), mime: XLSX_MIME };
  }
}

function timingSafe(a: string, b: string): boolean {
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
