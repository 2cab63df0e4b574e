import {
  ApiError,
  ROLE,
  STRATEGY_DEVICE_RESULT,
  STRATEGY_STATUS,
  firmwareTarget,
  strategyPauseText,
  strategyStatusAt,
  upgradeReasonText,
  decodeStrategyPause,
  type StrategyCandidatesDat,
  type StrategyFilter,
  type ParsedParamsOf,
  type StrategyDeviceListDat,
  type StrategyListDat,
  type StrategyMethod,
  type StrategyRow,
  type SuggestedStrategy,
  type Catalogue,
} from '@sunwatch/protocol';
import { sql, type Selectable, type SqlBool } from 'kysely';
import { likePattern } from '../../db/like.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { UpgradeStrategiesTable } from '../../db/schema-firmware.js';
import { currentDb } from '../../db/transaction.js';
import type { AccessService } from '../../access/access.service.js';
import type { AuditService } from '../audit/audit.service.js';
import { ancestorIds } from '../roles/control-fields.service.js';
import { epochToLocal, localToEpoch } from './strategy-time.js';
import { strategyInEffect, suggestedStrategyOpen } from '../upgrades/strategy-window.js';
import { deviceTargets, loggerTargets, storedFilter, targetRank } from './strategy-targets.js';

type AddParams = ParsedParamsOf<Catalogue['addUpgradeStrategy']>;
type EditParams = ParsedParamsOf<Catalogue['editUpgradeStrategy']>;
type StrategyRecord = Selectable<UpgradeStrategiesTable>;

export interface UpgradeStrategiesDeps {
  db: Db;
  access: AccessService;
  audit: AuditService;
  now: () => number;
}

/** An associated device resolved against the fleet. */
interface ResolvedDevice {
  pn: string;
  sn: string;
  target: 0 | 1;
  devcode: number | null;
  devaddr: number | null;
}

/**
 * The fields spec §5 requires, in the order their absence is reported (err 7). `devices` may be
 * replaced by a `filter` (a fleet-sized strategy).
 */
const REQUIRED = ['name', 'description', 'firmware', 'type', 'baudRate', 'timezone', 'startTime', 'endTime', 'method', 'devices'] as const;

/** A filter is checked against the firmware's target: device firmware needs a devcode, datalogger firmware takes none. */
function checkFilter(f: StrategyFilter, type: number): void {
  const target = firmwareTarget(type);
  if (target === 1 && f.devcode === undefined) throw new ApiError(7, 'devcode');
  if (target === 0 && f.devcode !== undefined) throw new ApiError(6, 'filter');
}

const CHUNK = 500;
function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Devices of the canary stage: `percent` of `n`, at least one when percent > 0. */
export function canarySize(n: number, percent: number): number {
  if (percent <= 0 || n === 0) return 0;
  return Math.min(n, Math.max(1, Math.floor((n * percent) / 100)));
}

/**
 * Upgrade strategies (issue 13, docs/firmware/strategies.md): create, edit before start, cancel
 * (final), resume a paused rollout, lists. Every read and write is scoped to the caller:
 * - operator (15): every strategy;
 * - manufacturer (1): the strategies of its firmware (`vendor_id` = itself);
 * - distributor (2, sub-administrators as their principal): the strategies created inside its
 *   subtree, on its manufacturer's firmware.
 * A strategy outside the scope answers 12 exactly like a missing one. The rollout itself is
 * `StrategyRollout` (strategy-rollout.ts).
 */
export class UpgradeStrategiesService {
  constructor(private readonly deps: UpgradeStrategiesDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /** The manufacturer at the top of an account's tree (itself when it is one). */
  private async manufacturerOf(caller: Caller): Promise<number | null> {
    if (caller.role === ROLE.MANUFACTURER) return caller.adminOf ?? caller.accountId;
    const above = ancestorIds(caller.path, caller.accountId);
    if (above.length === 0) return null;
    const rows = await this.db.selectFrom('accounts').select('id').where('id', 'in', above).where('role', '=', ROLE.MANUFACTURER).execute();
    const ids = new Set(rows.map((r) => Number(r.id)));
    for (let i = above.length - 1; i >= 0; i--) if (ids.has(above[i]!)) return above[i]!;
    return null;
  }

  /** The materialised path of a distributor's principal (itself, or the account it administers). */
  private async principalPath(caller: Caller): Promise<string> {
    if (caller.adminOf == null) return caller.path;
    const row = await this.db.selectFrom('accounts').select('path').where('id', '=', caller.adminOf).executeTakeFirst();
    return row?.path ?? caller.path;
  }

  /** A query of the strategies the caller may see. */
  private async scoped(caller: Caller) {
    let q = this.db.selectFrom('upgrade_strategies as s');
    if (caller.role === ROLE.OPERATOR) return q;
    if (caller.role === ROLE.MANUFACTURER) {
      const maker = await this.manufacturerOf(caller);
      return q.where('s.vendor_id', '=', maker ?? -1);
    }
    if (caller.role === ROLE.DISTRIBUTOR) {
      const path = await this.principalPath(caller);
      q = q.where('s.created_by', 'in', (eb) =>
        eb
          .selectFrom('accounts as a')
          .select('a.id')
          .where(sql<SqlBool>`a.path like ${`${path.replace(/[%_\\]/g, '\\$&')}%`} escape '\\'`),
      );
      return q;
    }
    return q.where(sql<boolean>`1 = 0`);
  }

  /** The strategy `code` if the caller may see it, else 12. */
  private async find(caller: Caller, code: string): Promise<StrategyRecord> {
    const row = await (await this.scoped(caller)).selectAll('s').where('s.code', '=', code).executeTakeFirst();
    if (!row) throw new ApiError(12);
    return row;
  }

  /** The firmware `code` if the caller may use it (its manufacturer's, not deleted), else 352. */
  private async firmwareFor(caller: Caller, code: string) {
    let q = this.db
      .selectFrom('firmwares')
      .select(['id', 'vendor_id', 'type', 'name', 'version'])
      .where('code', '=', code)
      .where('deleted_at', 'is', null);
    if (caller.role !== ROLE.OPERATOR) q = q.where('vendor_id', '=', (await this.manufacturerOf(caller)) ?? -1);
    const fw = await q.executeTakeFirst();
    if (!fw) throw new ApiError(352);
    return fw;
  }

  /** Checks every associated device is the caller's (257 datalogger, 258 device) and matches the firmware's target. */
  private async resolveDevices(caller: Caller, entries: readonly string[], fwType: number): Promise<ResolvedDevice[]> {
    const want = firmwareTarget(fwType);
    const parsed = entries.map((e) => {
      const [pn, sn = ''] = e.split(':') as [string, string?];
      return { pn, sn };
    });
    if (parsed.some((d) => (d.sn === '' ? 0 : 1) !== want)) throw new ApiError(6, 'devices');
    const pns = [...new Set(parsed.map((d) => d.pn))];
    const scope = await this.deps.access.scopeOf(caller);
    for (const part of chunks(pns)) await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: part, scope });
    if (want === 0) return parsed.map((d) => ({ pn: d.pn, sn: '', target: 0, devcode: null, devaddr: null }));
    const found = new Map<string, { devcode: number; devaddr: number }>();
    for (const part of chunks(pns)) {
      const rows = await this.db.selectFrom('devices').select(['pn', 'sn', 'devcode', 'devaddr']).where('pn', 'in', part).execute();
      for (const r of rows) found.set(`${r.pn}:${r.sn}`, { devcode: Number(r.devcode), devaddr: Number(r.devaddr) });
    }
    return parsed.map((d) => {
      const dev = found.get(`${d.pn}:${d.sn}`);
      if (!dev) throw new ApiError(258);
      return { pn: d.pn, sn: d.sn, target: 1, devcode: dev.devcode, devaddr: dev.devaddr };
    });
  }

  /** Writes the device rows of a strategy that has not started: canary first, chosen by a stable hash. */
  private async writeDevices(strategyId: number, code: string, devices: readonly ResolvedDevice[], canaryPercent: number): Promise<void> {
    const now = this.deps.now();
    const order = devices
      .map((d) => ({ ...d, rank: targetRank(code, d.pn, d.sn) }))
      .sort((a, b) => a.rank - b.rank || (a.pn < b.pn ? -1 : a.pn > b.pn ? 1 : a.sn < b.sn ? -1 : a.sn > b.sn ? 1 : 0));
    const canary = canarySize(order.length, canaryPercent);
    await this.db.deleteFrom('upgrade_strategy_devices').where('strategy_id', '=', strategyId).execute();
    for (const part of chunks(order.map((d, i) => ({ d, stage: i < canary ? 0 : 1 })), 200)) {
      await this.db
        .insertInto('upgrade_strategy_devices')
        .values(
          part.map(({ d, stage }) => ({
            strategy_id: strategyId,
            pn: d.pn,
            sn: d.sn,
            target: d.target,
            devcode: d.devcode,
            devaddr: d.devaddr,
            stage,
            result: STRATEGY_DEVICE_RESULT.notUpgraded,
            task_key: null,
            rank: d.rank,
            updated_at: now,
          })),
        )
        .execute();
    }
  }

  /** The next code of the day: `ST<yyyymmdd>-<nnnn>`. */
  private async nextCode(): Promise<string> {
    const day = new Date(this.deps.now()).toISOString().slice(0, 10).replace(/-/g, '');
    const prefix = `ST${day}-`;
    const rows = await this.db.selectFrom('upgrade_strategies').select('code').where('code', 'like', `${prefix}%`).execute();
    const max = rows.reduce((m, r) => Math.max(m, Number(r.code.slice(prefix.length)) || 0), 0);
    return `${prefix}${String(max + 1).padStart(4, '0')}`;
  }

  async add(caller: Caller, p: AddParams): Promise<{ id: number; code: string }> {
    const filter = p.filter ?? null;
    for (const k of REQUIRED) {
      if (k === 'devices' && filter !== null) continue;
      if (p[k] === undefined || (k === 'devices' && p.devices!.length === 0)) throw new ApiError(7, k);
    }
    const fw = await this.firmwareFor(caller, p.firmware!);
    if (fw.type !== p.type) throw new ApiError(6, 'type');
    if (filter) checkFilter(filter, p.type!);
    const startsAt = localToEpoch(p.startTime!, p.timezone!, 'startTime');
    const endsAt = localToEpoch(p.endTime!, p.timezone!, 'endTime');
    const now = this.deps.now();
    if (endsAt <= startsAt || endsAt <= now) throw new ApiError(6, 'endTime');
    const devices = p.devices && p.devices.length > 0 ? await this.resolveDevices(caller, p.devices, p.type!) : [];
    const code = await this.nextCode();
    const canary = p.canaryPercent ?? 0;
    const values = {
      code,
      vendor_id: fw.vendor_id,
      created_by: caller.accountId,
      name: p.name!,
      description: p.description!,
      firmware_id: fw.id,
      fw_type: p.type!,
      baud_rate: p.baudRate!,
      method: p.method!,
      tz_offset: p.timezone!,
      starts_at: startsAt,
      ends_at: endsAt,
      reminder: p.reminder ?? '',
      canary_percent: canary,
      failure_threshold_percent: p.failureThresholdPercent ?? 20,
      // Without a canary the rollout starts with "the rest" (a filter's stage is set when resolved).
      stage: canarySize(devices.length, canary) > 0 || (filter !== null && canary > 0) ? 0 : 1,
      paused: 0,
      pause_reason: '',
      filter: filter ? JSON.stringify(filter) : '',
      // An explicit list is final; a filter's population is resolved at the effective time.
      resolved_at: filter ? null : now,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
    };
    const row = await this.db.insertInto('upgrade_strategies').values(values).returning('id').executeTakeFirstOrThrow();
    const id = Number(row.id);
    await this.writeDevices(id, code, devices, canary);
    await this.deps.audit.record({
      entity: 'upgrade_strategy',
      entityId: id,
      before: null,
      after: { ...values, devices: devices.length },
    });
    return { id, code };
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const s = await this.find(caller, p.code);
    if (strategyStatusAt(s, this.deps.now()) !== STRATEGY_STATUS.notStarted) throw new ApiError(1, 'started');
    const fw = p.firmware !== undefined ? await this.firmwareFor(caller, p.firmware) : { id: s.firmware_id, type: s.fw_type };
    const type = p.type ?? (p.firmware !== undefined ? fw.type : s.fw_type);
    if (fw.type !== type) throw new ApiError(6, 'type');
    const tz = p.timezone ?? s.tz_offset;
    const startsAt = p.startTime !== undefined ? localToEpoch(p.startTime, tz, 'startTime') : Number(s.starts_at) + (s.tz_offset - tz) * 1000;
    const endsAt = p.endTime !== undefined ? localToEpoch(p.endTime, tz, 'endTime') : Number(s.ends_at) + (s.tz_offset - tz) * 1000;
    const now = this.deps.now();
    if (endsAt <= startsAt || endsAt <= now) throw new ApiError(6, 'endTime');
    const canary = p.canaryPercent ?? s.canary_percent;
    const filter = p.filter !== undefined ? p.filter : storedFilter(s.filter);
    if (filter) checkFilter(filter, type);
    const patch = {
      name: p.name ?? s.name,
      description: p.description ?? s.description,
      firmware_id: fw.id,
      fw_type: type,
      baud_rate: p.baudRate ?? s.baud_rate,
      method: p.method ?? s.method,
      tz_offset: tz,
      starts_at: startsAt,
      ends_at: endsAt,
      reminder: p.reminder ?? s.reminder,
      canary_percent: canary,
      failure_threshold_percent: p.failureThresholdPercent ?? s.failure_threshold_percent,
      filter: filter ? JSON.stringify(filter) : '',
      resolved_at: filter ? null : (s.resolved_at ?? now),
      resolve_cursor: '',
    };
    let devices: ResolvedDevice[] | undefined;
    if (p.devices !== undefined) {
      if (p.devices.length === 0 && !filter) throw new ApiError(7, 'devices');
      devices = await this.resolveDevices(caller, p.devices, type);
    } else if (type !== s.fw_type || canary !== s.canary_percent || (filter === null && s.filter !== '')) {
      const rows = await this.db
        .selectFrom('upgrade_strategy_devices')
        .select(['pn', 'sn', 'target', 'devcode', 'devaddr'])
        .where('strategy_id', '=', s.id)
        .execute();
      if (rows.some((r) => r.target !== firmwareTarget(type))) throw new ApiError(6, 'type');
      devices = rows.map((r) => ({ pn: r.pn, sn: r.sn, target: r.target as 0 | 1, devcode: r.devcode, devaddr: r.devaddr }));
    }
    if (devices && devices.length === 0 && !filter) throw new ApiError(7, 'devices');
    let stage = s.stage;
    if (devices) {
      await this.writeDevices(s.id, s.code, devices, canary);
      stage = canarySize(devices.length, canary) > 0 || (filter !== null && canary > 0) ? 0 : 1;
    } else if (filter) stage = canary > 0 ? 0 : 1;
    const res = await this.db
      .updateTable('upgrade_strategies')
      .set({ ...patch, stage, updated_at: now })
      .where('id', '=', s.id)
      .where('cancelled_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(1, 'started');
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [k, v] of Object.entries({ ...patch, stage })) {
      if (k === 'resolve_cursor') continue;
      const old = (s as Record<string, unknown>)[k];
      if (String(old) !== String(v)) {
        before[k] = old;
        after[k] = v;
      }
    }
    if (devices) after.devices = devices.length;
    await this.deps.audit.record({ entity: 'upgrade_strategy', entityId: s.id, before, after });
  }

  async cancel(caller: Caller, code: string): Promise<void> {
    const s = await this.find(caller, code);
    const status = strategyStatusAt(s, this.deps.now());
    if (status === STRATEGY_STATUS.cancelled) throw new ApiError(14);
    if (status === STRATEGY_STATUS.expired) throw new ApiError(1, 'expired');
    const now = this.deps.now();
    const res = await this.db
      .updateTable('upgrade_strategies')
      .set({ cancelled_at: now, updated_at: now })
      .where('id', '=', s.id)
      .where('cancelled_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(14);
    await this.deps.audit.record({ entity: 'upgrade_strategy', entityId: s.id, before: { cancelled_at: null }, after: { cancelled_at: now } });
  }

  async resume(caller: Caller, code: string): Promise<void> {
    const s = await this.find(caller, code);
    const status = strategyStatusAt(s, this.deps.now());
    if (status === STRATEGY_STATUS.cancelled || status === STRATEGY_STATUS.expired) throw new ApiError(1, 'ended');
    if (s.paused === 0) throw new ApiError(14);
    // The operator acknowledged the failures of the paused stage: the rollout goes on with the
    // next stage (stage 2 = every device released, failure gate acknowledged).
    const stage = Math.min(s.stage + 1, 2);
    const now = this.deps.now();
    const res = await this.db
      .updateTable('upgrade_strategies')
      .set({ paused: 0, pause_reason: '', stage, updated_at: now })
      .where('id', '=', s.id)
      .where('paused', '=', 1)
      .where('cancelled_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(14);
    await this.deps.audit.record({
      entity: 'upgrade_strategy',
      entityId: s.id,
      before: { paused: 1, pause_reason: s.pause_reason, stage: s.stage },
      after: { paused: 0, pause_reason: '', stage },
    });
  }

  async list(
    caller: Caller,
    p: { page: number; pagesize: number; search?: string | undefined; status?: number | undefined },
    locale?: string,
  ): Promise<StrategyListDat> {
    const now = this.deps.now();
    let q = await this.scoped(caller);
    if (p.search) {
      const like = likePattern(p.search);
      q = q.where(sql<SqlBool>`(lower(s.code) like ${like} escape '\\' or lower(s.name) like ${like} escape '\\')`);
    }
    switch (p.status) {
      case STRATEGY_STATUS.notStarted:
        q = q.where('s.cancelled_at', 'is', null).where('s.starts_at', '>', now);
        break;
      case STRATEGY_STATUS.inEffect:
        q = q.where(strategyInEffect(now));
        break;
      case STRATEGY_STATUS.expired:
        q = q.where('s.cancelled_at', 'is', null).where('s.ends_at', '<=', now);
        break;
      case STRATEGY_STATUS.cancelled:
        q = q.where('s.cancelled_at', 'is not', null);
        break;
    }
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .innerJoin('firmwares as f', 'f.id', 's.firmware_id')
      .selectAll('s')
      .select(['f.code as fw_code', 'f.name as fw_name', 'f.version as fw_version'])
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    const counts = new Map<number, { n: number; upgraded: number; success: number; failed: number }>();
    if (rows.length > 0) {
      const agg = await this.db
        .selectFrom('upgrade_strategy_devices')
        .select((eb) => [
          'strategy_id',
          eb.fn.countAll<number>().as('n'),
          eb.fn.sum<number>(eb.case().when('result', '>', 0).then(1).else(0).end()).as('upgraded'),
          eb.fn.sum<number>(eb.case().when('result', '=', STRATEGY_DEVICE_RESULT.success).then(1).else(0).end()).as('success'),
          eb.fn.sum<number>(eb.case().when('result', '=', STRATEGY_DEVICE_RESULT.failed).then(1).else(0).end()).as('failed'),
        ])
        .where('strategy_id', 'in', rows.map((r) => r.id))
        .groupBy('strategy_id')
        .execute();
      for (const a of agg) {
        counts.set(Number(a.strategy_id), {
          n: Number(a.n),
          upgraded: Number(a.upgraded ?? 0),
          success: Number(a.success ?? 0),
          failed: Number(a.failed ?? 0),
        });
      }
    }
    const strategy: StrategyRow[] = rows.map((r) => {
      const c = counts.get(Number(r.id)) ?? { n: 0, upgraded: 0, success: 0, failed: 0 };
      return {
        id: Number(r.id),
        code: r.code,
        name: r.name,
        description: r.description,
        firmware: { code: r.fw_code, name: r.fw_name, version: r.fw_version },
        type: r.fw_type,
        baudRate: r.baud_rate,
        method: r.method as StrategyMethod,
        timezone: r.tz_offset,
        startTime: epochToLocal(Number(r.starts_at), r.tz_offset),
        endTime: epochToLocal(Number(r.ends_at), r.tz_offset),
        startsAt: Number(r.starts_at),
        endsAt: Number(r.ends_at),
        status: strategyStatusAt({ starts_at: Number(r.starts_at), ends_at: Number(r.ends_at), cancelled_at: r.cancelled_at }, now),
        deviceCount: c.n,
        upgraded: c.upgraded,
        success: c.success,
        failed: c.failed,
        stage: r.stage,
        canaryPercent: r.canary_percent,
        failureThresholdPercent: r.failure_threshold_percent,
        paused: r.paused === 1,
        pauseReason: strategyPauseText(r.pause_reason, locale),
        pauseCode: decodeStrategyPause(r.pause_reason)?.code ?? '',
        filter: storedFilter(r.filter),
        resolved: r.filter === '' || r.resolved_at !== null,
        reminder: r.reminder,
        createdAt: Number(r.created_at),
      };
    });
    return { total, page: p.page, pagesize: p.pagesize, strategy };
  }

  async devices(
    caller: Caller,
    p: { code: string; page: number; pagesize: number; search?: string | undefined; result?: number | undefined },
    locale?: string,
  ): Promise<StrategyDeviceListDat> {
    const s = await this.find(caller, p.code);
    let q = this.db.selectFrom('upgrade_strategy_devices as d').where('d.strategy_id', '=', s.id);
    if (p.search) {
      const like = likePattern(p.search);
      q = q.where(sql<SqlBool>`(lower(d.pn) like ${like} escape '\\' or lower(d.sn) like ${like} escape '\\')`);
    }
    if (p.result !== undefined) q = q.where('d.result', '=', p.result);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .leftJoin('upgrade_tasks as t', 't.key', 'd.task_key')
      .select(['d.pn', 'd.sn', 'd.target', 'd.devcode', 'd.devaddr', 'd.stage', 'd.result', 'd.task_key', 'd.updated_at', 't.progress', 't.error'])
      .orderBy('d.stage')
      .orderBy('d.pn')
      .orderBy('d.sn')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      device: rows.map((r) => ({
        pn: r.pn,
        sn: r.sn,
        target: r.target,
        devcode: r.devcode,
        devaddr: r.devaddr,
        stage: r.stage,
        result: r.result,
        key: r.task_key ?? '',
        progress: Number(r.progress ?? 0),
        error: upgradeReasonText(r.error, locale),
        updatedAt: Number(r.updated_at),
      })),
    };
  }

  /**
   * The editor's picker, server-paged and scoped in SQL: dataloggers for datalogger firmware (or no
   * type), the devices behind them (PN:SN) for device firmware. The filter fields narrow it the way
   * a by-filter strategy would resolve, so `total` previews one.
   */
  async candidates(
    caller: Caller,
    p: {
      page: number;
      pagesize: number;
      search?: string | undefined;
      type?: number | undefined;
      devcode?: number | undefined;
      plantid?: number | undefined;
      loggerType?: string | undefined;
      model?: string | undefined;
      version?: string | undefined;
    },
  ): Promise<StrategyCandidatesDat> {
    const scope = await this.deps.access.scopeOf(caller);
    const target = p.type === undefined ? 0 : firmwareTarget(p.type);
    const f: StrategyFilter = {
      ...(p.search ? { search: p.search } : {}),
      ...(p.devcode !== undefined ? { devcode: p.devcode } : {}),
      ...(p.plantid !== undefined ? { plantid: p.plantid } : {}),
      ...(p.loggerType ? { loggerType: p.loggerType } : {}),
      ...(p.model ? { model: p.model } : {}),
      ...(p.version ? { version: p.version } : {}),
    };
    const head = { page: p.page, pagesize: p.pagesize, target };
    if (target === 0) {
      const q = loggerTargets(this.db, scope, f);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .select(['dl.pn', 'dl.alias', 'dl.status', 'dl.firmware'])
        .orderBy('dl.pn')
        .limit(p.pagesize)
        .offset(p.page * p.pagesize)
        .execute();
      return { ...head, total, collector: rows.map((r) => ({ pn: r.pn, alias: r.alias, status: r.status, firmware: r.firmware })), device: [] };
    }
    const q = deviceTargets(this.db, scope, f);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .select(['dv.pn', 'dv.sn', 'dv.devcode', 'dv.devaddr', 'dv.alias', 'dv.model', 'dv.status', 'dv.firmware'])
      .orderBy('dv.pn')
      .orderBy('dv.sn')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return {
      ...head,
      total,
      collector: [],
      device: rows.map((r) => ({
        pn: r.pn,
        sn: r.sn,
        devcode: Number(r.devcode),
        devaddr: Number(r.devaddr),
        alias: r.alias,
        model: r.model,
        status: r.status,
        firmware: r.firmware,
      })),
    };
  }

  /** The suggested strategies in effect that list this datalogger or device and have not upgraded it (257/258 when not visible). */
  async suggested(caller: Caller, p: { pn: string; sn?: string | undefined }): Promise<SuggestedStrategy[]> {
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: [p.pn] });
    const sn = p.sn ?? '';
    if (sn !== '') {
      const dev = await this.db.selectFrom('devices').select('id').where('pn', '=', p.pn).where('sn', '=', sn).executeTakeFirst();
      if (!dev) throw new ApiError(258);
    }
    const now = this.deps.now();
    const rows = await this.db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('upgrade_strategies as s', 's.id', 'd.strategy_id')
      .innerJoin('firmwares as f', 'f.id', 's.firmware_id')
      .select(['s.code', 's.name', 's.reminder', 's.fw_type', 's.baud_rate', 's.ends_at', 's.tz_offset', 'd.result'])
      .select(['f.code as fw_code', 'f.name as fw_name', 'f.version as fw_version'])
      .where('d.pn', '=', p.pn)
      .where('d.sn', '=', sn)
      .where('d.result', '!=', STRATEGY_DEVICE_RESULT.success)
      .where(suggestedStrategyOpen(now))
      .where('f.deleted_at', 'is', null)
      .orderBy('s.created_at', 'desc')
      .limit(20)
      .execute();
    return rows.map((r) => ({
      code: r.code,
      name: r.name,
      reminder: r.reminder,
      firmware: { code: r.fw_code, name: r.fw_name, version: r.fw_version },
      type: r.fw_type,
      baudRate: r.baud_rate,
      endsAt: Number(r.ends_at),
      endTime: epochToLocal(Number(r.ends_at), r.tz_offset),
      timezone: r.tz_offset,
      result: r.result,
    }));
  }
}
