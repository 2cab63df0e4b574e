import {
  ApiError,
  BAUD_RATES,
  FIRMWARE_UPGRADE_STATUS,
  ROLE,
  STRATEGY_DEVICE_RESULT,
  STRATEGY_METHOD,
  firmwareTarget,
  upgradeReasonText,
  type Catalogue,
  type ParsedParamsOf,
  type UpgradeBatchDat,
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
import { currentDb } from '../../db/transaction.js';

type P<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;

/** A datalogger as the upgrade actions see it. */
/** The most targets one batch by filter may start; more answers 13 (never truncated). */
export const BATCH_FILTER_MAX = 10_000;

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
      /** Targets one batch by filter may start (BATCH_FILTER_MAX; tests lower it). */
      batchFilterMax?: number;
    },
  ) {}

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
      .where('s.method', '=', STRATEGY_METHOD.suggested)
      .where('s.cancelled_at', 'is', null)
      .where('s.starts_at', '<=', now)
      .where('s.ends_at', '>', now)
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

    // The dataloggers: the selection, or the filter over the caller's scope.
    const max = this.deps.batchFilterMax ?? BATCH_FILTER_MAX;
    let pns: string[];
    if (p.pn !== undefined && p.pn.trim() !== '') {
      pns = [
        ...new Set(
          p.pn
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
        ),
      ];
      if (pns.length > 256) throw new ApiError(13);
      await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: pns });
    } else {
      // The caller's scope in SQL (the same predicate as checkAccess); above the cap: 13.
      const scope = await this.deps.access.scopeOf(caller);
      let q = this.db
        .selectFrom('dataloggers as d')
        .select('d.pn')
        .where('d.vendor_id', '=', Number(fwRow.vendor_id))
        .where(dataloggerScopeSql(scope, 'd'));
      if (p.plantid !== undefined) q = q.where('d.project_id', '=', p.plantid);
      if (p.status !== undefined) q = q.where('d.status', '=', p.status);
      if (p.model) q = q.where('d.model', '=', p.model);
      if (p.version) q = q.where('d.firmware', '=', p.version);
      pns = (await q.orderBy('d.pn').limit(max + 1).execute()).map((r) => r.pn);
      if (pns.length > max) throw new ApiError(13);
    }
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
      if (items.length > max) throw new ApiError(13);
    }
    const now = this.deps.now();
    const ins = await this.db
      .insertInto('upgrade_batches')
      .values({
        account_id: caller.accountId,
        firmware_id: Number(fwRow.id),
        target,
        filter: JSON.stringify({
          pn: p.pn ?? '',
          plantid: p.plantid,
          status: p.status,
          model: p.model,
          version: p.version,
        }),
        total: items.length,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const batch = Number(ins.id);
    const out: UpgradeBatchDat = { batch, total: items.length, started: 0, waiting: 0, refused: [] };
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

  async upgradeable(
    caller: Caller,
    p: P<'queryUpgradeableFirmware'>,
  ): Promise<{ total: number; page: number; pagesize: number; item: UpgradeableRow[] }> {
    const page = p.page ?? 0;
    const pagesize = p.pagesize ?? 20;
    const item: UpgradeableRow[] = [];
    let total = 0;
    /**
     * A suggested strategy in effect listing the target comes first (its firmware, type, baud
     * rate and reminder), then, for dataloggers, the default firmware of the type; nothing when
     * the target already runs that version.
     */
    const offerFor = async (dl: DlRow, current: string, dev?: DevTarget): Promise<UpgradeableRow['offer']> => {
      if (dl.vendor_id === null) return null;
      const st = (await this.suggestedFor(dl, dev)).find((x) => x.firmware.version !== current);
      if (st)
        return {
          firmware: {
            code: st.firmware.code,
            name: st.firmware.name,
            version: st.firmware.version,
            type: st.fwType,
            baudRate: st.baudRate,
          },
          from: 'strategy',
          strategy: st.code,
          reminder: st.reminder,
          note: st.firmware.note,
        };
      if (dev) return null;
      const def = await this.db
        .selectFrom('default_firmwares as d')
        .innerJoin('firmwares as f', 'f.id', 'd.firmware_id')
        .select(['f.code', 'f.name', 'f.version', 'f.type', 'f.baud_rate', 'f.note'])
        .where('d.vendor_id', '=', dl.vendor_id)
        .where('d.datalogger_type', '=', dl.type_code)
        .where('f.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!def || firmwareTarget(Number(def.type)) !== 0 || def.version === current) return null;
      return {
        firmware: {
          code: def.code,
          name: def.name,
          version: def.version,
          type: Number(def.type),
          baudRate: def.baud_rate === null ? null : Number(def.baud_rate),
        },
        from: 'default',
        note: def.note,
      };
    };
    const lastTask = async (pn: string, devcode: number | null, devaddr: number | null) => {
      let q = this.db.selectFrom('upgrade_tasks').select(['key', 'status', 'progress']).where('pn', '=', pn);
      q =
        devcode === null ? q.where('target', '=', 0) : q.where('devcode', '=', devcode).where('devaddr', '=', devaddr);
      const t = await q.orderBy('id', 'desc').executeTakeFirst();
      return t ? { key: t.key, status: Number(t.status), progress: Number(t.progress) } : null;
    };
    if (p.pn && p.pn.trim() !== '') {
      const dl = await this.visible(caller, p.pn);
      const devs = await this.db
        .selectFrom('devices')
        .select(['devcode', 'devaddr', 'sn', 'alias', 'model', 'firmware', 'status'])
        .where('pn', '=', dl.pn)
        .orderBy('devaddr')
        .execute();
      const all: UpgradeableRow[] = [
        {
          pn: dl.pn,
          target: 0,
          devcode: null,
          devaddr: null,
          sn: dl.pn,
          alias: dl.alias,
          model: dl.model,
          online: dl.status === 0,
          version: dl.firmware,
          offer: await offerFor(dl, dl.firmware),
          task: await lastTask(dl.pn, null, null),
        },
      ];
      for (const d of devs)
        all.push({
          pn: dl.pn,
          target: 1,
          devcode: Number(d.devcode),
          devaddr: Number(d.devaddr),
          sn: d.sn,
          alias: d.alias,
          model: d.model,
          online: Number(d.status) === 0,
          version: d.firmware,
          offer: await offerFor(dl, d.firmware, { devcode: Number(d.devcode), devaddr: Number(d.devaddr), sn: d.sn }),
          task: await lastTask(dl.pn, Number(d.devcode), Number(d.devaddr)),
        });
      total = all.length;
      item.push(...all.slice(page * pagesize, page * pagesize + pagesize));
      return { total, page, pagesize, item };
    }
    // Every visible datalogger, paged in SQL (the scope predicate, no cap); the last task of the
    // page's dataloggers in one query. The offer (a suggested strategy first, then the default
    // firmware of the type) is worked out for the page's rows only.
    const scope = await this.deps.access.scopeOf(caller);
    let q = this.db.selectFrom('dataloggers as d').where(dataloggerScopeSql(scope, 'd'));
    if (caller.role === ROLE.OWNER) q = q.where('d.owner_id', '=', caller.accountId);
    total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .select(['d.pn', 'd.owner_id', 'd.vendor_id', 'd.type_code', 'd.model', 'd.alias', 'd.firmware', 'd.status', 'd.tz_offset'])
      .orderBy('d.pn')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    const pagePns = rows.map((r) => r.pn);
    const last = new Map<string, { key: string; status: number; progress: number }>();
    if (pagePns.length > 0) {
      const tasks = await this.db
        .selectFrom('upgrade_tasks')
        .select(['pn', 'key', 'status', 'progress'])
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('upgrade_tasks')
            .select((e) => e.fn.max('id').as('id'))
            .where('pn', 'in', pagePns)
            .where('target', '=', 0)
            .groupBy('pn'),
        )
        .execute();
      for (const t of tasks) last.set(t.pn, { key: t.key, status: Number(t.status), progress: Number(t.progress) });
    }
    for (const r of rows) {
      const dl: DlRow = {
        ...r,
        owner_id: r.owner_id === null ? null : Number(r.owner_id),
        vendor_id: r.vendor_id === null ? null : Number(r.vendor_id),
        status: Number(r.status),
        tz_offset: Number(r.tz_offset),
      };
      item.push({
        pn: dl.pn,
        target: 0,
        devcode: null,
        devaddr: null,
        sn: dl.pn,
        alias: dl.alias,
        model: dl.model,
        online: dl.status === 0,
        version: dl.firmware,
        offer: await offerFor(dl, dl.firmware),
        task: last.get(dl.pn) ?? null,
      });
    }
    return { total, page, pagesize, item };
  }
}
