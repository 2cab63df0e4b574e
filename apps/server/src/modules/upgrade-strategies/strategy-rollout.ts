import {
  ApiError,
  DEVICE_STATUS,
  FIRMWARE_UPGRADE_STATUS,
  STRATEGY_DEVICE_RESULT,
  STRATEGY_METHOD,
  encodeStrategyPause,
  firmwareTarget,
  type StrategyStatus,
} from '@sunwatch/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { DbHandle } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import type { UpgradeEngine, UpgradeTarget } from '../upgrades/engine-port.js';
import { strategyInEffect } from '../upgrades/strategy-window.js';
import { canarySize } from './upgrade-strategies.service.js';
import { deviceTargets, loggerTargets, storedFilter, targetRank } from './strategy-targets.js';

export interface StrategyRolloutDeps {
  db: Db;
  /** Short transactions in which the audit row joins the write. */
  dbh: DbHandle;
  audit: AuditService;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  engine: UpgradeEngine;
  /** The strategy creator's scope, for resolving a filter (docs/firmware/strategies.md "By filter"). */
  access: Pick<AccessService, 'scopeOf'>;
  /** Targets read and written per page while resolving a filter (STRATEGY_RESOLVE_PAGE; tests lower it). */
  resolvePageSize?: number;
  /** Pages resolved per strategy and pass (the rest on the next pass, from the stored cursor). */
  resolvePagesPerPass?: number;
}

/** How often the rollout job runs, and its lease (JobRunner). */
export const STRATEGY_ROLLOUT_INTERVAL_MS = 5000;
/** Most upgrades of one strategy running at once (a fleet is upgraded in waves). */
export const STRATEGY_MAX_IN_FLIGHT = 200;
/**
 * A stage is judged once all its devices finished, or earlier once this many finished (a large
 * stage pauses before it burns through the fleet).
 */
export const STRATEGY_MIN_SAMPLE = 10;
/** Targets per page when a filter's population is resolved. */
export const STRATEGY_RESOLVE_PAGE = 500;
/** Pages per strategy and pass (40 × 500 = 20 000 targets; a 100 000 fleet takes five passes). */
export const STRATEGY_RESOLVE_PAGES_PER_PASS = 40;

/** The judgement of a stage: pause when failures exceed the threshold of finished upgrades. */
export function stageVerdict(
  stats: { size: number; finished: number; failed: number },
  thresholdPercent: number,
): 'pause' | 'complete' | 'running' {
  const judged = stats.finished > 0 && (stats.finished === stats.size || stats.finished >= STRATEGY_MIN_SAMPLE);
  if (judged && stats.failed * 100 > thresholdPercent * stats.finished) return 'pause';
  return stats.finished === stats.size ? 'complete' : 'running';
}

/**
 * The rollout job of upgrade strategies (docs/firmware/contract.md "The rollout job",
 * docs/firmware/strategies.md). One pass (`runOnce`, under the JobRunner's database lease):
 * 1. results: devices upgrading (result 1) whose task ended get 2 (task status 3) or 3;
 *    suggested strategies pick up the tasks the owners started from the device screen;
 * 2. for each strategy in effect, force, not paused: judge the current stage (pause when its
 *    failures exceed `failure_threshold_percent`; when complete, the next stage), then start the
 *    devices of the released stages whose datalogger is online (`engine.start`, not queued).
 * Outside the window nothing starts; cancelled strategies start nothing, their running tasks finish
 * (and their results are still recorded).
 */
export class StrategyRollout {
  constructor(private readonly deps: StrategyRolloutDeps) {}

  async runOnce(): Promise<{ started: number; finished: number; paused: number }> {
    const finished = await this.collectResults();
    await this.resolveFilters();
    const now = this.deps.now();
    const active = await this.deps.db
      .selectFrom('upgrade_strategies')
      .selectAll()
      .where(strategyInEffect(now, 'upgrade_strategies'))
      .where('paused', '=', 0)
      .where('method', '=', STRATEGY_METHOD.force)
      // An explicit list is final; a filter's population must be resolved first.
      .where((eb) => eb.or([eb('filter', '=', ''), eb('resolved_at', 'is not', null)]))
      .orderBy('id')
      .execute();
    let started = 0;
    let paused = 0;
    for (const s of active) {
      try {
        const r = await this.advance(s);
        started += r.started;
        if (r.paused) paused += 1;
      } catch (err) {
        this.deps.log.error({ err, strategy: s.code }, 'strategy rollout failed');
      }
    }
    return { started, finished, paused };
  }

  /**
   * Step 0: the population of by-filter strategies, frozen at the effective time
   * (docs/firmware/strategies.md "By filter"). For each strategy in effect with a filter and no
   * `resolved_at`: the targets matching the filter in the creator's scope (and the firmware's
   * manufacturer) are read in key order from `resolve_cursor`, one page per short transaction
   * (rows inserted with their rank, the cursor stored), never the whole fleet in memory. After the
   * last page the canary is chosen in SQL (the lowest ranks), `resolved_at` is set and audited.
   */
  private async resolveFilters(): Promise<void> {
    const now = this.deps.now();
    const pending = await this.deps.db
      .selectFrom('upgrade_strategies')
      .select(['id', 'code', 'vendor_id', 'created_by', 'fw_type', 'filter', 'resolve_cursor', 'canary_percent', 'stage'])
      .where(strategyInEffect(now, 'upgrade_strategies'))
      .where('resolved_at', 'is', null)
      .where('filter', '!=', '')
      .where('paused', '=', 0)
      .orderBy('id')
      .execute();
    for (const s of pending) {
      try {
        await this.resolveOne(s);
      } catch (err) {
        this.deps.log.error({ err, strategy: s.code }, 'strategy filter resolution failed');
      }
    }
  }

  private async resolveOne(s: {
    id: number;
    code: string;
    vendor_id: number;
    created_by: number;
    fw_type: number;
    filter: string;
    resolve_cursor: string;
    canary_percent: number;
    stage: number;
  }): Promise<void> {
    const db = this.deps.db;
    const acct = await db.selectFrom('accounts').select(['id', 'usr', 'role', 'path', 'status', 'admin_of']).where('id', '=', s.created_by).executeTakeFirst();
    if (!acct) {
      await this.update(s.id, { stage: s.stage, paused: 0, pause_reason: '' }, { stage: s.stage, paused: 1, pause_reason: encodeStrategyPause('creatorGone') });
      return;
    }
    const creator: Caller = {
      accountId: Number(acct.id),
      usr: acct.usr,
      role: acct.role,
      path: acct.path,
      status: acct.status,
      adminOf: acct.admin_of,
      permissions: null,
      sessionId: 0,
    };
    const scope = await this.deps.access.scopeOf(creator);
    const filter = storedFilter(s.filter) ?? {};
    const target = firmwareTarget(s.fw_type);
    const size = this.deps.resolvePageSize ?? STRATEGY_RESOLVE_PAGE;
    const perPass = this.deps.resolvePagesPerPass ?? STRATEGY_RESOLVE_PAGES_PER_PASS;
    let cursor = s.resolve_cursor;
    for (let n = 0; n < perPass; n++) {
      const [cpn = '', csn = ''] = cursor === '' ? [] : (JSON.parse(cursor) as [string, string]);
      type Row = { pn: string; sn: string; devcode: number | null; devaddr: number | null };
      let rows: Row[];
      if (target === 0) {
        let q = loggerTargets(db, scope, filter, { vendorId: s.vendor_id }).select('dl.pn');
        if (cursor !== '') q = q.where('dl.pn', '>', cpn);
        rows = (await q.orderBy('dl.pn').limit(size).execute()).map((r) => ({ pn: r.pn, sn: '', devcode: null, devaddr: null }));
      } else {
        let q = deviceTargets(db, scope, filter, { vendorId: s.vendor_id }).select(['dv.pn', 'dv.sn', 'dv.devcode', 'dv.devaddr']);
        if (cursor !== '') q = q.where((eb) => eb.or([eb('dv.pn', '>', cpn), eb.and([eb('dv.pn', '=', cpn), eb('dv.sn', '>', csn)])]));
        rows = (await q.orderBy('dv.pn').orderBy('dv.sn').limit(size).execute()).map((r) => ({
          pn: r.pn,
          sn: r.sn,
          devcode: Number(r.devcode),
          devaddr: Number(r.devaddr),
        }));
      }
      const last = rows.at(-1);
      const next = last ? JSON.stringify([last.pn, last.sn]) : cursor;
      const now = this.deps.now();
      await this.deps.dbh.transaction(async (trx) => {
        if (rows.length > 0) {
          await trx
            .insertInto('upgrade_strategy_devices')
            .values(
              rows.map((r) => ({
                strategy_id: s.id,
                pn: r.pn,
                sn: r.sn,
                target,
                devcode: r.devcode,
                devaddr: r.devaddr,
                stage: 1,
                result: STRATEGY_DEVICE_RESULT.notUpgraded,
                task_key: null,
                rank: targetRank(s.code, r.pn, r.sn),
                updated_at: now,
              })),
            )
            // A target of the explicit list is there already.
            .onConflict((oc) => oc.columns(['strategy_id', 'pn', 'sn']).doNothing())
            .execute();
        }
        await trx.updateTable('upgrade_strategies').set({ resolve_cursor: next, updated_at: now }).where('id', '=', s.id).execute();
      });
      cursor = next;
      if (rows.length < size) {
        await this.finishResolution(s);
        return;
      }
    }
  }

  /** The last page is written: the canary in SQL (lowest ranks), the stage, `resolved_at`, audited. */
  private async finishResolution(s: { id: number; canary_percent: number; stage: number }): Promise<void> {
    await this.deps.dbh.transaction(async (trx) => {
      const n = Number(
        (
          await trx
            .selectFrom('upgrade_strategy_devices')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('strategy_id', '=', s.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const canary = canarySize(n, s.canary_percent);
      await trx.updateTable('upgrade_strategy_devices').set({ stage: 1 }).where('strategy_id', '=', s.id).execute();
      if (canary > 0) {
        await trx
          .updateTable('upgrade_strategy_devices')
          .set({ stage: 0 })
          .where('id', 'in', (eb) =>
            eb.selectFrom('upgrade_strategy_devices').select('id').where('strategy_id', '=', s.id).orderBy('rank').orderBy('id').limit(canary),
          )
          .execute();
      }
      const now = this.deps.now();
      const stage = canary > 0 ? 0 : 1;
      const res = await trx
        .updateTable('upgrade_strategies')
        .set({ resolved_at: now, stage, updated_at: now })
        .where('id', '=', s.id)
        .where('resolved_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      await this.deps.audit.record(
        { entity: 'upgrade_strategy', entityId: s.id, before: { resolved_at: null, stage: s.stage }, after: { resolved_at: now, stage, devices: n, canary } },
        { accountId: null, usr: null, action: 'job:upgrade-strategies' },
      );
    });
  }

  /** Step 1: results of ended tasks. */
  private async collectResults(): Promise<number> {
    const db = this.deps.db;
    const ended = await db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('upgrade_tasks as t', 't.key', 'd.task_key')
      .select(['d.id', 'd.strategy_id', 'd.pn', 'd.sn', 't.status', 't.key'])
      .where('d.result', '=', STRATEGY_DEVICE_RESULT.upgrading)
      .where('t.ended_at', 'is not', null)
      .limit(5000)
      .execute();
    // Suggested strategies: the owner started the upgrade (a task naming the strategy).
    const picked = await db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('upgrade_strategies as s', 's.id', 'd.strategy_id')
      .innerJoin('upgrade_tasks as t', (j) =>
        j
          .onRef('t.strategy_id', '=', 'd.strategy_id')
          .onRef('t.pn', '=', 'd.pn')
          .on((eb) => eb(eb.fn.coalesce('t.sn', eb.val('')), '=', eb.ref('d.sn'))),
      )
      .select(['d.id', 'd.strategy_id', 'd.pn', 'd.sn', 't.key', 't.status', 't.ended_at'])
      .where('s.method', '=', STRATEGY_METHOD.suggested)
      .where('d.task_key', 'is', null)
      .orderBy('t.created_at', 'desc')
      .limit(5000)
      .execute();
    const now = this.deps.now();
    const seen = new Set<number>();
    for (const p of picked) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      const result = p.ended_at === null ? STRATEGY_DEVICE_RESULT.upgrading : resultOf(p.status);
      await this.setResult(p, result, p.key, now, STRATEGY_DEVICE_RESULT.notUpgraded);
    }
    for (const e of ended) await this.setResult(e, resultOf(e.status), e.key, now, STRATEGY_DEVICE_RESULT.upgrading);
    return ended.length;
  }

  private async setResult(
    d: { id: number; strategy_id: number; pn: string; sn: string },
    result: number,
    key: string,
    now: number,
    from: number,
  ): Promise<void> {
    await this.deps.dbh.transaction(async (trx) => {
      const res = await trx
        .updateTable('upgrade_strategy_devices')
        .set({ result, task_key: key, updated_at: now })
        .where('id', '=', d.id)
        .where('result', '=', from)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      await this.deps.audit.record(
        {
          entity: 'upgrade_strategy_device',
          entityId: d.id,
          before: { strategy_id: d.strategy_id, pn: d.pn, sn: d.sn, result: from },
          after: { result, task_key: key },
        },
        { accountId: null, usr: null, action: 'job:upgrade-strategies' },
      );
    });
  }

  /** Step 2 for one strategy. */
  private async advance(s: {
    id: number;
    code: string;
    stage: number;
    firmware_id: number;
    fw_type: number;
    baud_rate: number;
    failure_threshold_percent: number;
    created_by: number;
  }): Promise<{ started: number; paused: boolean }> {
    const db = this.deps.db;
    let stage = s.stage;
    // Judge the current stage (stage 2: every device released, the failure gate acknowledged).
    while (stage <= 1) {
      const stats = await db
        .selectFrom('upgrade_strategy_devices')
        .select((eb) => [
          eb.fn.countAll<number>().as('size'),
          eb.fn.sum<number>(eb.case().when('result', '>=', STRATEGY_DEVICE_RESULT.success).then(1).else(0).end()).as('finished'),
          eb.fn.sum<number>(eb.case().when('result', '=', STRATEGY_DEVICE_RESULT.failed).then(1).else(0).end()).as('failed'),
        ])
        .where('strategy_id', '=', s.id)
        .where('stage', '=', stage)
        .executeTakeFirstOrThrow();
      const st = { size: Number(stats.size), finished: Number(stats.finished ?? 0), failed: Number(stats.failed ?? 0) };
      const verdict = stageVerdict(st, s.failure_threshold_percent);
      if (verdict === 'pause') {
        const pct = Math.round((st.failed * 100) / st.finished);
        const reason = encodeStrategyPause('stageFailed', {
          stage,
          failed: st.failed,
          finished: st.finished,
          pct,
          threshold: s.failure_threshold_percent,
        });
        await this.update(s.id, { stage: s.stage, paused: 0, pause_reason: '' }, { stage, paused: 1, pause_reason: reason });
        return { started: 0, paused: true };
      }
      if (verdict === 'complete' && stage === 0) {
        await this.update(s.id, { stage: s.stage, paused: 0, pause_reason: '' }, { stage: 1, paused: 0, pause_reason: '' });
        stage = 1;
        continue;
      }
      break;
    }
    const running = Number(
      (
        await db
          .selectFrom('upgrade_strategy_devices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('strategy_id', '=', s.id)
          .where('result', '=', STRATEGY_DEVICE_RESULT.upgrading)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const room = STRATEGY_MAX_IN_FLIGHT - running;
    if (room <= 0) return { started: 0, paused: false };
    const todo = await db
      .selectFrom('upgrade_strategy_devices as d')
      .innerJoin('dataloggers as dl', 'dl.pn', 'd.pn')
      .select(['d.id', 'd.pn', 'd.sn', 'd.target', 'd.devcode', 'd.devaddr'])
      .where('d.strategy_id', '=', s.id)
      .where('d.result', '=', STRATEGY_DEVICE_RESULT.notUpgraded)
      .where('d.stage', '<=', Math.min(stage, 1))
      .where('dl.status', '=', DEVICE_STATUS.NORMAL)
      .orderBy('d.stage')
      .orderBy('d.id')
      .limit(room)
      .execute();
    let started = 0;
    const now = this.deps.now();
    for (const d of todo) {
      const target: UpgradeTarget =
        d.target === 1 ? { pn: d.pn, target: 1, devcode: d.devcode ?? 0, devaddr: d.devaddr ?? 0, sn: d.sn } : { pn: d.pn, target: 0 };
      let ret: 0 | 1 | 2 | 3;
      let key: string | undefined;
      try {
        ({ ret, key } = await this.deps.engine.start({
          target,
          firmwareId: s.firmware_id,
          fwType: s.fw_type,
          baudRate: s.baud_rate,
          by: { accountId: null, usr: `strategy:${s.code}` },
          strategyId: s.id,
          queueIfOffline: false,
          // The job starts many targets in one pass: a silent datalogger must not hold it for the
          // begin wait. A refused begin still ends the task (failed), which the stage judges.
          awaitBegin: false,
        }));
      } catch (err) {
        if (err instanceof ApiError && err.code === 352) {
          // The image is missing, unsigned, mis-signed or its key revoked: nothing can go on.
          await this.update(s.id, { stage, paused: 0, pause_reason: '' }, { stage, paused: 1, pause_reason: encodeStrategyPause('firmwareRefused', { err: 352 }) });
          return { started, paused: true };
        }
        throw err;
      }
      if (ret === 0 && key) {
        await this.setResult(
          { id: d.id, strategy_id: s.id, pn: d.pn, sn: d.sn },
          STRATEGY_DEVICE_RESULT.upgrading,
          key,
          now,
          STRATEGY_DEVICE_RESULT.notUpgraded,
        );
        started += 1;
      } else if (ret === 1) {
        // Failed to start: a failure of this device in its stage.
        await this.setResult({ id: d.id, strategy_id: s.id, pn: d.pn, sn: d.sn }, STRATEGY_DEVICE_RESULT.failed, '', now, STRATEGY_DEVICE_RESULT.notUpgraded);
      }
      // 2 offline, 3 already upgrading: tried again on a later pass.
    }
    return { started, paused: false };
  }

  private async update(
    id: number,
    before: { stage: number; paused: number; pause_reason: string },
    after: { stage: number; paused: number; pause_reason: string },
  ): Promise<void> {
    await this.deps.dbh.transaction(async (trx) => {
      const res = await trx
        .updateTable('upgrade_strategies')
        .set({ ...after, updated_at: this.deps.now() })
        .where('id', '=', id)
        .where('paused', '=', 0)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      await this.deps.audit.record(
        { entity: 'upgrade_strategy', entityId: id, before, after },
        { accountId: null, usr: null, action: 'job:upgrade-strategies' },
      );
    });
  }
}

/** STRATEGY_DEVICE_RESULT of an ended task: succeeded only when the datalogger reported success. */
function resultOf(status: number): number {
  return status === FIRMWARE_UPGRADE_STATUS.success ? STRATEGY_DEVICE_RESULT.success : STRATEGY_DEVICE_RESULT.failed;
}

export type { StrategyStatus };
