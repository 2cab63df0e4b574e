import crypto from 'node:crypto';
import type { RoleFunctionsReader } from '../../access/permissions.js';
import { sql, type Selectable } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import type { REPORT_ENERGY_KEYS } from '@sunwatch/protocol';
import {
  ALARM_EXPORT_KIND,
  ApiError,
  checkReportPeriod,
  EXPORT_STATUS,
  type ExportHistoryKind,
  type ExportHistoryOrigin,
  type ReportFileRow,
  type ReportPeriod,
  type ReportScope,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { ReportFilesTable } from '../../db/schema-reports.js';
import type { DbHandle } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Keyring } from '../../security/keyring.js';
import { dayString, fmtTs, localDay } from '../../shared/local-time.js';
import type { AccountsRepository } from '../accounts/accounts.repository.js';
import type { DeviceResolver } from '../devices/device-resolver.js';
import { deviceTz } from '../devices/devices.repository.js';
import type { PlantsService } from '../plants/plants.service.js';
import type { ReportBuilder, ReportSpec } from './report-builder.js';
import { reportTexts } from './report-texts.js';
import type { AlarmExportService } from './alarm-export.js';
import { JOB_LEASE_MS, JOB_MAX_ATTEMPTS, JobLease, lastAttempt, type LeasedQueue } from '../../db/job-lease.js';
import { jobCaller } from '../accounts/job-caller.js';

/** How long a download address stays valid (as issue 10's export files). */
export const REPORT_URL_TTL_S = 300;
/** The download route (registered by `registerReportRoutes`). */
export const REPORT_ROUTE = '/export/report';
/** A job's lease: another instance takes an export over when its builder stops renewing it (job-lease.ts). */
export const REPORT_LEASE_MS = JOB_LEASE_MS;
/** Attempts before an export is marked failed. */
export const REPORT_MAX_ATTEMPTS = JOB_MAX_ATTEMPTS;
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Row = Selectable<ReportFilesTable>;

function toWire(r: Row): ReportFileRow {
  const state = r.state;
  // An alarm export keeps its filters (JSON) in `date`; the history shows its time window instead.
  const alarms = r.scope === ALARM_EXPORT_KIND;
  return {
    id: Number(r.id),
    name: r.name,
    size: Number(r.size),
    status:
      state === 'done' ? EXPORT_STATUS.READY : state === 'failed' ? EXPORT_STATUS.FAILED : EXPORT_STATUS.EXPORTING,
    progress: state === 'done' ? 100 : Number(r.progress),
    gts: fmtTs(Number(r.created_at), 0),
    fts: r.finished_at ? fmtTs(Number(r.finished_at), 0) : '',
    scope: r.scope as ReportFileRow['scope'],
    origin: 'report',
    kind: kindOf(r.scope),
    type: r.type as ReportFileRow['type'],
    date: alarms ? (r.sdate && r.edate ? `${r.sdate} ~ ${r.edate}` : '') : r.date,
    sdate: r.sdate,
    edate: r.edate,
    plantid: Number(r.project_id ?? 0),
    target: r.target,
    pn: r.pn,
    sn: r.sn,
    devcode: Number(r.devcode),
    devaddr: Number(r.devaddr),
  };
}

function kindOf(scope: string): ExportHistoryKind {
  return scope === ALARM_EXPORT_KIND ? 'alarms' : scope === 'plant' ? 'plant' : 'device';
}

/** One row of the export history query (both tables, one shape; numbers may come back as strings). */
type HistoryRow = {
  origin: ExportHistoryOrigin;
  id: number | string;
  name: string;
  size: number | string;
  status: number | string;
  progress: number | string;
  created_at: number | string;
  finished_at: number | string | null;
  scope: string;
  type: string;
  date: string;
  sdate: string;
  edate: string;
  project_id: number | string | null;
  target: string | null;
  pn: string;
  sn: string;
  devcode: number | string | null;
  devaddr: number | string | null;
};

function historyWire(r: HistoryRow): ReportFileRow {
  const status = Number(r.status);
  const alarms = r.scope === ALARM_EXPORT_KIND;
  return {
    id: Number(r.id),
    origin: r.origin === 'export' ? 'export' : 'report',
    kind: kindOf(r.scope),
    name: r.name,
    size: Number(r.size),
    status,
    progress: status === EXPORT_STATUS.READY ? 100 : Number(r.progress),
    gts: fmtTs(Number(r.created_at), 0),
    fts: r.finished_at !== null && status !== EXPORT_STATUS.EXPORTING ? fmtTs(Number(r.finished_at), 0) : '',
    scope: r.scope as ReportFileRow['scope'],
    type: r.type as ReportFileRow['type'],
    date: alarms ? (r.sdate && r.edate ? `${r.sdate} ~ ${r.edate}` : '') : r.date,
    sdate: r.sdate,
    edate: r.edate,
    plantid: Number(r.project_id ?? 0),
    target: r.target || r.sn,
    pn: r.pn,
    sn: r.sn,
    devcode: Number(r.devcode ?? 0),
    devaddr: Number(r.devaddr ?? 0),
  };
}

/** A file name without path or control characters. */
function safeName(s: string): string {
  const printable = [...s].map((ch) => (ch.charCodeAt(0) < 0x20 ? '_' : ch)).join('');
  return (
    printable
      .replace(/[\\/:*?"<>|]+/g, '_')
      .trim()
      .slice(0, 80) || 'report'
  );
}

function timingSafe(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export interface ReportFilesDeps {
  db: Db;
  dbh: DbHandle;
  audit: Pick<AuditService, 'record'>;
  keyring: Keyring;
  dataDir: string;
  plants: () => Pick<PlantsService, 'require'>;
  resolver: Pick<DeviceResolver, 'resolve'>;
  accounts: Pick<AccountsRepository, 'findById'>;
  /** The function points of an owner's bound role (a job acts as its owner would). */
  roleFunctions: RoleFunctionsReader;
  builder: ReportBuilder;
  /** The alarm list export (alarm-export.ts), which writes files of kind `alarms`. */
  alarmExport?: () => Pick<AlarmExportService, 'write'>;
  log: { error(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void };
  now: () => number;
}

/**
 * Report exports (issue 11): a request is checked (access, period) and stored as a queued row at
 * once; `ReportRunner` builds the xlsx in the background (durable job state, leases, progress)
 * into `<dataDir>/reports/`. Lists, download addresses and deletion only ever see the caller's own
 * rows; a download goes through a signed address (HMAC of id and expiry, 5 minutes).
 */
export class ReportFilesService implements LeasedQueue {
  readonly dir: string;
  /** Called after a new export is queued (the runner starts it without waiting for its poll). */
  onQueued: () => void = () => undefined;
  private readonly lease: JobLease;

  constructor(private readonly deps: ReportFilesDeps) {
    this.dir = path.join(deps.dataDir, 'reports');
    this.lease = new JobLease(deps.db, deps.now, 'report_files', {
      column: 'state',
      waiting: ['queued', 'exporting'],
      running: 'exporting',
    });
  }

  private check(p: { type: ReportPeriod; date?: string; sdate?: string; edate?: string }, tz: number) {
    const today = dayString(localDay(this.deps.now(), tz));
    const c = checkReportPeriod(p, today);
    if (!c.ok) throw new ApiError(c.err, c.err === 13 ? 'rules.dateRange.reportTooLong' : 'date');
    return { type: c.type, date: c.date, sdate: c.sdate, edate: c.edate };
  }

  async startPlant(
    caller: Caller,
    p: { plantid: number; type: ReportPeriod; date?: string; sdate?: string; edate?: string },
    locale: string,
  ): Promise<ReportFileRow> {
    const plant = await this.deps.plants().require(caller, p.plantid);
    const c = this.check(p, Number(plant.tz_offset));
    return this.queue(caller, {
      scope: 'plant',
      project_id: Number(plant.id),
      device_id: null,
      target: plant.name,
      pn: '',
      sn: '',
      devcode: 0,
      devaddr: 0,
      ...c,
      locale,
    });
  }

  async startDevice(
    caller: Caller,
    p: {
      pn?: string;
      devcode?: number;
      devaddr?: number;
      sn?: string;
      type: ReportPeriod;
      date?: string;
      sdate?: string;
      edate?: string;
    },
    locale: string,
  ): Promise<ReportFileRow> {
    const d = await this.deps.resolver.resolve(caller, p);
    const c = this.check(p, deviceTz(d));
    return this.queue(caller, {
      scope: 'device',
      project_id: d.project_id,
      device_id: d.id,
      target: d.alias || d.sn,
      pn: d.pn,
      sn: d.sn,
      devcode: d.devcode,
      devaddr: d.devaddr,
      ...c,
      locale,
    });
  }

  /** Stores a queued export of the caller (audited) and starts the runner once it has committed. */
  async queue(
    caller: Caller,
    v: Pick<
      Row,
      | 'scope'
      | 'project_id'
      | 'device_id'
      | 'target'
      | 'pn'
      | 'sn'
      | 'devcode'
      | 'devaddr'
      | 'type'
      | 'date'
      | 'sdate'
      | 'edate'
      | 'locale'
    > & { name?: string },
  ): Promise<ReportFileRow> {
    const { name: given, ...values } = v;
    const t = reportTexts(v.locale);
    const period = v.type === 'total' ? '' : v.type === 'custom' ? `_${v.sdate}_${v.edate}` : `_${v.date}`;
    const name = `${safeName(given ?? `${v.target}_${t.periods[v.type as ReportPeriod]}${period}`)}.xlsx`;
    const row = (await this.deps.dbh.db
      .insertInto('report_files')
      .values({ ...values, account_id: caller.accountId, name, state: 'queued', created_at: this.deps.now() })
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    const wire = toWire(row);
    await this.deps.audit.record({ entity: 'report_file', entityId: wire.id, before: null, after: wire });
    // The runner starts it once the request's transaction has committed.
    await this.deps.dbh.durable(() => Promise.resolve(this.onQueued()));
    return wire;
  }

  /**
   * The caller's one export history: its report files (plant and device reports, alarm lists)
   * and its device exports (issue 10's `export_files`), newest first, paged in the database over
   * a UNION ALL of both tables (offset paging, the total counted over the same union). Ties of
   * the creation time are broken by origin and id, so pages never overlap.
   */
  async list(caller: Caller, p: { status?: number; page: number; pagesize: number }) {
    const me = caller.accountId;
    const union = sql`
      select 'report' as origin, r.id, r.name, r.size,
        case r.state when 'done' then ${sql.lit(EXPORT_STATUS.READY)} when 'failed' then ${sql.lit(EXPORT_STATUS.FAILED)} else ${sql.lit(EXPORT_STATUS.EXPORTING)} end as status,
        r.progress, r.created_at, r.finished_at, r.scope, r.type, r.date, r.sdate, r.edate,
        r.project_id, r.target, r.pn, r.sn, r.devcode, r.devaddr
      from report_files r where r.account_id = ${me}
      union all
      select 'export' as origin, e.id, e.name, e.size, e.status,
        e.progress, e.created_at, e.finished_at, 'device' as scope, 'custom' as type, '' as date, e.sdate, e.edate,
        d.project_id, d.alias as target, e.pn, e.sn, d.devcode, d.devaddr
      from export_files e left join devices d on d.id = e.device_id where e.account_id = ${me}`;
    const where = p.status === undefined ? sql.raw('') : sql`where h.status = ${p.status}`;
    const db = this.deps.dbh.db;
    const counted = await sql<{ n: number | string }>`select count(*) as n from (${union}) h ${where}`.execute(db);
    const total = Number(counted.rows[0]?.n ?? 0);
    const rows = await sql<HistoryRow>`
      select * from (${union}) h ${where}
      order by h.created_at desc, h.origin desc, h.id desc
      limit ${p.pagesize} offset ${p.page * p.pagesize}`.execute(db);
    return { total, page: p.page, pagesize: p.pagesize, file: rows.rows.map(historyWire) };
  }

  private async own(caller: Caller, id: number): Promise<Row> {
    const row = await this.deps.dbh.db
      .selectFrom('report_files')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', caller.accountId)
      .executeTakeFirst();
    if (!row) throw new ApiError(12);
    return row as Row;
  }

  private sign(id: number, exp: number): string {
    return this.deps.keyring.mac('report-file', `${id}.${exp}`);
  }

  async url(caller: Caller, id: number): Promise<{ url: string; name: string; expire: number }> {
    const row = await this.own(caller, id);
    if (row.state !== 'done') throw new ApiError(12);
    const exp = Math.floor(this.deps.now() / 1000) + REPORT_URL_TTL_S;
    return { url: `${REPORT_ROUTE}/${id}?exp=${exp}&sig=${this.sign(id, exp)}`, name: row.name, expire: exp };
  }

  async remove(caller: Caller, id: number): Promise<{ before: ReportFileRow }> {
    const row = await this.own(caller, id);
    await this.deps.dbh.db.deleteFrom('report_files').where('id', '=', id).execute();
    const before = toWire(row);
    await this.deps.audit.record({ entity: 'report_file', entityId: id, before, after: null });
    // The file goes once the deletion has committed (a rolled-back deletion keeps its file).
    const file = row.path ? path.join(this.dir, path.basename(row.path)) : '';
    await this.deps.dbh.durable(async () => {
      if (!file) return;
      const still = await this.deps.db.selectFrom('report_files').select('id').where('id', '=', id).executeTakeFirst();
      if (!still) await fs.promises.rm(file, { force: true });
    });
    return { before };
  }

  /** The file behind a signed address, or undefined when the signature, the expiry or the file is wrong. */
  async download(
    id: number,
    exp: number,
    sig: string,
  ): Promise<{ name: string; data: Buffer; mime: string } | undefined> {
    if (!Number.isInteger(id) || !Number.isInteger(exp) || exp * 1000 < this.deps.now()) return undefined;
    if (!timingSafe(sig, this.sign(id, exp))) return undefined;
    const row = await this.deps.db
      .selectFrom('report_files')
      .select(['name', 'state', 'path'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.state !== 'done' || !row.path) return undefined;
    try {
      return {
        name: row.name,
        data: await fs.promises.readFile(path.join(this.dir, path.basename(row.path))),
        mime: XLSX_MIME,
      };
    } catch {
      return undefined;
    }
  }

  // ------------------------------------------------------------------ the background job

  /**
   * Claims the oldest export that is queued, or exporting under an expired lease (its instance
   * died or stopped): one conditional UPDATE, so two instances never build the same export.
   */
  async claim(owner: string): Promise<Row | undefined> {
    const id = await this.lease.claim(owner);
    if (id === undefined) return undefined;
    return (await this.deps.db.selectFrom('report_files').selectAll().where('id', '=', id).executeTakeFirst()) as
      Row | undefined;
  }

  /** The runner's step: claims one export and builds it; false when none is waiting. */
  async next(owner: string): Promise<boolean> {
    const row = await this.claim(owner);
    if (!row) return false;
    await this.build(row, owner);
    return true;
  }

  /** Builds one claimed export to its end: done with its file, or failed (after the last attempt). */
  async build(row: Row, owner: string): Promise<void> {
    const id = Number(row.id);
    const gone = new Error('report export abandoned');
    try {
      const caller = await this.callerOf(Number(row.account_id));
      const step = async (p: number) => {
        if (!(await this.lease.renew(id, owner, p * 99))) throw gone;
      };
      await fs.promises.mkdir(this.dir, { recursive: true });
      const file = `${id}-${crypto.randomBytes(6).toString('hex')}.xlsx`;
      const tmp = path.join(this.dir, `${file}.tmp`);
      let size: number;
      if (row.scope === ALARM_EXPORT_KIND && this.deps.alarmExport) {
        // Streamed to the temporary file (up to ALARM_EXPORT_MAX_ROWS rows, never all in memory).
        await this.deps.alarmExport().write(row, caller, tmp, step);
        size = (await fs.promises.stat(tmp)).size;
      } else {
        const { spec, firstDay } = await this.specOf(row, caller);
        const buf = await this.deps.builder.workbook(spec, caller, firstDay, step);
        await fs.promises.writeFile(tmp, buf);
        size = buf.length;
      }
      await fs.promises.rename(tmp, path.join(this.dir, file));
      const res = await this.deps.db
        .updateTable('report_files')
        .set({
          state: 'done',
          progress: 100,
          size,
          path: file,
          finished_at: this.deps.now(),
          lease_until: 0,
          error: '',
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'exporting')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) await fs.promises.rm(path.join(this.dir, file), { force: true });
    } catch (e) {
      if (e === gone) return;
      const message = e instanceof ApiError ? `err ${e.code}` : e instanceof Error ? e.message : String(e);
      this.deps.log.error({ err: e, report: id }, 'report export failed');
      const last = lastAttempt(Number(row.attempts), e);
      await this.deps.db
        .updateTable('report_files')
        .set(
          last
            ? { state: 'failed', error: message.slice(0, 500), finished_at: this.deps.now(), lease_until: 0 }
            : { state: 'queued', error: message.slice(0, 500), lease_until: 0 },
        )
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    }
  }

  /**
   * A plant report of a mail subscription, built now for its subscriber (the report mail
   * scheduler runs in the background): an earlier report file of the same period is reused.
   * Undefined when the subscriber no longer reaches the plant or the period is not valid.
   */
  async buildForMail(
    accountId: number,
    plantId: number,
    type: 'daily' | 'monthly' | 'yearly',
    date: string,
    locale: string,
  ): Promise<
    | {
        fileId: number;
        name: string;
        currency: string;
        total: { energy: Record<(typeof REPORT_ENERGY_KEYS)[number], number>; income: number };
      }
    | undefined
  > {
    let caller: Caller;
    let plant: Awaited<ReturnType<PlantsService['require']>>;
    try {
      caller = await this.callerOf(accountId);
      plant = await this.deps.plants().require(caller, plantId);
    } catch (e) {
      if (e instanceof ApiError) return undefined;
      throw e;
    }
    const c = checkReportPeriod({ type, date }, dayString(localDay(this.deps.now(), Number(plant.tz_offset))));
    if (!c.ok) return undefined;
    const db = this.deps.db;
    let row = (await db
      .selectFrom('report_files')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('scope', '=', 'plant')
      .where('project_id', '=', plantId)
      .where('type', '=', type)
      .where('date', '=', c.date)
      .where('locale', '=', locale)
      .where('state', '=', 'done')
      .orderBy('id', 'desc')
      .executeTakeFirst()) as Row | undefined;
    if (!row) {
      const owner = `mail-${crypto.randomBytes(4).toString('hex')}`;
      const t = reportTexts(locale);
      const created = (await db
        .insertInto('report_files')
        .values({
          account_id: accountId,
          scope: 'plant',
          type,
          date: c.date,
          sdate: c.sdate,
          edate: c.edate,
          project_id: plantId,
          device_id: null,
          target: plant.name,
          pn: '',
          sn: '',
          devcode: 0,
          devaddr: 0,
          locale,
          name: `${safeName(`${plant.name}_${t.periods[type]}_${c.date}`)}.xlsx`,
          state: 'exporting',
          lease_owner: owner,
          lease_until: this.deps.now() + REPORT_LEASE_MS,
          attempts: 1,
          created_at: this.deps.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as Row;
      await this.build(created, owner);
      row = (await db.selectFrom('report_files').selectAll().where('id', '=', created.id).executeTakeFirst()) as
        Row | undefined;
      if (!row || row.state !== 'done') return undefined;
    }
    const { spec, firstDay } = await this.specOf(row, caller);
    const { total } = await this.deps.builder.rows(spec, firstDay, () => Promise.resolve());
    return { fileId: Number(row.id), name: row.name, currency: spec.currency, total };
  }

  /** The stored xlsx of a ready report file (mail attachments; no caller: the server's own use). */
  async attachment(id: number): Promise<Buffer | undefined> {
    const row = await this.deps.db
      .selectFrom('report_files')
      .select(['state', 'path'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.state !== 'done' || !row.path) return undefined;
    try {
      return await fs.promises.readFile(path.join(this.dir, path.basename(row.path)));
    } catch {
      return undefined;
    }
  }

  /** The owner of an export as a caller (its access is checked again when the report is built). */
  private callerOf(accountId: number): Promise<Caller> {
    return jobCaller(this.deps.accounts, this.deps.roleFunctions, accountId);
  }

  private async specOf(row: Row, caller: Caller): Promise<{ spec: ReportSpec; firstDay: number }> {
    const db = this.deps.db;
    const base = {
      scope: row.scope as ReportScope,
      type: row.type as ReportPeriod,
      date: row.date,
      sdate: row.sdate,
      edate: row.edate,
      locale: row.locale,
    };
    if (row.scope === 'plant') {
      const plant = await this.deps.plants().require(caller, Number(row.project_id));
      const tz = Number(plant.tz_offset);
      const devices = await db
        .selectFrom('devices')
        .select(['id', 'pn', 'devcode', 'devaddr', 'sn', 'alias'])
        .where('project_id', '=', Number(plant.id))
        .orderBy('id')
        .execute();
      const firstDay = await this.firstDay(devices.map((d) => Number(d.id)));
      return {
        firstDay,
        spec: {
          ...base,
          today: dayString(localDay(this.deps.now(), tz)),
          tz,
          target: plant.name,
          plantName: '',
          currency: plant.currency ?? '',
          unitProfit: Number(plant.unit_profit ?? 0),
          projectId: Number(plant.id),
          energyScope: { projectIds: [Number(plant.id)] },
          sampleDevices: devices.map((d) => ({
            pn: d.pn,
            devcode: Number(d.devcode),
            devaddr: Number(d.devaddr),
            sn: d.sn,
            label: d.alias || d.sn,
          })),
        },
      };
    }
    const d = await this.deps.resolver.resolve(caller, {
      pn: row.pn,
      devcode: Number(row.devcode),
      devaddr: Number(row.devaddr),
      sn: row.sn,
    });
    const tz = deviceTz(d);
    const label = d.alias || d.sn;
    return {
      firstDay: await this.firstDay([d.id]),
      spec: {
        ...base,
        today: dayString(localDay(this.deps.now(), tz)),
        tz,
        target: label,
        plantName: d.pname ?? '',
        currency: d.currency ?? '',
        unitProfit: Number(d.unit_profit ?? 0),
        ...(d.project_id !== null && d.project_id !== undefined ? { projectId: Number(d.project_id) } : {}),
        energyScope: { deviceIds: [d.id] },
        sampleDevices: [{ pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn, label }],
      },
    };
  }

  /** The first local day with a rollup of these devices (today's when none). */
  private async firstDay(deviceIds: number[]): Promise<number> {
    if (deviceIds.length === 0) return localDay(this.deps.now(), 0);
    const r = await this.deps.db
      .selectFrom('device_days')
      .select((eb) => eb.fn.min('day').as('d'))
      .where('device_id', 'in', deviceIds)
      .executeTakeFirst();
    return r?.d ? Number(r.d) : localDay(this.deps.now(), 0);
  }
}
