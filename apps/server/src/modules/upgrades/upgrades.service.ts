import {
  ApiError,
  BAUD_RATES,
  FIRMWARE_UPGRADE_STATUS,
  ROLE,
  STRATEGY_DEVICE_RESULT,
  UPGRADE_BATCH_STATE,
  firmwareTarget,
  upgradeReasonText,
  type Catalogue,
  type ParsedParamsOf,
  type UpgradeBatchDat,
  type UpgradeBatchProgressDat,
  type UpgradeCancelDat,
  type UpgradeLastRecordDat,
  type UpgradeProgressDat,
  type UpgradeStartDat,
  type UpgradeStatusDat,
  type UpgradeTaskRow,
  type UpgradeTasksDat,
  type UpgradeableRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { AuditService } from '../audit/audit.service.js';
import { dataloggerScopeSql } from '../../access/access.repository.js';
import { likePattern } from '../../db/like.js';
import { sql, type SqlBool } from 'kysely';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { fmtTs } from '../../shared/local-time.js';
import type { UpgradeTarget } from './engine-port.js';
import type { UpgradeEngineService } from './upgrade-engine.js';
import { currentDb, type DbHandle } from '../../db/transaction.js';
import { UpgradeBatchJobs, type BatchFilter } from './upgrade-batches.js';
import { suggestedStrategyOpen } from './strategy-window.js';

type P<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;

/** A datalogger as the upgrade actions see it. */
interface DlRow {
  pn: string;
  owner_id: number | null;
  vendor_id: number | null;
  type_code: string;
  model: string;
  alias: string;
  firmware: string;
  status: number;
  tz_offset: number;
}

/** A firmware as an offer names it. */
interface OfferFw {
  code: string;
  name: string;
  version: string;
  note: string;
}

/** One device behind a datalogger, as an upgrade target. */
interface DevTarget {
  devcode: number;
  devaddr: number;
  sn: string;
}

/**
 * The upgrade actions (issue 13; protocol actions/upgrades.ts): who may upgrade what, the vendor
 * actions' shapes, batches and the task list. The transfers themselves are the engine's.
 */
export class UpgradesService {
  /**
   * The open transaction of this async context, else the root database: a batch records its tasks
   * in the action's transaction, and on SQLite (one connection) a query on the root inside it
   * would wait for the transaction forever.
   */
  private get db(): Db {
    return currentDb(this.deps.db);
  }

  constructor(
    private readonly deps: {
      db: Db;
      access: AccessService;
      audit: AuditService;
      engine: UpgradeEngineService;
      manufacturerOnPath(path: string): Promise<{ id: number } | undefined>;
      now: () => number;
      dbh: DbHandle;
      /** A job's owner as a caller (accounts/job-caller.ts): the batch job acts as its creator. */
      jobCaller: (accountId: number) => Promise<Caller>;
      log: { error(obj: unknown, msg?: string): void };
      /** Targets one page of a batch by filter materialises (BATCH_PAGE_SIZE; tests lower it). */
      batchPageSize?: number;
    },
  ) {
    this.batches = new UpgradeBatchJobs({
      db: deps.db,
      dbh: deps.dbh,
      access: deps.access,
      engine: deps.engine,
      caller: deps.jobCaller,
      log: deps.log,
      now: deps.now,
      ...(deps.batchPageSize !== undefined ? { pageSize: deps.batchPageSize } : {}),
    });
  }

  /** The materialisation job of batches by filter: a job kind of the background runner (reports/index.ts). */
  readonly batches: UpgradeBatchJobs;

  // ------------------------------------------------------------------------------------------
  // Access
  // ------------------------------------------------------------------------------------------

  /** The datalogger if the caller may see it: 257 otherwise, exactly like a missing PN. */
  private async visible(caller: Caller, pnIn: string): Promise<DlRow> {
    const pn = pnIn.trim();
    if (pn === '') throw new ApiError(7, 'pn');
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: [pn] });
    const r = await this.db
      .selectFrom('dataloggers')
      .select(['pn', 'owner_id', 'vendor_id', 'type_code', 'model', 'alias', 'firmware', 'status', 'tz_offset'])
      .where('pn', '=', pn)
      .executeTakeFirst();
    if (!r) throw new ApiError(257, pn);
    return {
      ...r,
      owner_id: r.owner_id === null ? null : Number(r.owner_id),
      vendor_id: r.vendor_id === null ? null : Number(r.vendor_id),
      status: Number(r.status),
      tz_offset: Number(r.tz_offset),
    };
  }

  /** Writers: owners their own dataloggers; distributors, manufacturers, the operator their scope. 11 otherwise. */
  private async writable(caller: Caller, pn: string): Promise<DlRow> {
    if (
      caller.role !== ROLE.OWNER &&
      caller.role !== ROLE.DISTRIBUTOR &&
      caller.role !== ROLE.MANUFACTURER &&
      caller.role !== ROLE.OPERATOR
    )
      throw new ApiError(11);
    const dl = await this.visible(caller, pn);
    if (caller.role === ROLE.OWNER && dl.owner_id !== caller.accountId) throw new ApiError(11);
    return dl;
  }

  /** The manufacturer whose firmware the caller uses (null for the operator: every one). */
  private async vendorOf(caller: Caller): Promise<number | null | undefined> {
    if (caller.role === ROLE.OPERATOR) return null;
    if (caller.role === ROLE.MANUFACTURER) return caller.adminOf ?? caller.accountId;
    const acc = await this.db
      .selectFrom('accounts')
      .select('path')
      .where('id', '=', caller.adminOf ?? caller.accountId)
      .executeTakeFirst();
    return acc ? (await this.deps.manufacturerOnPath(acc.path))?.id : undefined;
  }

  /**
   * The suggested strategies in effect (method suggested, not cancelled, `starts_at ≤ now <
   * ends_at`) of the datalogger's manufacturer that list `dl` itself (`dev` absent) or the device
   * `dev` behind it and have not upgraded it yet (result ≠ success), newest first; optionally
   * only those sending `firmwareId`. docs/firmware/strategies.md "Offers".
   */
  private async suggestedFor(dl: DlRow, dev: DevTarget | undefined, firmwareId?: number) {
    if (dl.vendor_id === null) return [];
    const now = this.deps.now();
    let q = this.db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('upgrade_strategies as s', 's.id', 'd.strategy_id')
      .innerJoin('firmwares as f', 'f.id', 's.firmware_id')
      .select(['s.id', 's.code', 's.reminder', 's.fw_type', 's.baud_rate', 'd.result'])
      .select(['f.id as fw_id', 'f.code as fw_code', 'f.name as fw_name', 'f.version as fw_version', 'f.note'])
      .where('d.pn', '=', dl.pn)
      .where('d.target', '=', dev ? 1 : 0)
      .where('d.sn', '=', dev ? dev.sn : '')
      .where('d.result', '!=', STRATEGY_DEVICE_RESULT.success)
      .where('s.vendor_id', '=', dl.vendor_id)
      .where('f.vendor_id', '=', dl.vendor_id)
      .where(suggestedStrategyOpen(now))
      .where('f.deleted_at', 'is', null);
    if (firmwareId !== undefined) q = q.where('s.firmware_id', '=', firmwareId);
    const rows = await q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(20).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      code: r.code,
      reminder: r.reminder,
      fwType: Number(r.fw_type),
      baudRate: Number(r.baud_rate),
      result: Number(r.result),
      firmware: { id: Number(r.fw_id), code: r.fw_code, name: r.fw_name, version: r.fw_version, note: r.note },
    }));
  }

  /**
   * The firmware `code` if the caller may send it to `dl`: administrators their manufacturer's
   * (the datalogger's manufacturer too); owners only the default firmware of the datalogger's type
   * or the firmware of a suggested strategy in effect that lists it (11 otherwise). 352 for an
   * unknown, deleted or another manufacturer's firmware. `strategyId`: the suggested strategy in
   * effect listing this target with this firmware, whoever starts it (the start is its result).
   */
  private async firmwareFor(caller: Caller, code: string, dl: DlRow, dev?: DevTarget) {
    const fw = await this.db
      .selectFrom('firmwares')
      .select(['id', 'vendor_id', 'type', 'baud_rate', 'version'])
      .where('code', '=', code.trim())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!fw) throw new ApiError(352);
    const vendorId = Number(fw.vendor_id);
    if (dl.vendor_id !== null && dl.vendor_id !== vendorId) throw new ApiError(352);
    const strategy = (await this.suggestedFor(dl, dev, Number(fw.id)))[0];
    if (caller.role === ROLE.OWNER) {
      const def = await this.db
        .selectFrom('default_firmwares')
        .select('firmware_id')
        .where('vendor_id', '=', vendorId)
        .where('datalogger_type', '=', dl.type_code)
        .where('firmware_id', '=', fw.id)
        .executeTakeFirst();
      if (!def && !strategy) throw new ApiError(11);
    } else {
      const mine = await this.vendorOf(caller);
      if (mine !== null && mine !== vendorId) throw new ApiError(352);
    }
    return {
      id: Number(fw.id),
      type: Number(fw.type),
      baudRate: fw.baud_rate === null ? null : Number(fw.baud_rate),
      strategyId: strategy?.id,
    };
  }

  /**
   * A start that took a suggested strategy's offer: the strategy's device row becomes upgrading
   * with the task's key at once (from not upgraded, or failed on a retry; audited with the
   * caller); the rollout job records the outcome when the task ends.
   */
  private async recordStrategyStart(strategyId: number, dl: DlRow, dev: DevTarget | undefined, key: string) {
    const sn = dev ? dev.sn : '';
    const row = await this.db
      .selectFrom('upgrade_strategy_devices')
      .select(['id', 'result', 'task_key'])
      .where('strategy_id', '=', strategyId)
      .where('pn', '=', dl.pn)
      .where('sn', '=', sn)
      .executeTakeFirst();
    if (!row) return;
    const from = Number(row.result);
    if (from !== STRATEGY_DEVICE_RESULT.notUpgraded && from !== STRATEGY_DEVICE_RESULT.failed) return;
    const res = await this.db
      .updateTable('upgrade_strategy_devices')
      .set({ result: STRATEGY_DEVICE_RESULT.upgrading, task_key: key, updated_at: this.deps.now() })
      .where('id', '=', row.id)
      .where('result', '=', from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    await this.deps.audit.record({
      entity: 'upgrade_strategy_device',
      entityId: Number(row.id),
      before: { strategy_id: strategyId, pn: dl.pn, sn, result: from, task_key: row.task_key },
      after: { result: STRATEGY_DEVICE_RESULT.upgrading, task_key: key },
    });
  }

  private async taskOf(dl: DlRow, key: string) {
    const t = await this.db
      .selectFrom('upgrade_tasks')
      .select(['status', 'progress'])
      .where('pn', '=', dl.pn)
      .where('key', '=', key)
      .executeTakeFirst();
    return t ? { status: Number(t.status), progress: Number(t.progress) } : undefined;
  }

  // ------------------------------------------------------------------------------------------
  // Vendor actions
  // ------------------------------------------------------------------------------------------

  async upgradeCollector(caller: Caller, p: P<'firmwareUpgradeCollector'>): Promise<UpgradeStartDat> {
    const dl = await this.writable(caller, p.pn);
    const fw = await this.firmwareFor(caller, p.firmware, dl);
    if (firmwareTarget(fw.type) !== 0) throw new ApiError(7, 'firmware');
    const r = await this.deps.engine.start({
      target: { pn: dl.pn, target: 0 },
      firmwareId: fw.id,
      fwType: fw.type,
      by: { accountId: caller.accountId, usr: caller.usr },
      ...(fw.strategyId !== undefined ? { strategyId: fw.strategyId } : {}),
      queueIfOffline: false,
    });
    if (r.ret === 0 && r.key && fw.strategyId !== undefined)
      await this.recordStrategyStart(fw.strategyId, dl, undefined, r.key);
    return r;
  }

  async upgradeDevice(caller: Caller, p: P<'firmwareUpgradeDevice'>): Promise<UpgradeStartDat> {
    // Spec §5: a device upgrade needs firmware, type and baud rate.
    if (!p.firmware) throw new ApiError(7, 'firmware');
    if (p.type === undefined || firmwareTarget(p.type) !== 1) throw new ApiError(7, 'type');
    if (p.baudRate === undefined || !(BAUD_RATES as readonly number[]).includes(p.baudRate))
      throw new ApiError(7, 'baudRate');
    const dl = await this.writable(caller, p.pn);
    const dev = await this.db
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', dl.pn)
      .where('devcode', '=', p.devcode)
      .where('devaddr', '=', p.devaddr)
      .where('sn', '=', p.sn)
      .executeTakeFirst();
    if (!dev) throw new ApiError(258);
    const target: DevTarget = { devcode: p.devcode, devaddr: p.devaddr, sn: p.sn };
    const fw = await this.firmwareFor(caller, p.firmware, dl, target);
    const r = await this.deps.engine.start({
      target: { pn: dl.pn, target: 1, ...target },
      firmwareId: fw.id,
      fwType: p.type,
      baudRate: p.baudRate,
      by: { accountId: caller.accountId, usr: caller.usr },
      ...(fw.strategyId !== undefined ? { strategyId: fw.strategyId } : {}),
      queueIfOffline: false,
    });
    if (r.ret === 0 && r.key && fw.strategyId !== undefined)
      await this.recordStrategyStart(fw.strategyId, dl, target, r.key);
    return r;
  }

  async progress(caller: Caller, p: P<'queryCollectorFirmwareUpgradeProgress'>): Promise<UpgradeProgressDat> {
    const dl = await this.visible(caller, p.pn);
    const t = await this.taskOf(dl, p.key);
    if (!t) return { status: FIRMWARE_UPGRADE_STATUS.notInUpgrade, progress: 0 };
    return { status: t.status, progress: t.progress };
  }

  async status(caller: Caller, p: P<'queryCollectorFirmwareUpgradeStatus'>): Promise<UpgradeStatusDat> {
    const dl = await this.visible(caller, p.pn);
    const t = await this.deps.engine.activeTask(dl.pn);
    if (!t) return { status: FIRMWARE_UPGRADE_STATUS.notInUpgrade };
    return { status: FIRMWARE_UPGRADE_STATUS.running, key: t.key, progress: t.progress };
  }

  async lastRecord(caller: Caller, p: P<'queryCollectorFirmwareUpgradeLastRecord'>): Promise<UpgradeLastRecordDat> {
    const dl = await this.visible(caller, p.pn);
    const t = await this.db
      .selectFrom('upgrade_tasks')
      .select(['status', 'progress', 'created_at'])
      .where('pn', '=', dl.pn)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!t) throw new ApiError(12);
    return { ts: fmtTs(Number(t.created_at), dl.tz_offset), status: Number(t.status), progress: Number(t.progress) };
  }

  async cancel(caller: Caller, p: P<'cancelCollectorFirmwareUpgrade'>): Promise<UpgradeCancelDat> {
    const dl = await this.writable(caller, p.pn);
    const t = await this.taskOf(dl, p.key);
    if (!t) return { ret: 1, status: FIRMWARE_UPGRADE_STATUS.notInUpgrade };
    const ok = await this.deps.engine.cancel(p.key, { accountId: caller.accountId, usr: caller.usr });
    const after = await this.taskOf(dl, p.key);
    return { ret: ok ? 0 : 1, status: after?.status ?? t.status };
  }

  // ------------------------------------------------------------------------------------------
  // Batches
  // ------------------------------------------------------------------------------------------

  async batch(caller: Caller, p: P<'firmwareUpgradeBatch'>): Promise<UpgradeBatchDat> {
    const vendor = await this.vendorOf(caller);
    if (vendor === undefined) throw new ApiError(11);
    const fwRow = await this.db
      .selectFrom('firmwares')
      .select(['id', 'vendor_id', 'type', 'baud_rate'])
      .where('code', '=', p.firmware.trim())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!fwRow || (vendor !== null && Number(fwRow.vendor_id) !== vendor)) throw new ApiError(352);
    await this.deps.engine.distributable(Number(fwRow.id));
    const type = p.type ?? Number(fwRow.type);
    const target = firmwareTarget(type);
    const baud = p.baudRate ?? (fwRow.baud_rate === null ? undefined : Number(fwRow.baud_rate));
    if (
      target === 1 &&
      (p.devcode === undefined || baud === undefined || !(BAUD_RATES as readonly number[]).includes(baud))
    )
      throw new ApiError(7, p.devcode === undefined ? 'devcode' : 'baudRate');

    if (p.pn === undefined || p.pn.trim() === '') return this.batchByFilter(caller, p, fwRow, type, target, baud);
    // The selection (at most 256 PNs), started one by one through the engine in the action.
    const pns = [
      ...new Set(
        p.pn
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      ),
    ];
    if (pns.length > 256) throw new ApiError(13);
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: pns });
    const items: UpgradeTarget[] = [];
    if (target === 0) for (const pn of pns) items.push({ pn, target: 0 });
    else if (pns.length > 0) {
      const devs = await this.db
        .selectFrom('devices')
        .select(['pn', 'devcode', 'devaddr', 'sn'])
        .where('pn', 'in', pns)
        .where('devcode', '=', p.devcode!)
        .orderBy('pn')
        .orderBy('devaddr')
        .execute();
      for (const d of devs)
        items.push({ pn: d.pn, target: 1, devcode: Number(d.devcode), devaddr: Number(d.devaddr), sn: d.sn });
    }
    const now = this.deps.now();
    const ins = await this.db
      .insertInto('upgrade_batches')
      .values({
        account_id: caller.accountId,
        firmware_id: Number(fwRow.id),
        target,
        filter: JSON.stringify({ pn: p.pn }),
        total: items.length,
        created_at: now,
        state: UPGRADE_BATCH_STATE.ready,
        fw_type: type,
        baud_rate: baud ?? null,
        devcode: p.devcode ?? null,
        usr: caller.usr,
        materialised: items.length,
        progress: 100,
        finished_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const batch = Number(ins.id);
    const out: UpgradeBatchDat = {
      batch,
      total: items.length,
      started: 0,
      waiting: 0,
      refused: [],
      state: UPGRADE_BATCH_STATE.ready,
      materialised: items.length,
    };
    for (const it of items) {
      const r = await this.deps.engine.start(
        {
          target: it,
          firmwareId: Number(fwRow.id),
          fwType: type,
          ...(baud !== undefined ? { baudRate: baud } : {}),
          by: { accountId: caller.accountId, usr: caller.usr },
          batchId: batch,
          queueIfOffline: true,
        },
        // The batch runs in the action's transaction: nothing is sent before it commits.
        { deferred: true },
      );
      if (r.ret === 0) {
        const row = await this.db
          .selectFrom('upgrade_tasks')
          .select('phase')
          .where('key', '=', r.key!)
          .executeTakeFirst();
        if (row?.phase === 'waiting') out.waiting += 1;
        else out.started += 1;
      } else out.refused.push({ pn: it.pn, sn: it.target === 1 ? it.sn : '', ret: r.ret, err: 0 });
    }
    if (out.refused.length > 0)
      await this.db.updateTable('upgrade_batches').set({ refused: out.refused.length }).where('id', '=', batch).execute();
    await this.deps.audit.record({
      entity: 'upgrade_batch',
      entityId: batch,
      before: null,
      after: { firmware: p.firmware.trim(), target, pn: pns.join(','), total: items.length, refused: out.refused.length },
    });
    return out;
  }

  /**
   * A batch by filter, however large (docs/firmware/batches.md): the batch is recorded with its
   * filter, firmware, owner and the count of targets the filter matches now (in SQL, over the
   * caller's scope); its first page of tasks is created here, in the action's transaction, and a
   * batch with more targets is left 'materialising' for the background job (UpgradeBatchJobs),
   * which the runner starts once this transaction has committed.
   */
  private async batchByFilter(
    caller: Caller,
    p: P<'firmwareUpgradeBatch'>,
    fwRow: { id: number; vendor_id: number },
    type: number,
    target: number,
    baud: number | undefined,
  ): Promise<UpgradeBatchDat> {
    const scope = await this.deps.access.scopeOf(caller);
    const filter: BatchFilter = {
      ...(p.plantid !== undefined ? { plantid: p.plantid } : {}),
      ...(p.status !== undefined ? { status: p.status } : {}),
      ...(p.model ? { model: p.model } : {}),
      ...(p.version ? { version: p.version } : {}),
    };
    const devcode = target === 1 ? p.devcode! : null;
    const total = await this.batches.count(scope, Number(fwRow.vendor_id), filter, target, devcode);
    const now = this.deps.now();
    const ins = await this.db
      .insertInto('upgrade_batches')
      .values({
        account_id: caller.accountId,
        firmware_id: Number(fwRow.id),
        target,
        filter: JSON.stringify(filter),
        total,
        created_at: now,
        state: UPGRADE_BATCH_STATE.materialising,
        fw_type: type,
        baud_rate: baud ?? null,
        devcode,
        usr: caller.usr,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const batch = Number(ins.id);
    const first = await this.batches.page(batch, scope, null);
    const after = await this.db
      .selectFrom('upgrade_batches')
      .select(['total', 'materialised', 'state'])
      .where('id', '=', batch)
      .executeTakeFirstOrThrow();
    await this.deps.audit.record({
      entity: 'upgrade_batch',
      entityId: batch,
      before: null,
      after: { firmware: p.firmware.trim(), target, filter, devcode, total, state: after.state },
    });
    if (!first.done) await this.deps.dbh.durable(() => Promise.resolve(this.batches.onQueued()));
    return {
      batch,
      total: Number(after.total),
      started: first.started,
      waiting: first.waiting,
      refused: first.refused,
      state: after.state,
      materialised: Number(after.materialised),
    };
  }

  /** queryFirmwareUpgradeBatch: one batch of the caller (any for the operator) and its tasks' counts in one grouped query. */
  async batchProgress(caller: Caller, p: P<'queryFirmwareUpgradeBatch'>): Promise<UpgradeBatchProgressDat> {
    let q = this.db
      .selectFrom('upgrade_batches as b')
      .innerJoin('firmwares as f', 'f.id', 'b.firmware_id')
      .select(['b.id', 'b.state', 'b.target', 'b.usr', 'b.created_at', 'b.total', 'b.materialised', 'b.refused', 'b.error'])
      .select(['f.code', 'f.name', 'f.version'])
      .where('b.id', '=', p.batch);
    if (caller.role !== ROLE.OPERATOR) q = q.where('b.account_id', '=', caller.accountId);
    const b = await q.executeTakeFirst();
    if (!b) throw new ApiError(12);
    const counts = await this.db
      .selectFrom('upgrade_tasks')
      .select(['status', 'phase', (eb) => eb.fn.countAll<number>().as('n')])
      .where('batch_id', '=', p.batch)
      .groupBy(['status', 'phase'])
      .execute();
    const out: UpgradeBatchProgressDat = {
      batch: Number(b.id),
      state: b.state,
      target: Number(b.target),
      firmware: { code: b.code, name: b.name, version: b.version },
      usr: b.usr,
      ts: fmtTs(Number(b.created_at), 0),
      total: Number(b.total),
      materialised: Number(b.materialised),
      refused: Number(b.refused),
      started: 0,
      waiting: 0,
      done: 0,
      failed: 0,
      cancelled: 0,
      error: b.error,
    };
    for (const c of counts) {
      const n = Number(c.n);
      const st = Number(c.status);
      if (st === FIRMWARE_UPGRADE_STATUS.running) {
        if (c.phase === 'waiting') out.waiting += n;
        else out.started += n;
      } else if (st === FIRMWARE_UPGRADE_STATUS.success) out.done += n;
      else if (st === FIRMWARE_UPGRADE_STATUS.cancelled) out.cancelled += n;
      else out.failed += n;
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Lists
  // ------------------------------------------------------------------------------------------

  async tasks(caller: Caller, p: P<'queryFirmwareUpgrades'>, locale: string): Promise<UpgradeTasksDat> {
    // The caller's scope in SQL on the joined datalogger (the same predicate as checkAccess).
    const scope = await this.deps.access.scopeOf(caller);
    const pnLike = p.pn && p.pn.trim() !== '' ? likePattern(p.pn.trim()) : undefined;
    const base = () => {
      let q = this.db
        .selectFrom('upgrade_tasks as t')
        .innerJoin('firmwares as f', 'f.id', 't.firmware_id')
        .innerJoin('dataloggers as d', 'd.pn', 't.pn')
        .leftJoin('upgrade_strategies as s', 's.id', 't.strategy_id')
        .where(dataloggerScopeSql(scope, 'd'));
      if (pnLike) q = q.where(sql<SqlBool>`lower(t.pn) like ${pnLike} escape '\\'`);
      if (p.sn) q = q.where('t.sn', '=', p.sn);
      if (p.devcode !== undefined) q = q.where('t.devcode', '=', p.devcode);
      if (p.devaddr !== undefined) q = q.where('t.devaddr', '=', p.devaddr);
      if (p.target !== undefined) q = q.where('t.target', '=', p.target);
      if (p.batch !== undefined) q = q.where('t.batch_id', '=', p.batch);
      if (p.strategy) q = q.where('s.code', '=', p.strategy);
      if (p.firmware) q = q.where('f.code', '=', p.firmware);
      if (p.sdate && /^\d{4}-\d{2}-\d{2}$/.test(p.sdate))
        q = q.where('t.created_at', '>=', Date.parse(`${p.sdate}T00:00:00Z`));
      if (p.edate && /^\d{4}-\d{2}-\d{2}$/.test(p.edate))
        q = q.where('t.created_at', '<', Date.parse(`${p.edate}T00:00:00Z`) + 86_400_000);
      return q;
    };
    const counts = await base()
      .select(['t.status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('t.status')
      .execute();
    const count: Record<string, number> = {};
    for (const c of counts) count[String(c.status)] = Number(c.n);
    const filtered = p.status !== undefined ? base().where('t.status', '=', p.status) : base();
    const total = Number((await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const page = p.page ?? 0;
    const pagesize = p.pagesize ?? 20;
    const rows = await filtered
      .select([
        't.key',
        't.pn',
        't.target',
        't.devcode',
        't.devaddr',
        't.sn',
        'd.alias',
        'd.tz_offset',
        'f.code as fcode',
        'f.name as fname',
        'f.version as fversion',
        'f.type as ftype',
        't.from_version',
        't.to_version',
        't.status',
        't.phase',
        't.progress',
        't.baud_rate',
        't.error',
        't.usr',
        't.batch_id',
        's.code as scode',
        't.created_at',
        't.updated_at',
        't.ended_at',
      ])
      .orderBy('t.id', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const task: UpgradeTaskRow[] = rows.map((r) => {
      const tz = Number(r.tz_offset);
      return {
        key: r.key,
        pn: r.pn,
        target: Number(r.target),
        devcode: n(r.devcode),
        devaddr: n(r.devaddr),
        sn: r.sn,
        alias: r.alias,
        firmware: { code: r.fcode, name: r.fname, version: r.fversion, type: Number(r.ftype) },
        fromVersion: r.from_version,
        toVersion: r.to_version,
        status: Number(r.status),
        phase: r.phase,
        progress: Number(r.progress),
        baudRate: n(r.baud_rate),
        // A stored reason code in the caller's language; legacy free text as stored.
        error: upgradeReasonText(r.error, locale),
        usr: r.usr,
        batch: n(r.batch_id),
        strategy: r.scode ?? null,
        ts: fmtTs(Number(r.created_at), tz),
        uts: fmtTs(Number(r.updated_at), tz),
        ets: r.ended_at === null ? null : fmtTs(Number(r.ended_at), tz),
      };
    });
    return { total, page, pagesize, task, count };
  }

  /**
   * The suggested strategies in effect of `pns` (as `suggestedFor`, docs/firmware/strategies.md
   * "Offers"), in one query for a whole page: keyed by `pn|sn` ('' for the datalogger itself),
   * newest first.
   */
  private async suggestedForPage(pns: string[]) {
    const out = new Map<string, Array<{ code: string; reminder: string; fwType: number; baudRate: number; fw: OfferFw }>>();
    if (pns.length === 0) return out;
    const now = this.deps.now();
    const rows = await this.db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('upgrade_strategies as s', 's.id', 'd.strategy_id')
      .innerJoin('firmwares as f', 'f.id', 's.firmware_id')
      .innerJoin('dataloggers as dl', 'dl.pn', 'd.pn')
      .select(['d.pn', 'd.target', 'd.sn', 's.code', 's.reminder', 's.fw_type', 's.baud_rate'])
      .select(['f.code as fw_code', 'f.name as fw_name', 'f.version as fw_version', 'f.note'])
      .where('d.pn', 'in', pns)
      .where('d.result', '!=', STRATEGY_DEVICE_RESULT.success)
      .whereRef('s.vendor_id', '=', 'dl.vendor_id')
      .whereRef('f.vendor_id', '=', 'dl.vendor_id')
      .where(suggestedStrategyOpen(now))
      .where('f.deleted_at', 'is', null)
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .execute();
    for (const r of rows) {
      const k = `${r.pn}|${Number(r.target) === 1 ? r.sn : ''}`;
      if (Number(r.target) === 0 && r.sn !== '') continue;
      const list = out.get(k) ?? [];
      list.push({
        code: r.code,
        reminder: r.reminder,
        fwType: Number(r.fw_type),
        baudRate: Number(r.baud_rate),
        fw: { code: r.fw_code, name: r.fw_name, version: r.fw_version, note: r.note },
      });
      out.set(k, list);
    }
    return out;
  }

  /** The default firmware of each (manufacturer, datalogger type) of a page, in one query; keyed by `vendor|type`. */
  private async defaultsForPage(pairs: Array<{ vendor: number; type: string }>) {
    const out = new Map<string, OfferFw & { type: number; baudRate: number | null }>();
    if (pairs.length === 0) return out;
    const rows = await this.db
      .selectFrom('default_firmwares as d')
      .innerJoin('firmwares as f', 'f.id', 'd.firmware_id')
      .select(['d.vendor_id', 'd.datalogger_type', 'f.code', 'f.name', 'f.version', 'f.type', 'f.baud_rate', 'f.note'])
      .where('d.vendor_id', 'in', [...new Set(pairs.map((x) => x.vendor))])
      .where('d.datalogger_type', 'in', [...new Set(pairs.map((x) => x.type))])
      .where('f.deleted_at', 'is', null)
      .execute();
    for (const r of rows)
      out.set(`${Number(r.vendor_id)}|${r.datalogger_type}`, {
        code: r.code,
        name: r.name,
        version: r.version,
        note: r.note,
        type: Number(r.type),
        baudRate: r.baud_rate === null ? null : Number(r.baud_rate),
      });
    return out;
  }

  /**
   * The last task of each target of a page (the row with the greatest id per datalogger, or per
   * device of one datalogger), in one query over a grouped subquery.
   */
  private async lastTasksForPage(pns: string[], devicesOf?: string) {
    const out = new Map<string, { key: string; status: number; progress: number }>();
    if (pns.length === 0) return out;
    const rows = await this.db
      .selectFrom('upgrade_tasks')
      .select(['pn', 'target', 'devcode', 'devaddr', 'key', 'status', 'progress'])
      .where('id', 'in', (eb) => {
        const q = eb.selectFrom('upgrade_tasks').select((e) => e.fn.max('id').as('id'));
        return devicesOf === undefined
          ? q.where('pn', 'in', pns).where('target', '=', 0).groupBy('pn')
          : q.where('pn', '=', devicesOf).groupBy(['target', 'devcode', 'devaddr']);
      })
      .execute();
    for (const t of rows) {
      const k = t.devcode === null ? `${t.pn}|` : `${t.pn}|${Number(t.devcode)}|${Number(t.devaddr)}`;
      // A datalogger task (devcode null) is keyed by its PN; for devices, by code and address.
      if (Number(t.target) === 0 && t.devcode !== null) continue;
      out.set(k, { key: t.key, status: Number(t.status), progress: Number(t.progress) });
    }
    return out;
  }

  /**
   * queryUpgradeableFirmware: a page is a bounded number of queries whatever its size (the count,
   * the page, then one query each for the page's last tasks, default firmwares and suggested
   * strategies; docs/firmware/upgrades-web.md). The offer: a suggested strategy in effect
   * listing the target comes first (its firmware, type, baud rate and reminder), then, for
   * dataloggers, the default firmware of the type; nothing when the target already runs that
   * version.
   */
  async upgradeable(
    caller: Caller,
    p: P<'queryUpgradeableFirmware'>,
  ): Promise<{ total: number; page: number; pagesize: number; item: UpgradeableRow[] }> {
    const page = p.page ?? 0;
    const pagesize = p.pagesize ?? 20;
    type Row = Omit<UpgradeableRow, 'offer' | 'task'> & { vendor: number | null; typeCode: string };
    const rows: Row[] = [];
    let total: number;
    let devicesOf: string | undefined;
    if (p.pn && p.pn.trim() !== '') {
      // One datalogger (row 0) and its devices (rows 1..), paged in SQL.
      const dl = await this.visible(caller, p.pn);
      devicesOf = dl.pn;
      const devs = this.db.selectFrom('devices').where('pn', '=', dl.pn);
      total = 1 + Number((await devs.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const from = page * pagesize;
      const base = { pn: dl.pn, vendor: dl.vendor_id, typeCode: dl.type_code };
      if (from === 0 && pagesize > 0)
        rows.push({
          ...base,
          target: 0,
          devcode: null,
          devaddr: null,
          sn: dl.pn,
          alias: dl.alias,
          model: dl.model,
          online: dl.status === 0,
          version: dl.firmware,
        });
      const want = from === 0 ? pagesize - 1 : pagesize;
      if (want > 0) {
        const list = await devs
          .select(['devcode', 'devaddr', 'sn', 'alias', 'model', 'firmware', 'status'])
          .orderBy('devaddr')
          .orderBy('id')
          .limit(want)
          .offset(Math.max(0, from - 1))
          .execute();
        for (const d of list)
          rows.push({
            ...base,
            target: 1,
            devcode: Number(d.devcode),
            devaddr: Number(d.devaddr),
            sn: d.sn,
            alias: d.alias,
            model: d.model,
            online: Number(d.status) === 0,
            version: d.firmware,
          });
      }
    } else {
      // Every visible datalogger, paged in SQL (the scope predicate, no cap).
      const scope = await this.deps.access.scopeOf(caller);
      let q = this.db.selectFrom('dataloggers as d').where(dataloggerScopeSql(scope, 'd'));
      if (caller.role === ROLE.OWNER) q = q.where('d.owner_id', '=', caller.accountId);
      total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const list = await q
        .select(['d.pn', 'd.vendor_id', 'd.type_code', 'd.model', 'd.alias', 'd.firmware', 'd.status'])
        .orderBy('d.pn')
        .limit(pagesize)
        .offset(page * pagesize)
        .execute();
      for (const r of list)
        rows.push({
          pn: r.pn,
          vendor: r.vendor_id === null ? null : Number(r.vendor_id),
          typeCode: r.type_code,
          target: 0,
          devcode: null,
          devaddr: null,
          sn: r.pn,
          alias: r.alias,
          model: r.model,
          online: Number(r.status) === 0,
          version: r.firmware,
        });
    }
    const pns = [...new Set(rows.map((r) => r.pn))];
    const [last, suggested, defaults] = await Promise.all([
      this.lastTasksForPage(pns, devicesOf),
      this.suggestedForPage(pns),
      this.defaultsForPage(
        rows.filter((r) => r.target === 0 && r.vendor !== null).map((r) => ({ vendor: r.vendor!, type: r.typeCode })),
      ),
    ]);
    const item: UpgradeableRow[] = rows.map(({ vendor, typeCode, ...r }) => {
      let offer: UpgradeableRow['offer'] = null;
      if (vendor !== null) {
        const st = (suggested.get(`${r.pn}|${r.target === 1 ? r.sn : ''}`) ?? []).find((x) => x.fw.version !== r.version);
        if (st)
          offer = {
            firmware: { code: st.fw.code, name: st.fw.name, version: st.fw.version, type: st.fwType, baudRate: st.baudRate },
            from: 'strategy',
            strategy: st.code,
            reminder: st.reminder,
            note: st.fw.note,
          };
        else if (r.target === 0) {
          const def = defaults.get(`${vendor}|${typeCode}`);
          if (def && firmwareTarget(def.type) === 0 && def.version !== r.version)
            offer = {
              firmware: { code: def.code, name: def.name, version: def.version, type: def.type, baudRate: def.baudRate },
              from: 'default',
              note: def.note,
            };
        }
      }
      const task = last.get(r.target === 0 ? `${r.pn}|` : `${r.pn}|${r.devcode}|${r.devaddr}`) ?? null;
      return { ...r, offer, task };
    });
    return { total, page, pagesize, item };
  }
}
