import {
  ApiError,
  DEVICE_STATUS,
  FIRMWARE_UPGRADE_STATUS,
  STRATEGY_DEVICE_RESULT,
  STRATEGY_METHOD,
  type StrategyStatus,
} from '@sunwatch/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import type { DbHandle } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import type { UpgradeEngine, UpgradeTarget } from '../upgrades/engine-port.js';

export interface StrategyRolloutDeps {
  db: Db;
  /** Short transactions in which the audit row joins the write. */
  dbh: DbHandle;
  audit: AuditService;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  engine: UpgradeEngine;
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

/** The judgement of a stage: pause when failures exceed the threshold of finished upgrades. */
export function stageVerdict(
  stats: { size: number; finished: number; failed: number },
  thresholdPercent: number,
): 'pause' | 'complete' | 'running' {
  const judged = stats.finished > 0 && (stats.finished === stats.size || stats.finished >= STRATEGY_MIN_SAMPLE);
  if (judged && stats.failed * 100 > thresholdPercent * stats.finished) return 'pause';
  return stats.finished === stats.size ? 'complete' : 'running';
}

const STAGE_NAMES = ['canary', 'rollout'] as const;

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
    const now = this.deps.now();
    const active = await this.deps.db
      .selectFrom('upgrade_strategies')
      .selectAll()
      .where('cancelled_at', 'is', null)
      .where('starts_at', '<=', now)
      .where('ends_at', '>', now)
      .where('paused', '=', 0)
      .where('method', '=', STRATEGY_METHOD.force)
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
        const reason = `${STAGE_NAMES[stage]}: ${st.failed} of ${st.finished} failed (${pct} % > ${s.failure_threshold_percent} %)`;
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
        }));
      } catch (err) {
        if (err instanceof ApiError && err.code === 352) {
          // The image is missing, unsigned, mis-signed or its key revoked: nothing can go on.
          await this.update(s.id, { stage, paused: 0, pause_reason: '' }, { stage, paused: 1, pause_reason: 'firmware refused (352)' });
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
